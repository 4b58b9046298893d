package dev.everett.segment;

import dev.everett.api.CorruptSegmentException;
import dev.everett.api.OpenMode;
import dev.everett.api.Policy;
import dev.everett.api.RecordLocation;
import dev.everett.api.SegmentReader;
import dev.everett.api.Unit;
import dev.everett.api.ValueGrammar;
import dev.everett.api.VerifyReport;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A KV02 native segment, memory-mapped through one shared {@link Arena} that {@link #close()}
 * releases. After close every access throws {@link IllegalStateException} from the closed arena:
 * the mapping cannot be touched once it is gone.
 */
final class Kv02Reader implements SegmentReader {
    private final Path path;
    private final Policy policy;
    private final Arena arena;
    private final MemorySegment file;
    private final Envelope envelope;
    private final Corruption corruption;
    private volatile Typed typed;
    private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();

    /** Directory-dependent state, built by the typed check. */
    record Typed(Kv02Directory directory, EliasFanoReader offsets, long fcStart, long fcEnd, FcStream stream) {
    }

    private Kv02Reader(Path path, Policy policy, Arena arena, MemorySegment file, Envelope envelope) {
        this.path = path;
        this.policy = policy;
        this.arena = arena;
        this.file = file;
        this.envelope = envelope;
        this.corruption = new Corruption(path);
    }

    static Kv02Reader open(Path path, Policy policy, OpenMode mode) throws IOException {
        Arena arena = Arena.ofShared();
        try {
            MemorySegment mapped;
            try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
                mapped = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena);
            }
            Envelope env = Envelope.parse(path, mapped);
            checkKind(path, env);
            env.requirePolicy(path, policy);
            if (policy.unit() != Unit.BYTE) {
                throw new UnsupportedOperationException("bit-unit KV02 is not readable by this engine yet: " + path);
            }
            Kv02Reader reader = new Kv02Reader(path, policy, arena, mapped, env);
            if (mode == OpenMode.TYPED) {
                reader.typed();
            }
            return reader;
        } catch (RuntimeException | IOException | Error e) {
            arena.close();
            throw e;
        }
    }

    private static void checkKind(Path path, Envelope env) {
        Corruption c = new Corruption(path);
        c.require(env.kind() == Envelope.Kind.NATIVE, 0, "an index object (EVRT.IX) is not a native segment");
        String name = path.getFileName() == null ? "" : path.getFileName().toString();
        c.require(!name.endsWith(".index"), 0, "native object stored under an .index name");
    }

    /** Checks the directory on first need (always done at open in {@link OpenMode#TYPED}). */
    Typed typed() {
        Typed t = typed;
        if (t == null) {
            synchronized (this) {
                t = typed;
                if (t == null) {
                    Kv02Directory d = Kv02Directory.parse(corruption, file, envelope);
                    long body = Envelope.BYTES;
                    long n = Le.ceilDiv(envelope.recordCount(), envelope.blockWidth()) + 1;
                    EliasFanoReader ef = new EliasFanoReader(file, corruption, n, d.universe(), d.lowWidth(),
                            body + d.offsets()[Kv02Directory.LOW], body + d.offsets()[Kv02Directory.HIGH],
                            body + d.offsets()[Kv02Directory.SAMPLES], body + d.offsets()[Kv02Directory.SPARSE],
                            d.lengths()[Kv02Directory.SPARSE]);
                    long fcStart = body + d.offsets()[Kv02Directory.FC];
                    FcStream stream = new FcStream(file, corruption, fcStart, fcStart + d.fcExtent(), ef, envelope.recordCount(),
                            envelope.blockWidth(), envelope.commonWidthOrNone(), true, d.terminalLength(), body + 16);
                    t = new Typed(d, ef, fcStart, fcStart + d.fcExtent(), stream);
                    typed = t;
                }
            }
        }
        return t;
    }

    MemorySegment file() {
        return file;
    }

    Corruption corruption() {
        return corruption;
    }

    Envelope envelope() {
        return envelope;
    }

    boolean optionalValues() {
        return policy.grammar() == ValueGrammar.OPTIONAL;
    }

    @Override
    public Path path() {
        return path;
    }

    @Override
    public Policy policy() {
        return policy;
    }

    @Override
    public long recordCount() {
        return envelope.recordCount();
    }

    @Override
    public long commonValueWidth() {
        return envelope.commonWidthOrNone();
    }

    @Override
    public long fileBytes() {
        return file.byteSize();
    }

    @Override
    public Kv02Cursor cursor() {
        return new Kv02Cursor(this, typed());
    }

    @Override
    public RecordLocation recordAt(long ordinal) {
        long count = envelope.recordCount();
        if (ordinal < 0 || ordinal >= count) {
            throw new IndexOutOfBoundsException("record " + ordinal + " of " + count);
        }
        FcStream.Window w = new FcStream.Window();
        typed().stream().open(w, ordinal);
        w.read();
        ByteFrame f = w.frame;
        boolean tombstone = false;
        long valueAt = f.valueAt;
        long valueLength = f.valueLength;
        if (optionalValues()) {
            tombstone = OptionalValue.isTombstone(file, corruption, valueAt, valueLength);
            valueAt++;
            valueLength = tombstone ? 0 : valueLength - 1;
        }
        return new RecordLocation(ordinal, f.keyLength(), f.retained, file.asSlice(f.suffixAt, f.suffixLength),
                tombstone, file.asSlice(valueAt, valueLength));
    }

    @Override
    public VerifyReport verify() {
        Typed t = typed();
        Kv02Directory d = t.directory();
        Scan.bodyCrc(file, envelope, corruption);
        Scan.zeroGaps(file, corruption, Kv02Directory.BYTES, d.offsets(), d.lengths());
        long[] nonCanonical = new long[1];
        Scan.RecordCheck values = optionalValues() ? f -> OptionalValue.isTombstone(file, corruption, f.valueAt, f.valueLength) : null;
        EliasFano canonical = Scan.walk(t.stream(), nonCanonical, values);
        long body = Envelope.BYTES;
        long[] at = new long[4];
        long[] lengths = new long[4];
        for (int i = 0; i < 4; i++) {
            at[i] = body + d.offsets()[Kv02Directory.LOW + i];
            lengths[i] = d.lengths()[Kv02Directory.LOW + i];
        }
        Scan.sameEliasFano(file, corruption, canonical, d.universe(), body + 24, d.lowWidth(), body + 32, at, lengths);
        long count = envelope.recordCount();
        return new VerifyReport(count, Le.ceilDiv(count, envelope.blockWidth()), nonCanonical[0] < 0, nonCanonical[0]);
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            arena.close();
        }
    }

    @Override
    public String toString() {
        return "Kv02Reader[" + path + ", " + recordCount() + " records]";
    }

    /** For tests: a corruption error attributed to this file. */
    CorruptSegmentException corrupt(long offset, String rule) {
        return corruption.at(offset, rule);
    }
}

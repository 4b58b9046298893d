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
import java.util.zip.CRC32C;

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
        checkBodyCrc();
        checkGaps(d);
        long count = envelope.recordCount();
        long w = envelope.blockWidth();
        long blocks = Le.ceilDiv(count, w);
        if (blocks + 1 > Integer.MAX_VALUE - 8) {
            throw new UnsupportedOperationException("verify() holds one residual per block; " + blocks + " blocks is too many");
        }
        long[] residuals = new long[(int) blocks + 1];
        long stride = Math.max(0, envelope.commonWidthOrNone());
        try (Kv02Cursor c = cursor()) {
            while (c.next()) {
                long o = c.ordinal();
                if (o % w == 0) {
                    residuals[(int) (o / w)] = c.recordStart() - t.fcStart() - o * stride;
                }
            }
            residuals[(int) blocks] = d.fcExtent() - count * stride;
            EliasFano canonical = EliasFano.build(residuals, residuals.length);
            compareDirectory(d, canonical);
            return new VerifyReport(count, blocks, c.firstNonCanonical() < 0, c.firstNonCanonical());
        }
    }

    private void checkBodyCrc() {
        CRC32C crc = new CRC32C();
        long at = Envelope.BYTES;
        long size = file.byteSize();
        while (at < size) {
            long chunk = Math.min(1L << 30, size - at);
            crc.update(file.asSlice(at, chunk).asByteBuffer());
            at += chunk;
        }
        long stored = Integer.toUnsignedLong(envelope.bodyCrc());
        if (crc.getValue() != stored) {
            throw corruption.at(Envelope.BODY_CRC_OFFSET, "body CRC32C mismatch: stored " + Long.toHexString(stored)
                    + ", computed " + Long.toHexString(crc.getValue()));
        }
    }

    private void checkGaps(Kv02Directory d) {
        long body = Envelope.BYTES;
        long end = Kv02Directory.BYTES;
        for (int i = 0; i < Kv02Directory.SECTIONS; i++) {
            for (long g = body + end; g < body + d.offsets()[i]; g++) {
                if (file.get(java.lang.foreign.ValueLayout.JAVA_BYTE, g) != 0) {
                    throw corruption.at(g, "gap byte before section " + i + " must be 0");
                }
            }
            end = d.offsets()[i] + d.lengths()[i];
        }
    }

    /** The rebuilt canonical Elias–Fano must match the file's word for word. */
    private void compareDirectory(Kv02Directory d, EliasFano ef) {
        long body = Envelope.BYTES;
        if (ef.universe() != d.universe()) {
            throw corruption.at(body + 24, "Elias–Fano universe " + d.universe() + " is not the rebuilt " + ef.universe());
        }
        if (ef.lowWidth() != d.lowWidth()) {
            throw corruption.at(body + 32, "Elias–Fano low width " + d.lowWidth() + " is not the canonical " + ef.lowWidth());
        }
        compareWords(body + d.offsets()[Kv02Directory.LOW], d.lengths()[Kv02Directory.LOW], ef.low(), "low word");
        compareWords(body + d.offsets()[Kv02Directory.HIGH], d.lengths()[Kv02Directory.HIGH], ef.high(), "high word");
        compareWords(body + d.offsets()[Kv02Directory.SAMPLES], d.lengths()[Kv02Directory.SAMPLES], ef.samples(), "select sample word");
        compareWords(body + d.offsets()[Kv02Directory.SPARSE], d.lengths()[Kv02Directory.SPARSE], ef.sparse(), "sparse position");
    }

    private void compareWords(long at, long length, long[] expected, String what) {
        if (length != 8L * expected.length) {
            throw corruption.at(at, "Elias–Fano " + what + " section has " + length / 8 + " words, canonical has " + expected.length);
        }
        for (int i = 0; i < expected.length; i++) {
            if (Le.u64(file, at + 8L * i) != expected[i]) {
                throw corruption.at(at + 8L * i, "Elias–Fano " + what + " " + i + " differs from the canonical rebuild");
            }
        }
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

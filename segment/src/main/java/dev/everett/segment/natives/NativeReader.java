package dev.everett.segment.natives;

import dev.everett.api.CorruptSegmentException;
import dev.everett.api.OpenMode;
import dev.everett.api.Policy;
import dev.everett.api.PolicyMismatchException;
import dev.everett.api.RecordLocation;
import dev.everett.api.SegmentCursor;
import dev.everett.api.SegmentFormat;
import dev.everett.api.SegmentReader;
import dev.everett.api.Unit;
import dev.everett.api.ValueGrammar;
import dev.everett.api.VerifyReport;
import dev.everett.segment.bits.EliasFano;
import dev.everett.segment.bits.EliasFanoReader;
import dev.everett.segment.fc.FcStream;
import dev.everett.segment.fc.Framing;
import dev.everett.segment.fc.FullScan;
import dev.everett.segment.fc.KeyForm;
import dev.everett.segment.fc.ValueCodec;
import dev.everett.segment.io.Corruption;
import dev.everett.segment.io.Envelope;
import dev.everett.segment.io.FileInMemory;
import dev.everett.segment.io.LittleEndian;
import dev.everett.segment.io.MappedFile;
import dev.everett.segment.io.SmallCopies;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

/**
 * A native segment (KV02 in byte or bit units, or KV03), memory-mapped through one shared
 * {@link Arena} that {@link #close()} releases. After close every call throws
 * {@link IllegalStateException} naming the file (a cursor opened before, the closed arena's):
 * the mapping cannot be touched once it is gone. A small native that an object store opens is
 * copied into the store's {@link SmallCopies} instead, which frees it with other small files'
 * copies: a cursor opened before such a reader closed reads the same bytes until then, and fails
 * with the closed arena's error after. The policy's format must match the file's directory magic.
 *
 * <p><b>Checked reads.</b> Unless opened with {@code verifyChecksums = false}, no record is read
 * from the body before its CRC32C has been checked: the first read of any kind (a cursor, a
 * record by ordinal, a lookup through a catalog, merge input, an index build) checks the whole
 * body once and the reader remembers it. A flipped payload bit that breaks no framing rule would
 * otherwise give a wrong answer; the open itself stays cheap (envelope and directory only).
 */
public final class NativeReader implements SegmentReader {
    private final Path path;
    private final Policy policy;
    /** Releases {@link #file}'s memory: closes the reader's own arena, or gives back a store's copy. */
    private final Runnable release;
    private final MemorySegment file;
    private final Envelope envelope;
    private final Corruption corruption;
    /** The directory, parsed and shape-checked (at open in TYPED mode, else on first need). */
    private volatile Typed parsed;
    /** The same, published only once the body CRC has held (or checking is off). */
    private volatile Typed typed;
    private final boolean verifyChecksums;
    /** The policy's framing, key form and unit-specific parts, chosen once at open. */
    private final Framing framing;
    private final KeyForm keyForm;
    private final NativeFamily family;
    private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();

    /**
     * Directory-dependent state, built by the typed check.
     *
     * @param fcStart file byte offset of the record stream's section
     * @param fcEnd   file byte offset just past it
     */
    public record Typed(NativeDirectory directory, EliasFanoReader offsets, long fcStart, long fcEnd, FcStream stream) {
    }

    private NativeReader(Path path, Policy policy, Runnable release, MemorySegment file, Envelope envelope, boolean verifyChecksums) {
        this.path = path;
        this.verifyChecksums = verifyChecksums;
        this.policy = policy;
        this.release = release;
        this.file = file;
        this.envelope = envelope;
        this.corruption = new Corruption(path);
        this.framing = Framing.ofNatives(policy);
        this.keyForm = Framing.keyForm(policy);
        this.family = framing.units().choose(NativeFamily.BYTES, NativeFamily.BITS);
    }

    /** Opens a native whose body CRC is checked before its first read. */
    public static NativeReader open(Path path, Policy policy, OpenMode mode) throws IOException {
        return open(path, policy, mode, true);
    }

    /**
     * Opens a native; with {@code verifyChecksums} false its body is read without its CRC being
     * checked (as RocksDB's {@code verify_checksums = false}): a damaged payload may then answer
     * wrongly until {@link #verify()} refuses it.
     */
    public static NativeReader open(Path path, Policy policy, OpenMode mode, boolean verifyChecksums) throws IOException {
        return open(path, policy, mode, verifyChecksums, MappedFile.inOwnArena(arena -> MappedFile.readOnly(path, arena)));
    }

    /**
     * As {@link #open(Path, Policy, OpenMode, boolean)}, a small file copied into {@code copies}
     * (an object store's, shared by its small files) instead of an arena of its own.
     */
    public static NativeReader open(Path path, Policy policy, OpenMode mode, boolean verifyChecksums, SmallCopies copies) throws IOException {
        return open(path, policy, mode, verifyChecksums, MappedFile.readOnly(path, copies));
    }

    /**
     * Opens a native read whole into memory ({@link FileInMemory}) rather than mapped: for a
     * reader that reads every record once, as a compaction reads its inputs. The memory is
     * released when the reader closes; the file may change or go meanwhile without its reader
     * seeing it.
     */
    public static NativeReader openInMemory(Path path, Policy policy, OpenMode mode, boolean verifyChecksums) throws IOException {
        return open(path, policy, mode, verifyChecksums, MappedFile.inOwnArena(arena -> FileInMemory.readOnly(path, arena)));
    }

    /** Opens the native whose bytes are {@code loaded}; releases them if it fails. */
    private static NativeReader open(Path path, Policy policy, OpenMode mode, boolean verifyChecksums, MappedFile.Loaded loaded) {
        try {
            MemorySegment bytes = loaded.bytes();
            Envelope env = Envelope.parse(path, bytes);
            env.requireKind(path, Envelope.Kind.NATIVE, policy);
            checkFormat(path, bytes, env, policy);
            NativeReader reader = new NativeReader(path, policy, loaded.release(), bytes, env, verifyChecksums);
            if (mode == OpenMode.TYPED) {
                reader.parsed();
            }
            return reader;
        } catch (RuntimeException | Error e) {
            loaded.releaseAfter(e);
            throw e;
        }
    }

    /**
     * The directory magic names the file's format: a KV02 file under a KV03 policy, or the
     * reverse, belongs elsewhere. Read at open in both modes, so that a format mismatch is
     * reported as one before any query (once the body CRC has held: see below). Any other magic
     * is left to the typed check.
     */
    private static void checkFormat(Path path, MemorySegment s, Envelope env, Policy policy) {
        if (s.byteSize() < Envelope.BYTES + NativeDirectory.MAGIC_BYTES) {
            return;
        }
        int magic = (int) LittleEndian.u32(s, Envelope.BYTES);
        SegmentFormat found = magic == Kv02Directory.MAGIC ? SegmentFormat.KV02
                : magic == Kv03Directory.MAGIC && env.unit() == Unit.BIT ? SegmentFormat.KV03 : null;
        if (found != null && found != policy.format()) {
            // KV02's and KV03's magics differ in one bit: a damaged magic must be reported as
            // damage, so the body (which holds the magic) has to pass its CRC before the
            // difference counts as a file written under another policy.
            FullScan.bodyCrc(s, env, new Corruption(path));
            throw new PolicyMismatchException(path, "segment format", policy.format(), found);
        }
    }

    /**
     * The directory-dependent state for reading records: the directory checked on first need
     * (at open in {@link OpenMode#TYPED}) and, unless checking is off, the body CRC checked once
     * before the first caller gets it. A body that fails its CRC fails every call, naming the file.
     */
    public Typed typed() {
        Typed t = typed;
        if (t == null) {
            synchronized (this) {
                t = typed;
                if (t == null) {
                    t = parsed();
                    if (verifyChecksums) {
                        FullScan.bodyCrc(file, envelope, corruption);
                    }
                    typed = t;
                }
            }
        }
        return t;
    }

    /** True unless the reader was opened with checking off. */
    public boolean verifiesChecksums() {
        return verifyChecksums;
    }

    /** Parses and shape-checks the directory once; reads no record. */
    private Typed parsed() {
        Typed t = parsed;
        if (t == null) {
            synchronized (this) {
                t = parsed;
                if (t == null) {
                    NativeDirectory d = policy.format() == SegmentFormat.KV03
                            ? Kv03Directory.parse(corruption, file, envelope)
                            : Kv02Directory.parse(corruption, file, envelope);
                    long body = Envelope.BYTES;
                    long n = LittleEndian.ceilDiv(envelope.recordCount(), envelope.blockWidth()) + 1;
                    EliasFanoReader ef = new EliasFanoReader(file, corruption, n, d.universe(), d.lowWidth(),
                            body + d.offsets()[NativeDirectory.LOW], body + d.offsets()[NativeDirectory.HIGH],
                            body + d.offsets()[NativeDirectory.SAMPLES], body + d.offsets()[NativeDirectory.SPARSE],
                            d.lengths()[NativeDirectory.SPARSE]);
                    long fcStart = body + d.offsets()[NativeDirectory.FC];
                    long start = framing.units().position(fcStart);
                    FcStream stream = new FcStream(file, corruption, start, start + d.fcExtent(), ef, envelope.recordCount(),
                            envelope.blockWidth(), envelope.commonWidthOrNone(), true, d.terminalLength(), body + d.terminalField(), framing);
                    t = new Typed(d, ef, fcStart, fcStart + d.lengths()[NativeDirectory.FC], stream);
                    parsed = t;
                }
            }
        }
        return t;
    }

    public MemorySegment file() {
        return file;
    }

    public Corruption corruption() {
        return corruption;
    }

    Envelope envelope() {
        return envelope;
    }

    public boolean optionalValues() {
        return policy.grammar() == ValueGrammar.OPTIONAL;
    }

    /** How this file's records are framed: its unit, frame and sort code. */
    public Framing framing() {
        return framing;
    }

    /** How the host's keys relate to the keys this file stores. */
    public KeyForm keyForm() {
        return keyForm;
    }

    /** A fresh value decoder for this file's unit, format and grammar. */
    public ValueCodec values() {
        return Framing.values(policy);
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
        live();
        return envelope.recordCount();
    }

    @Override
    public long commonValueWidth() {
        live();
        return envelope.commonWidthOrNone();
    }

    @Override
    public long fileBytes() {
        live();
        return file.byteSize();
    }

    @Override
    public SegmentCursor cursor() {
        live();
        return family.cursors().open(this, typed());
    }

    @Override
    public RecordLocation recordAt(long ordinal) {
        live();
        long count = envelope.recordCount();
        if (ordinal < 0 || ordinal >= count) {
            throw new IndexOutOfBoundsException("record " + ordinal + " of " + count);
        }
        FcStream.Window w = new FcStream.Window();
        typed().stream().open(w, ordinal);
        w.read();
        return family.records().at(this, ordinal, w.frame);
    }

    @Override
    public void verifyChecksum() {
        live();
        Typed t = parsed();
        FullScan.bodyCrc(file, envelope, corruption);
        bodyChecked(t);
    }

    /** Notes that the body passed its CRC just now: the first read need not check it again. */
    private synchronized void bodyChecked(Typed t) {
        if (typed == null) {
            typed = t;
        }
    }

    /**
     * The directory-dependent state before the body CRC is checked, with the check that a walk of
     * every record takes as it goes ({@link BodyCrcTrail}): for a reader that reads each record
     * once and trusts nothing it read until the trail's {@link BodyCrcTrail#finish()} has passed.
     * Every read of this reader's own still waits for the CRC (unless the trail has passed it).
     */
    public Checking checking() {
        live();
        Typed t = parsed();
        return new Checking(t, new BodyCrcTrail(file, envelope, corruption, () -> bodyChecked(t)));
    }

    /**
     * What to report for {@code e}, a refusal of this native's directory or framing met before
     * its body CRC was checked: the body's CRC mismatch (with {@code e} suppressed) if the body
     * does not hold it, since damage explains the refusal; else {@code e}. Parses nothing, so a
     * damaged directory does not stand in the way.
     */
    public CorruptSegmentException explainedByBody(CorruptSegmentException e) {
        try {
            FullScan.bodyCrc(file, envelope, corruption);
        } catch (CorruptSegmentException damaged) {
            damaged.addSuppressed(e);
            return damaged;
        } catch (RuntimeException unreadable) {
            e.addSuppressed(unreadable); // closed meanwhile, say: report the refusal as it is
        }
        return e;
    }

    /** The state {@link #checking()} gives: the parsed directory and the CRC to take while walking it. */
    public record Checking(Typed typed, BodyCrcTrail trail) {
    }

    @Override
    public VerifyReport verify() {
        live();
        Typed t = parsed();
        NativeDirectory d = t.directory();
        FullScan.bodyCrc(file, envelope, corruption);
        FullScan.zeroGaps(file, corruption, d.bytes(), d.offsets(), d.lengths());
        long body = Envelope.BYTES;
        framing.units().checkPadding(file, corruption, body + d.offsets()[NativeDirectory.FC], d.fcExtent(), "record stream");
        ValueCodec v = values();
        FullScan.RecordCheck values = f -> v.decode(file, corruption, f.valueAt, f.valueLength);
        long[] nonCanonical = new long[1];
        EliasFano canonical = FullScan.walk(t.stream(), nonCanonical, values);
        long[] at = new long[4];
        long[] lengths = new long[4];
        for (int i = 0; i < 4; i++) {
            at[i] = body + d.offsets()[NativeDirectory.LOW + i];
            lengths[i] = d.lengths()[NativeDirectory.LOW + i];
        }
        FullScan.sameEliasFano(file, corruption, canonical, d.universe(), body + d.universeField(), d.lowWidth(), body + d.lowWidthField(), at, lengths);
        if (Framing.orderedStrings(policy)) {
            // Every stored key must be one canonical ordered string form: the cursor decodes each.
            try (SegmentCursor c = cursor()) {
                while (c.next()) {
                    // decoding is the check
                }
            }
        }
        long count = envelope.recordCount();
        return new VerifyReport(count, LittleEndian.ceilDiv(count, envelope.blockWidth()), nonCanonical[0] < 0, nonCanonical[0]);
    }

    /**
     * Refuses a call after {@link #close()}, naming the file (a reader that was handed out and
     * closed must not answer from its header fields, nor fail with the closed arena's unnamed
     * error). Cursors already open when the reader closed fail with the arena's error (for a copy
     * in a store's {@link SmallCopies}, once its generation closes).
     */
    private void live() {
        if (closed.get()) {
            throw new IllegalStateException(path + ": this reader is closed");
        }
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            release.run();
        }
    }

    @Override
    public String toString() {
        return "NativeReader[" + path + ", " + envelope.recordCount() + " records]";
    }

    /** For tests: a corruption error attributed to this file. */
    CorruptSegmentException corrupt(long offset, String rule) {
        return corruption.at(offset, rule);
    }
}

package dev.everett.segment.encoded;

import dev.everett.api.CorruptSegmentException;
import dev.everett.api.Policy;
import dev.everett.api.SegmentReader;
import dev.everett.segment.bits.EliasFanoReader;
import dev.everett.segment.bits.OrderedStrings;
import dev.everett.segment.fc.FcStream;
import dev.everett.segment.fc.Frame;
import dev.everett.segment.fc.Framing;
import dev.everett.segment.fc.StreamUnits;
import dev.everett.segment.fc.ValueCodec;
import dev.everett.segment.natives.BodyCrcTrail;
import dev.everett.segment.natives.NativeReader;
import java.lang.foreign.MemorySegment;

/**
 * The records of a native segment as they are encoded: for each record its retained prefix
 * length, its literal (the key units after that prefix) and its encoded value, all as offsets
 * into the mapped file. No key is rebuilt; this is what the native merger walks. Framing, block
 * offsets, the extent and the terminal length are checked as the walk goes; key order is left
 * to the consumer, which compares literals anyway.
 *
 * <p>Units (the family's, chosen once: {@link #open}, {@link #copyUnits}, {@link #bytesFor}):
 * byte-unit natives give byte offsets and lengths in bytes.
 * Bit-unit natives (KV02 bit, KV03) give <em>file bit offsets</em> (byte offset × 8, MSB-first)
 * and lengths in bits, for the literal and for the encoded value alike: the value is the span of
 * the record stream that holds it, codec and all, so a consumer copies it bit for bit, and
 * decodes it only when it needs the bytes ({@link EncodedValues}). Retained prefixes and key
 * lengths count bits of the stored key after its sort code (KV03: the host key; KV02: its
 * ordered string form), as in {@code recordAt}: a record keeping less than the code (KV02's
 * record 0, a KV03 record that spells the code again) keeps 0, its literal starting after the
 * code. Since every key of Everett's string policy has the same code, this order is logical-key
 * order, and a writer given these records adds the code back ({@link EncodedOutput}).
 */
public final class EncodedRecords {
    private final NativeReader reader;
    private final FcStream stream;
    private final Frame frame;
    /** Checks each value as the walk reaches it, so {@link #tombstone()} and a consumer may trust it. */
    private final ValueCodec values;
    private final int pathBits;
    private final boolean orderedStrings;
    /** The stream's unit: how its keys are copied and sized. */
    private final StreamUnits units;
    private final EliasFanoReader.Cursor blockOffsets;
    private final long stride;
    /** The body CRC taken behind the walk ({@link #checkedAsRead}), or null. */
    private final BodyCrcTrail trail;
    /** Position at whose block start the trail next catches up (never, without a trail). */
    private long trailDue = Long.MAX_VALUE;
    private long ordinal = -1;
    private long nextBlock;
    /** The current key's length in the stream's own terms (KV03: logical bits, sort code included). */
    private long keyLength;

    /**
     * Bytes the walk passes between two catch-ups of its CRC trail: large enough that the CRC's
     * fixed cost per call vanishes, small enough that the bytes of every input of a merge are
     * still in the processor's cache when the trail takes them.
     */
    static final int TRAIL_WINDOW = 32 << 10;

    private EncodedRecords(NativeReader reader, boolean checkAsRead) {
        this.reader = reader;
        NativeReader.Checking checking = checkAsRead ? reader.checking() : null;
        this.trail = checking == null ? null : checking.trail();
        this.stream = checking == null ? reader.typed().stream() : checking.typed().stream();
        Framing framing = stream.framing();
        this.frame = framing.newFrame();
        this.frame.bind(stream);
        this.frame.pos = stream.start();
        this.values = reader.values();
        this.pathBits = framing.pathBits();
        this.orderedStrings = Framing.orderedStrings(reader.policy());
        this.units = framing.units();
        this.blockOffsets = stream.offsets().cursor(0);
        this.stride = stream.stride();
        if (trail != null) {
            trailDue = stream.start();
        }
    }

    /** The encoded records of a segment opened by this engine (whose reader checks the body CRC before the first record). */
    public static EncodedRecords of(SegmentReader reader) {
        return new EncodedRecords(nativeOf(reader), false);
    }

    /**
     * The encoded records of a segment opened by this engine, with its body CRC taken as the walk
     * goes instead of before it ({@link BodyCrcTrail}): the walk's end ({@link #next()} returning
     * false) and {@link #checkBody()} compare it. A consumer must not trust anything it read
     * before one of them has passed, and must call {@link #checkBody()} when it fails part way
     * (the damage behind a framing error is then reported as the file's CRC mismatch).
     */
    public static EncodedRecords checkedAsRead(SegmentReader reader) {
        NativeReader r = nativeOf(reader);
        try {
            return new EncodedRecords(r, true);
        } catch (CorruptSegmentException e) {
            // The walk cannot start (a damaged directory, say): report damage as damage.
            throw r.explainedByBody(e);
        }
    }

    private static NativeReader nativeOf(SegmentReader reader) {
        if (reader instanceof dev.everett.segment.objects.ReaderHandle h) {
            reader = h.nativeReader(); // an object store's handle: read the shared reader behind it
        }
        if (!(reader instanceof NativeReader r)) {
            throw new IllegalArgumentException("not a segment of this engine: " + reader);
        }
        return r;
    }

    /**
     * Completes the body CRC of a walk {@link #checkedAsRead} (taking the bytes not yet taken) and
     * compares it; does nothing for a walk whose reader checked the CRC itself, or once passed.
     *
     * @throws CorruptSegmentException naming the file, if its body is not what its writer published
     */
    public void checkBody() {
        if (trail != null) {
            trail.finish();
        }
    }

    public Policy policy() {
        return reader.policy();
    }

    public SegmentReader reader() {
        return reader;
    }

    public long count() {
        return stream.count();
    }

    /** Moves to the next record; false after the last (once the stream's end is checked). */
    public boolean next() {
        long o = ordinal + 1;
        if (o >= stream.count()) {
            if (o == stream.count()) {
                checkEnd();
                ordinal = o;
            }
            return false;
        }
        boolean blockStart = o == nextBlock;
        if (blockStart) {
            long expected = blockOffsets.next() + o * stride;
            if (expected != frame.pos - stream.start()) {
                throw corrupt(stream.byteOffset(frame.pos), "block starts at stream offset " + (frame.pos - stream.start()) + " but its Elias–Fano entry says " + expected);
            }
            nextBlock += stream.blockWidth();
            if (frame.pos >= trailDue) {
                catchUpTrail();
            }
        }
        frame.read(blockStart, o == 0 ? 0 : keyLength, o == 0, stream.start());
        values.checkWalked(frame, stream.segment(), reader.corruption());
        keyLength = frame.retained + frame.suffixLength;
        ordinal = o;
        return true;
    }

    /** Takes the CRC of the bytes the walk has passed (it has just read them), and sets when to next. */
    private void catchUpTrail() {
        long at = stream.byteOffset(frame.pos);
        trail.catchUp(at);
        trailDue = units.position(at + TRAIL_WINDOW);
    }

    private void checkEnd() {
        checkBody();
        if (frame.pos != stream.end()) {
            throw corrupt(stream.byteOffset(frame.pos), "records end before the stream's extent");
        }
        if (stream.count() > 0 && keyLength != stream.terminalLength()) {
            throw corrupt(stream.terminalAt(), "terminal key length " + stream.terminalLength() + " but the last key has " + keyLength);
        }
        long last = blockOffsets.next();
        if (last != stream.end() - stream.start() - stream.count() * stride) {
            throw corrupt(stream.byteOffset(stream.end()), "last Elias–Fano entry disagrees with the extent");
        }
    }

    /** A corruption error naming this file, at a file byte offset. */
    public CorruptSegmentException corrupt(long offset, String rule) {
        return reader.corruption().at(offset, rule);
    }

    /** A codec for this segment's encoded values (not shared: it keeps decode buffers). */
    public EncodedValues values() {
        return new EncodedValues(reader.policy(), reader.corruption());
    }

    /**
     * True for bit-unit natives: positions are file bit offsets and lengths count bits. A
     * consumer need not ask: {@link #open} picks its unit's part, and {@link #copyUnits},
     * {@link #bytesFor}, {@link #wholeBytes} and {@link #unitNames} do the unit's arithmetic.
     */
    public boolean bitUnit() {
        return units.partialBytes();
    }

    /** Makes a consumer's per-input part (the merger's span key) for {@code records} and input {@code index}. */
    @FunctionalInterface
    public interface InputFactory<K> {
        K open(EncodedRecords records, int index);
    }

    /**
     * This input's part of a consumer, made by the factory of its unit: {@code forBytes} for
     * byte-unit natives, {@code forBits} for bit-unit ones. Called once per input, so each
     * per-record call site sees one class.
     */
    public <K> K open(InputFactory<? extends K> forBytes, InputFactory<? extends K> forBits, int index) {
        return units.choose(forBytes, forBits).open(this, index);
    }

    /**
     * Writes into {@code dst}, from unit 0, units [{@code from}, {@code to}) of {@code prefix}
     * followed by {@code n} units of {@link #source()} at position {@code at}: a literal that
     * starts before the literal a record stored.
     */
    public void copyUnits(byte[] prefix, long from, long to, long at, long n, byte[] dst) {
        units.copy(prefix, from, dst, 0, to - from);
        units.copy(stream.segment(), at, dst, to - from, n);
    }

    /** Bytes an array needs to hold {@code n} units. */
    public long bytesFor(long n) {
        return (units.bits(n) + 7) >>> 3;
    }

    /** Whole bytes in {@code n} units (a size estimate: a bit tail is not counted). */
    public long wholeBytes(long n) {
        return units.bits(n) >>> 3;
    }

    /** What a unit is called in messages: "bytes" or "bits". */
    public String unitNames() {
        return units.names();
    }

    /** The mapped file every offset below refers to. */
    public MemorySegment source() {
        return stream.segment();
    }

    public long ordinal() {
        return ordinal;
    }

    /** File byte offset at which the current record starts (for error messages). */
    public long recordStart() {
        return stream.byteOffset(frame.start);
    }

    /**
     * Units of the previous key this record keeps (as stored; may be less than maximal; no sort
     * code). A bit-unit record that keeps less than the code (KV02's record 0, a record backing up
     * over its whole predecessor) keeps 0, and its literal starts after the code it spells.
     */
    public long retained() {
        return Math.max(0, frame.retained - pathBits);
    }

    /** The current key's length in units (bits of the host key for bit units). */
    public long keyLength() {
        return keyLength - pathBits;
    }

    /** Position of the literal: key units [retained, keyLength). */
    public long literalAt() {
        return frame.suffixAt + spelledCode();
    }

    public long literalLength() {
        return frame.suffixLength - spelledCode();
    }

    /** Bits of sort code the current literal spells (the frame checked they are the code 0). */
    private long spelledCode() {
        return frame.retained < pathBits ? pathBits - frame.retained : 0;
    }

    /**
     * True if the keys are stored in their ordered string form (KV02 in bits): the key bits
     * given here are that form's, and {@link #hostKey} turns them into the host's key.
     */
    public boolean orderedStrings() {
        return orderedStrings;
    }

    /** The error for a current key that is not one canonical ordered string form ({@link #orderedStrings()}). */
    public CorruptSegmentException notOrderedForm() {
        return corrupt(recordStart(), "record " + ordinal() + ": " + OrderedStrings.NOT_CANONICAL);
    }

    /**
     * The host key of the ordered string form {@code key[0 .. n)} (bytes after the sort code),
     * decoded in place; its length.
     *
     * @throws CorruptSegmentException if the bytes are not one canonical ordered form
     */
    public int hostKey(byte[] key, int n) {
        int h = OrderedStrings.decodeInPlace(key, n);
        if (h < 0) {
            throw corrupt(recordStart(), OrderedStrings.NOT_CANONICAL);
        }
        return h;
    }

    /** Position of the encoded value (with its presence tag or bit under the optional grammar). */
    public long valueAt() {
        return frame.valueAt;
    }

    public long valueLength() {
        return frame.valueLength;
    }

    /** True if the encoded value is a tombstone (only under the optional grammar). */
    public boolean tombstone() {
        return values.absentAt(stream.segment(), frame.valueAt);
    }
}

package dev.everett.segment.fc;

import dev.everett.segment.io.Corruption;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Decodes the encoded value of one native record into a tombstone flag and where its bytes lie.
 * One instance is reused value after value (a reader, a cursor and each query's scratch hold
 * their own), so decoding allocates nothing. {@link Framing#values} hands out the one a policy
 * needs: {@link RawValue} or {@link OptionalValue} for byte units, {@link BitValue} for bit units.
 * It also encodes: the record writer ({@link RecordEncoder}) and the merger's value callbacks
 * ({@code EncodedValues}) ask it how long an encoding is and for its units.
 */
public abstract class ValueCodec {
    /** True if the value decoded last is absent. */
    public boolean tombstone;
    /** Where its first byte lies, in the stream's units (a byte offset; for bit units a bit offset). */
    public long at;
    /** Its byte count (0 for a tombstone). */
    public long bytes;

    /** Decodes (and checks) the encoded value occupying {@code [from, from + length)} of {@code s}. */
    public abstract void decode(MemorySegment s, Corruption c, long from, long length);

    /** Decodes the value of the record {@code f} has just read from {@code s}. */
    public void decode(Frame f, MemorySegment s, Corruption c) {
        decode(s, c, f.valueAt, f.valueLength);
    }

    /** The value's bytes: a view of {@code s} (byte units always; bit units when byte-aligned), else a fresh copy. */
    public MemorySegment copyOrView(MemorySegment s) {
        return s.asSlice(at, bytes);
    }

    /**
     * For a cursor step, without allocating: the offset of the value's bytes in
     * {@link #source}. Call before {@link #source}.
     */
    public long offsetIn(MemorySegment s) {
        return at;
    }

    /** Where the bytes {@link #offsetIn} located live. */
    public MemorySegment source(MemorySegment s) {
        return s;
    }

    /**
     * Checks the value of the record {@code f} has just read, as a walk over encoded records
     * (the merger's) goes: after it, {@link #absentAt} may look at the value without checks.
     */
    public void checkWalked(Frame f, MemorySegment s, Corruption c) {
        decode(f, s, c);
    }

    /** True if the encoded value at unit {@code at}, already checked, is a tombstone (never under the raw grammar). */
    public abstract boolean absentAt(MemorySegment s, long at);

    /** Units the encoding of a value of {@code bytes} bytes takes ({@code present} false: a tombstone of any length). */
    public abstract long encodedLength(boolean present, long bytes);

    /** Encodes {@code v} (null: a tombstone) into {@code out} from unit 0; it must hold {@link #encodedLength} units. */
    public abstract void encode(MemorySegment v, byte[] out);

    /** The file byte offset of the value {@link #decode decoded} last, or -1 if it does not start on a byte boundary. */
    public long byteOffset() {
        return at;
    }

    /** Copies the bytes of the value decoded last into {@code dst} from index 0. */
    public void copyTo(MemorySegment s, byte[] dst) {
        MemorySegment.copy(s, ValueLayout.JAVA_BYTE, at, dst, 0, Math.toIntExact(bytes));
    }
}

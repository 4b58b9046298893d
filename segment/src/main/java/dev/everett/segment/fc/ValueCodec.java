package dev.everett.segment.fc;

import dev.everett.segment.io.Corruption;
import java.lang.foreign.MemorySegment;

/**
 * Decodes the encoded value of one native record into a tombstone flag and where its bytes lie.
 * One instance is reused value after value (a reader, a cursor and each query's scratch hold
 * their own), so decoding allocates nothing. {@link Framing#values} hands out the one a policy
 * needs: {@link RawValue} or {@link OptionalValue} for byte units, {@link BitValue} for bit units.
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
}

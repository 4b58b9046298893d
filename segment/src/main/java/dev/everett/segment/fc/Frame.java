package dev.everett.segment.fc;

/**
 * One record's framing, parsed in place: where the record starts, how much of the previous key
 * it keeps, where its key literal and its encoded value lie. One instance is reused record after
 * record. Positions and lengths count the stream's units: file byte offsets and bytes for
 * byte-unit streams ({@link ByteFrame}), file bit offsets and bits for bit-unit streams
 * ({@link BitFrame} for KV02 framing and borrowed keys, {@link Kv03Frame} for KV03).
 */
public abstract class Frame {
    /** Position of the next unread unit. */
    public long pos;
    /** Position where the current record starts. */
    public long start;
    /** Prefix length shared with the previous key (for KV03, of the logical key, sort code included). */
    public long retained;
    /** Position and length of the key literal. */
    public long suffixAt;
    public long suffixLength;
    /** Position and length of the encoded value. */
    public long valueAt;
    public long valueLength;
    /**
     * KV03 only: the record spelled out a sort code it could have kept (a sort "transition" to the
     * sort it was already in). Valid, but not what a canonical writer emits.
     */
    boolean respelled;

    /** Points this frame at another stream, so one frame can serve several in turn. */
    public abstract void bind(FcStream stream);

    /**
     * Reads one record's framing at {@link #pos}.
     *
     * @param blockStart     true if the record starts a block (its prefix length is absolute)
     * @param previousLength the previous key's length, or -1 if unknown (entering at a block)
     * @param first          true for record 0, which must be literal
     * @param fcStart        position of the stream, bounding ABS when entering at a block
     */
    public abstract void read(boolean blockStart, long previousLength, boolean first, long fcStart);

    /** Records that the literal of {@code suffix} units and the value of {@code value} units follow at {@code p}. */
    final void place(long p, long suffix, long value) {
        suffixAt = p;
        suffixLength = suffix;
        valueAt = p + suffix;
        valueLength = value;
        pos = p + suffix + value;
    }

    /** Key length of the record just read, in units. */
    public abstract long keyLength();
}

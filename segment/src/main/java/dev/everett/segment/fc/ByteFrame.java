package dev.everett.segment.fc;

import dev.everett.api.CorruptSegmentException;
import dev.everett.segment.io.Corruption;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Parses the framing of byte-unit front-coded records in place: the block-start ABS or the
 * backspace, the suffix length, the value length (unless the stream has a common width), then
 * the literal and the value. One instance is reused record after record; it allocates nothing.
 *
 * <p>Every count is an unsigned LEB128 that must be canonical (no trailing zero group) and fit
 * in 64 bits (at most 10 bytes, the 10th ≤ 1); every length is checked against the end of the
 * stream before anything is read, so a corrupt file raises {@code CorruptSegmentException} and
 * never an out-of-bounds access. The error paths live in separate cold methods so that the
 * per-record path stays small enough for the JIT to inline.
 */
public final class ByteFrame extends Frame {
    // Its record checks repeat BitFrame's on purpose: each frame is the hot parse of one grammar.
    private MemorySegment s;
    private Corruption corruption;
    private long end;
    private long commonWidth;
    /** Native streams have unique keys; borrowed streams may repeat one (an empty suffix). */
    private boolean unique;

    /** A frame over the unique-keyed records of {@code s} that end at {@code end}. */
    public ByteFrame(MemorySegment s, Corruption corruption, long end, long commonWidth) {
        over(s, corruption, end, commonWidth, true);
    }

    /** A frame over nothing yet; {@link #bind} it to a stream before reading. */
    public ByteFrame() {
    }

    /** Points this frame at another byte-unit stream, so one frame can serve several in turn. */
    @Override
    public void bind(FcStream stream) {
        if (stream.framing().kind() != Framing.Kind.BYTES) {
            throw new IllegalArgumentException("a byte frame cannot read a " + stream.framing() + " stream");
        }
        over(stream.segment(), stream.corruption(), stream.end(), stream.commonWidth(), stream.unique());
    }

    private void over(MemorySegment s, Corruption corruption, long end, long commonWidth, boolean unique) {
        this.s = s;
        this.corruption = corruption;
        this.end = end;
        this.commonWidth = commonWidth;
        this.unique = unique;
    }

    /**
     * The 8 bytes the last {@link #read} loaded at {@link #wordAt} (wordAt is -1 when the read
     * loaded none). A short record's literal and value tag usually lie inside them, so the walk
     * takes those bytes from here ({@link #byteAt}) instead of making another checked read of the
     * mapping for each: the bytes are the file's, already bounds-checked by the one load.
     */
    private long word;
    private long wordAt = -1;

    private static final ValueLayout.OfLong LE_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /**
     * Almost every header is two or three one-byte counts: one 8-byte load reads them all, and
     * every check of {@link #readChecked} is made on the loaded values. Counts of 128 to 16,383
     * (two bytes; long keys, such as the 128-byte keys of borrowed streams, whose backspace or
     * suffix is often 128) are read from the same load by {@link #shortCount}. Anything else (a
     * longer count, a record near the stream's end, any failed check) goes through
     * {@link #readChecked}, which parses count by count and names what is wrong.
     */
    @Override
    public void read(boolean blockStart, long previousLength, boolean first, long fcStart) {
        // Kept small enough for the JIT to inline into the walker's step (a hot method of more
        // than FreqInlineSize bytecodes is called, not inlined): the one-byte-counts case here,
        // two-byte counts in readShort, everything else in readChecked.
        long p = pos;
        if (p + 8 <= end) {
            long w = s.get(LE_LONG, p);
            word = w;
            wordAt = p;
            long cw = commonWidth;
            boolean fixed = cw >= 0;
            if ((w & (fixed ? 0x8080L : 0x80_8080L)) == 0) {
                accept(blockStart, previousLength, first, fcStart, p, w & 0xFF, (w >>> 8) & 0xFF,
                        fixed ? cw : (w >>> 16) & 0xFF, p + (fixed ? 2 : 3));
                return;
            }
            readShort(blockStart, previousLength, first, fcStart, p, w, fixed);
            return;
        }
        readChecked(blockStart, previousLength, first, fcStart);
    }

    /** Counts of one or two bytes, all in the 8 bytes {@code w} loaded at {@code p}; else the checked parse. */
    private void readShort(boolean blockStart, long previousLength, boolean first, long fcStart, long p, long w, boolean fixed) {
        long a = shortCount(w, 0);
        long b = a < 0 ? -1 : shortCount(w, (int) (a >>> 16));
        long v = b < 0 || fixed ? 0 : shortCount(w, (int) ((a + b) >>> 16));
        if (b < 0 || v < 0) {
            readChecked(blockStart, previousLength, first, fcStart);
            return;
        }
        accept(blockStart, previousLength, first, fcStart, p, a & 0xFFFF, b & 0xFFFF, fixed ? commonWidth : v & 0xFFFF,
                p + ((a + b + v) >>> 16));
    }

    /**
     * Makes every check of {@link #readChecked} on counts read from one load (the ABS or backspace
     * {@code c0}, the suffix and value lengths, the literal starting at {@code at}) and accepts the
     * record; any failed check goes to {@link #readChecked}, which names what is wrong.
     */
    private void accept(boolean blockStart, long previousLength, boolean first, long fcStart, long p, long c0, long suffix, long value, long at) {
        long kept;
        boolean ok;
        if (blockStart) {
            kept = c0;
            ok = first ? c0 == 0 : c0 <= (previousLength >= 0 ? previousLength : p - fcStart);
        } else {
            kept = previousLength - c0;
            ok = c0 <= previousLength;
        }
        long room = end - at;
        if (ok && (suffix != 0 || first || !unique) && suffix <= room && value <= room - suffix) {
            start = p;
            retained = kept;
            suffixAt = at;
            suffixLength = suffix;
            valueAt = at + suffix;
            valueLength = value;
            pos = at + suffix + value;
            return;
        }
        readChecked(blockStart, previousLength, first, fcStart);
    }

    /**
     * The canonical one- or two-byte LEB128 count at byte {@code off} (at most 5) of {@code w},
     * as {@code value | bytes << 16}; -1 if it is longer or not canonical (a second byte of 0),
     * which the checked path then parses or refuses.
     */
    private static long shortCount(long w, int off) {
        long b = (w >>> (off << 3)) & 0xFF;
        if (b < 0x80) {
            return b | 1L << 16;
        }
        long b2 = (w >>> ((off + 1) << 3)) & 0xFF;
        if (b2 >= 0x80 || b2 == 0) {
            return -1;
        }
        return (b & 0x7F) | b2 << 7 | 2L << 16;
    }

    private void readChecked(boolean blockStart, long previousLength, boolean first, long fcStart) {
        wordAt = -1;
        start = pos;
        if (blockStart) {
            long abs = count();
            long bound = previousLength >= 0 ? previousLength : start - fcStart;
            if ((first && abs != 0) || Long.compareUnsigned(abs, bound) > 0) {
                throw badAbsolute(abs, first, previousLength, bound);
            }
            retained = abs;
        } else {
            long back = count();
            if (Long.compareUnsigned(back, previousLength) > 0) {
                throw badBackspace(back, previousLength);
            }
            retained = previousLength - back;
        }
        long suffix = count();
        if (suffix == 0 && unique && !first) {
            throw corruption.at(start, "a record after the first must add a key suffix (keys strictly increase)");
        }
        long value = commonWidth >= 0 ? commonWidth : count();
        long p = pos;
        if (Long.compareUnsigned(suffix, end - p) > 0 || Long.compareUnsigned(value, end - p - suffix) > 0) {
            throw pastEnd(suffix, value);
        }
        place(p, suffix, value);
    }

    private CorruptSegmentException badAbsolute(long abs, boolean first, long previousLength, long bound) {
        if (first && abs != 0) {
            return corruption.at(start, "record 0 must be literal (ABS 0), found ABS " + Long.toUnsignedString(abs));
        }
        return corruption.at(start, "retained prefix " + Long.toUnsignedString(abs)
                + (previousLength >= 0 ? " longer than the previous key (" : " longer than the bytes before the record (") + bound + ")");
    }

    private CorruptSegmentException badBackspace(long back, long previousLength) {
        return corruption.at(start, "backspace " + Long.toUnsignedString(back) + " longer than the previous key (" + previousLength + ")");
    }

    private CorruptSegmentException pastEnd(long suffix, long value) {
        if (Long.compareUnsigned(suffix, end - pos) > 0) {
            return corruption.at(start, "key suffix of " + Long.toUnsignedString(suffix) + " bytes runs past the end of the FC stream");
        }
        return corruption.at(start, "value of " + Long.toUnsignedString(value) + " bytes runs past the end of the FC stream");
    }

    /** The stream's byte at file offset {@code at}: from the word the last read loaded when it holds it, else read from the mapping. */
    public byte byteAt(long at) {
        long d = at - wordAt;
        if (wordAt >= 0 && d >= 0 && d < 8) {
            return (byte) (word >>> (d << 3));
        }
        return s.get(ValueLayout.JAVA_BYTE, at);
    }

    /**
     * Copies {@code n} bytes of the stream from file offset {@code at} into {@code dst} from
     * {@code to}: from the word the last read loaded when they lie inside it, else from the mapping.
     */
    public void copyTo(long at, byte[] dst, int to, int n) {
        long d = at - wordAt;
        if (wordAt >= 0 && d >= 0 && d + n <= 8) {
            long w = word >>> (d << 3);
            for (int i = 0; i < n; i++) {
                dst[to + i] = (byte) w;
                w >>>= 8;
            }
        } else if (n <= 16) {
            for (int i = 0; i < n; i++) {
                dst[to + i] = s.get(ValueLayout.JAVA_BYTE, at + i);
            }
        } else {
            MemorySegment.copy(s, ValueLayout.JAVA_BYTE, at, dst, to, n);
        }
    }

    /** Key length of the record just read. */
    @Override
    public long keyLength() {
        long k = retained + suffixLength;
        if (k < 0) {
            throw corruption.at(start, "key length overflows");
        }
        return k;
    }

    /** One unsigned LEB128 count at {@link #pos}. */
    long count() {
        long p = pos;
        if (p < end) {
            byte b = s.get(ValueLayout.JAVA_BYTE, p);
            if (b >= 0) {
                pos = p + 1;
                return b;
            }
        }
        return countSlow(p);
    }

    private long countSlow(long at) {
        long result = 0;
        long p = at;
        for (int i = 0; i < 10; i++, p++) {
            if (p >= end) {
                throw corruption.at(p, "count runs past the end of the FC stream");
            }
            int b = s.get(ValueLayout.JAVA_BYTE, p) & 0xFF;
            if (i == 9 && b > 1) {
                throw corruption.at(p, "varint overflows 64 bits (10th byte " + b + " > 1)");
            }
            result |= (long) (b & 0x7F) << (7 * i);
            if ((b & 0x80) == 0) {
                if (b == 0 && i > 0) {
                    throw corruption.at(at, "non-canonical varint (ends in a zero group)");
                }
                pos = p + 1;
                return result;
            }
        }
        throw corruption.at(at, "varint longer than 10 bytes");
    }
}

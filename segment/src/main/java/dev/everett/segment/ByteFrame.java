package dev.everett.segment;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Parses the framing of byte-unit front-coded records in place: the block-start ABS or the
 * backspace, the suffix length, the value length (unless the file has a common width), then the
 * literal and the value. One instance is reused record after record; it allocates nothing.
 *
 * <p>Every count is an unsigned LEB128 that must be canonical (no trailing zero group) and fit in
 * 64 bits (at most 10 bytes, the 10th ≤ 1); every length is checked against the end of the
 * stream before anything is read, so a corrupt file raises {@code CorruptSegmentException} and
 * never an out-of-bounds access.
 */
final class ByteFrame {
    private final MemorySegment s;
    private final Corruption corruption;
    private final long end;
    private final long commonWidth;

    /** File offset of the next unread byte. */
    long pos;
    /** File offset where the current record starts. */
    long start;
    /** Prefix length shared with the previous key. */
    long retained;
    /** File offset and length of the key suffix literal. */
    long suffixAt;
    long suffixLength;
    /** File offset and length of the encoded value. */
    long valueAt;
    long valueLength;

    ByteFrame(MemorySegment s, Corruption corruption, long end, long commonWidth) {
        this.s = s;
        this.corruption = corruption;
        this.end = end;
        this.commonWidth = commonWidth;
    }

    /**
     * Reads one record's framing at {@link #pos}.
     *
     * @param blockStart   true if the record starts a block (its prefix length is absolute)
     * @param previousLength the previous key's length, or -1 if unknown (entering at a block)
     * @param first        true for record 0, which must be literal
     * @param fcStart      file offset of the FC section, for the ABS bound when entering at a block
     */
    void read(boolean blockStart, long previousLength, boolean first, long fcStart) {
        start = pos;
        if (blockStart) {
            retained = count();
            if (first && retained != 0) {
                throw corruption.at(start, "record 0 must be literal (ABS 0), found ABS " + Long.toUnsignedString(retained));
            }
            long bound = previousLength >= 0 ? previousLength : start - fcStart;
            if (Long.compareUnsigned(retained, bound) > 0) {
                throw corruption.at(start, "retained prefix " + Long.toUnsignedString(retained)
                        + (previousLength >= 0 ? " longer than the previous key (" : " longer than the bytes before the record (") + bound + ")");
            }
        } else {
            long back = count();
            if (Long.compareUnsigned(back, previousLength) > 0) {
                throw corruption.at(start, "backspace " + Long.toUnsignedString(back) + " longer than the previous key (" + previousLength + ")");
            }
            retained = previousLength - back;
        }
        suffixLength = count();
        if (!first && suffixLength == 0) {
            throw corruption.at(start, "a record after the first must add a key suffix (keys strictly increase)");
        }
        valueLength = commonWidth >= 0 ? commonWidth : count();
        if (Long.compareUnsigned(suffixLength, end - pos) > 0) {
            throw corruption.at(start, "key suffix of " + Long.toUnsignedString(suffixLength) + " bytes runs past the end of the FC stream");
        }
        suffixAt = pos;
        pos += suffixLength;
        if (Long.compareUnsigned(valueLength, end - pos) > 0) {
            throw corruption.at(start, "value of " + Long.toUnsignedString(valueLength) + " bytes runs past the end of the FC stream");
        }
        valueAt = pos;
        pos += valueLength;
    }

    /** Key length of the record just read. */
    long keyLength() {
        long k = retained + suffixLength;
        if (k < 0) {
            throw corruption.at(start, "key length overflows");
        }
        return k;
    }

    /** One unsigned LEB128 count at {@link #pos}. */
    long count() {
        long p = pos;
        if (p >= end) {
            throw corruption.at(p, "count runs past the end of the FC stream");
        }
        byte b = s.get(ValueLayout.JAVA_BYTE, p);
        if (b >= 0) {
            pos = p + 1;
            return b;
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
                if (b == 0) {
                    throw corruption.at(at, "non-canonical varint (ends in a zero group)");
                }
                pos = p + 1;
                return result;
            }
        }
        throw corruption.at(at, "varint longer than 10 bytes");
    }
}

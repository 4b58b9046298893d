package dev.everett.segment;

import dev.everett.api.BackspaceCode;

/**
 * Parses the framing of bit-unit front-coded records in place, as {@link ByteFrame} does for
 * bytes: counts are EG0, backspaces use the policy's code (exponential-Golomb of order k, or
 * Golomb with modulus M), and every length is in bits. Positions are absolute file bit offsets.
 */
final class BitFrame {
    private final BitInput in;
    private final Corruption corruption;
    private final long commonWidth;
    private final boolean golomb;
    private final long parameter;

    /** Absolute bit position where the current record starts. */
    long start;
    long retained;
    long suffixAt;
    long suffixLength;
    long valueAt;
    long valueLength;

    BitFrame(BitInput in, Corruption corruption, long commonWidth, BackspaceCode backspace) {
        this.in = in;
        this.corruption = corruption;
        this.commonWidth = commonWidth;
        this.golomb = backspace.code() == BackspaceCode.GOLOMB;
        this.parameter = backspace.parameter();
    }

    long pos() {
        return in.pos;
    }

    void seek(long bit) {
        in.pos = bit;
    }

    /** Reads one record's framing; same contract as {@link ByteFrame#read}. */
    void read(boolean blockStart, long previousLength, boolean first, long fcStart) {
        start = in.pos;
        if (blockStart) {
            retained = in.readEg0("retained prefix");
            if (first && retained != 0) {
                throw corruption.at(start >>> 3, "record 0 must be literal (ABS 0), found ABS " + Long.toUnsignedString(retained));
            }
            long bound = previousLength >= 0 ? previousLength : start - fcStart;
            if (Long.compareUnsigned(retained, bound) > 0) {
                throw corruption.at(start >>> 3, "retained prefix of " + Long.toUnsignedString(retained) + " bits longer than "
                        + (previousLength >= 0 ? "the previous key (" : "the bits before the record (") + bound + ")");
            }
        } else {
            long back = golomb ? in.readGolomb(parameter, "backspace") : in.readExpGolomb((int) parameter, "backspace");
            if (Long.compareUnsigned(back, previousLength) > 0) {
                throw corruption.at(start >>> 3, "backspace of " + Long.toUnsignedString(back) + " bits longer than the previous key (" + previousLength + ")");
            }
            retained = previousLength - back;
        }
        suffixLength = in.readEg0("suffix length");
        if (!first && suffixLength == 0) {
            throw corruption.at(start >>> 3, "a record after the first must add a key suffix (keys strictly increase)");
        }
        valueLength = commonWidth >= 0 ? commonWidth : in.readEg0("value length");
        if (Long.compareUnsigned(suffixLength, in.remaining()) > 0) {
            throw corruption.at(start >>> 3, "key suffix of " + Long.toUnsignedString(suffixLength) + " bits runs past the end of the FC stream");
        }
        suffixAt = in.pos;
        in.pos += suffixLength;
        if (Long.compareUnsigned(valueLength, in.remaining()) > 0) {
            throw corruption.at(start >>> 3, "value of " + Long.toUnsignedString(valueLength) + " bits runs past the end of the FC stream");
        }
        valueAt = in.pos;
        in.pos += valueLength;
    }

    long keyLength() {
        long k = retained + suffixLength;
        if (k < 0) {
            throw corruption.at(start >>> 3, "key length overflows");
        }
        return k;
    }
}

package dev.everett.segment.fc;

import dev.everett.api.CorruptSegmentException;
import dev.everett.segment.bits.BitInput;
import dev.everett.segment.bits.BitStrings;
import java.lang.foreign.MemorySegment;

/**
 * Parses bit-unit KV02 framing in place, as {@link ByteFrame} does for bytes: the block-start
 * retained prefix (EG0) or the backspace (the policy's code: exponential-Golomb of order k, or
 * Golomb with modulus M), the suffix length (EG0), the value length (EG0, unless the stream has a
 * common width), then the literal and the value. Positions are absolute file bit offsets and
 * every length is in bits. Serves KV02 bit natives and every bit-unit borrowed stream.
 *
 * <p>Keys are the host's byte strings (behind a sort code of {@code pathBits} bits in borrowed
 * streams over KV03 natives), so a key whose length is not a whole number of bytes past that code
 * is corrupt.
 */
public final class BitFrame extends BitCodedFrame {
    // Its read preamble repeats Kv03Frame's and ByteFrame's on purpose: each frame is the hot parse of one grammar.
    private boolean unique;
    private int pathBits;
    private MemorySegment segment = MemorySegment.NULL;

    /** A frame over nothing yet; {@link #bind} it to a stream before reading. */
    public BitFrame() {
    }

    @Override
    public void bind(FcStream stream) {
        Framing c = bindBits(stream, Framing.Kind.BITS, "KV02 bit frame");
        this.segment = stream.segment();
        this.unique = stream.unique();
        this.pathBits = c.pathBits();
    }

    @Override
    public void read(boolean blockStart, long previousLength, boolean first, long fcStart) {
        BitInput in = this.in;
        long at = begin();
        if (blockStart) {
            long abs = in.readEg0("retained prefix");
            long bound = previousLength >= 0 ? previousLength : at - fcStart;
            if ((first && abs != 0) || Long.compareUnsigned(abs, bound) > 0) {
                throw badAbsolute(abs, first, previousLength, bound);
            }
            retained = abs;
        } else {
            long back = golomb ? in.readGolomb(parameter, "backspace") : in.readExpGolomb((int) parameter, "backspace");
            if (Long.compareUnsigned(back, previousLength) > 0) {
                throw corruption.at(at >>> 3, "backspace of " + Long.toUnsignedString(back) + " bits longer than the previous key (" + previousLength + ")");
            }
            retained = previousLength - back;
        }
        long suffix = in.readEg0("key suffix length");
        if (suffix == 0 && unique && !first) {
            throw corruption.at(at >>> 3, "a record after the first must add a key suffix (keys strictly increase)");
        }
        long value = commonWidth >= 0 ? commonWidth : in.readEg0("value length");
        long p = in.pos;
        if (Long.compareUnsigned(suffix, end - p) > 0 || Long.compareUnsigned(value, end - p - suffix) > 0) {
            throw pastEnd(p, suffix, value);
        }
        long k = retained + suffix;
        if (k < pathBits || ((k - pathBits) & 7) != 0) {
            throw notWholeBytes(k);
        }
        if (retained < pathBits && BitStrings.bit(segment, p) != 0) {
            // The literal spells the string sort's code; code 1 is Everett's undefined sort.
            throw corruption.at(start >>> 3, "key starts with sort code 1 (the undefined sort); the string sort's code is 0");
        }
        place(p, suffix, value);
    }

    private CorruptSegmentException badAbsolute(long abs, boolean first, long previousLength, long bound) {
        if (first && abs != 0) {
            return corruption.at(start >>> 3, "record 0 must be literal (ABS 0), found ABS " + Long.toUnsignedString(abs));
        }
        return corruption.at(start >>> 3, "retained prefix of " + Long.toUnsignedString(abs) + " bits longer than "
                + (previousLength >= 0 ? "the previous key (" : "the bits before the record (") + bound + ")");
    }

    private CorruptSegmentException pastEnd(long p, long suffix, long value) {
        if (Long.compareUnsigned(suffix, end - p) > 0) {
            return corruption.at(start >>> 3, "key suffix of " + Long.toUnsignedString(suffix) + " bits runs past the end of the FC stream");
        }
        return corruption.at(start >>> 3, "value of " + Long.toUnsignedString(value) + " bits runs past the end of the FC stream");
    }

    private CorruptSegmentException notWholeBytes(long k) {
        if (k < 0) {
            return corruption.at(start >>> 3, "key length overflows");
        }
        return corruption.at(start >>> 3, "key of " + k + " bits is not " + (pathBits > 0 ? "a " + pathBits + "-bit sort code and " : "")
                + "whole bytes");
    }

    @Override
    public long keyLength() {
        return retained + suffixLength;
    }
}

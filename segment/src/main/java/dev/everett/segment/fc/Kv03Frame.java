package dev.everett.segment.fc;

import dev.everett.api.CorruptSegmentException;
import dev.everett.segment.bits.BitInput;

/**
 * Parses KV03 records in place (docs/format.md, "KV03 body") for the one sort of Everett's string
 * policy: sort code {@code 0}, {@code fc_string_key<EG0>}, and values in the string codec,
 * behind a presence bit under the optional grammar ({@code tombstone_value<string_value<EG0>>})
 * or bare under the raw one ({@code string_value<EG0>}).
 *
 * <p>A record's logical key is the sort code then the key's bits; {@link #retained} counts
 * logical bits, so it includes the code. A block start stores EG0(retained), which must cover
 * the code (record 0 keeps exactly the code); other records store a backspace from the previous
 * logical key. A backspace that leaves less than the code is a sort transition: the record spells
 * the code again (only {@code 0} is in the dictionary; {@code 1} is Everett's undefined sort).
 * Then come EG0 of the suffix in bits (key bits must be whole bytes), the suffix, and the value,
 * which delimits itself. Positions are absolute file bit offsets.
 */
public final class Kv03Frame extends BitCodedFrame {
    // Its read preamble repeats BitFrame's on purpose: each frame is the hot parse of one grammar.
    private static final int PATH = Framing.KV03_PATH_BITS;

    private boolean optional;

    /** The value just read: present (always, under the raw grammar), and where its bytes lie. */
    boolean present;
    long payloadAt;
    long payloadBytes;

    Kv03Frame() {
    }

    @Override
    public void bind(FcStream stream) {
        this.optional = bindBits(stream, Framing.Kind.KV03, "KV03 frame").optional();
    }

    @Override
    public void read(boolean blockStart, long previousLength, boolean first, long fcStart) {
        BitInput in = this.in;
        long at = begin();
        respelled = false;
        if (blockStart) {
            long r = in.readEg0("retained prefix");
            if (first) {
                if (r != PATH) {
                    throw corruption.at(at >>> 3, "record 0 must retain exactly its " + PATH + "-bit sort code, found " + Long.toUnsignedString(r) + " bits");
                }
            } else if (Long.compareUnsigned(r, PATH) < 0) {
                throw corruption.at(at >>> 3, "a block start must retain its sort code (" + PATH + " bit), found " + r);
            } else if (previousLength >= 0 ? Long.compareUnsigned(r, previousLength) > 0 : Long.compareUnsigned(r - PATH, at - fcStart) > 0) {
                throw corruption.at(at >>> 3, "retained prefix of " + Long.toUnsignedString(r) + " bits longer than "
                        + (previousLength >= 0 ? "the previous key (" + previousLength + ")" : "its sort code and the bits before the record (" + PATH + " + " + (at - fcStart) + ")"));
            }
            retained = r;
        } else {
            long back = golomb ? in.readGolomb(parameter, "backspace") : in.readExpGolomb((int) parameter, "backspace");
            if (Long.compareUnsigned(back, previousLength) > 0) {
                throw corruption.at(at >>> 3, "backspace of " + Long.toUnsignedString(back) + " bits longer than the previous key (" + previousLength + ")");
            }
            long joint = previousLength - back;
            if (joint >= PATH) {
                retained = joint;
            } else {
                transition();
            }
        }
        long suffix = in.readEg0("key suffix length");
        if (suffix == 0 && !first) {
            throw corruption.at(at >>> 3, "a record after the first must add a key suffix (keys strictly increase)");
        }
        long p = in.pos;
        if (Long.compareUnsigned(suffix, end - p) > 0) {
            throw corruption.at(at >>> 3, "key suffix of " + Long.toUnsignedString(suffix) + " bits runs past the end of the payload");
        }
        long k = retained + suffix;
        if (k < PATH || ((k - PATH) & 7) != 0) {
            throw corruption.at(at >>> 3, k < 0 ? "key length overflows" : "string key of " + (k - PATH) + " bits ends inside a byte");
        }
        suffixAt = p;
        suffixLength = suffix;
        in.pos = p + suffix;
        valueAt = in.pos;
        present = !optional || in.readBits(1, "presence bit") != 0;
        long bytes = 0;
        if (present) {
            bytes = in.readEg0("value byte count");
            if (Long.compareUnsigned(bytes, (end - in.pos) >>> 3) > 0) {
                throw corruption.at(at >>> 3, "value of " + Long.toUnsignedString(bytes) + " bytes runs past the end of the payload");
            }
        }
        payloadAt = in.pos;
        payloadBytes = bytes;
        in.pos += 8 * bytes;
        valueLength = in.pos - valueAt;
        if (commonWidth >= 0 && valueLength != commonWidth) {
            throw badWidth();
        }
        pos = in.pos;
    }

    /**
     * The backspace left less than the sort code: replay none of it and read code bits to a
     * leaf. Only code {@code 0} is in the dictionary. The record then keeps just its code.
     */
    private void transition() {
        long code = in.readBits(1, "sort code");
        if (code != 0) {
            throw corruption.at(start >>> 3, "sort code 1 (the undefined sort) is not in the dictionary");
        }
        retained = PATH;
        respelled = true;
    }

    private CorruptSegmentException badWidth() {
        return corruption.at(start >>> 3, "value of " + valueLength + " bits where the file's common width is " + commonWidth);
    }

    @Override
    public long keyLength() {
        return retained + suffixLength;
    }
}

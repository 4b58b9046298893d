package dev.everett.segment.bits;

/**
 * The ordered string form of a host key, as Everett's string sort writes a key that no framing
 * of its own delimits (KV02 in bit units): each key byte, the byte {@code 0xFF} after every
 * {@code 0x00}, then two zero bytes. The form keeps unsigned byte order and no form is a proper
 * prefix of another, so the empty key and prefixes of other keys are ordinary keys. On disk the
 * string sort's one-bit code {@code 0} goes in front (the caller adds it); these methods handle
 * the bytes after it.
 */
public final class OrderedStrings {
    /** The rule a stored key breaks when {@link #decodeInPlace} refuses it (for corruption messages). */
    public static final String NOT_CANONICAL =
            "key is not a canonical ordered string form (0x00 is followed by 0xFF, and only the final 0x00 0x00 ends it)";

    private OrderedStrings() {
    }

    /** Bytes of the ordered form of {@code key[0 .. n)}. */
    public static int length(byte[] key, int n) {
        int zeros = 0;
        for (int i = 0; i < n; i++) {
            if (key[i] == 0) {
                zeros++;
            }
        }
        return n + zeros + 2;
    }

    /** The ordered form of {@code key[0 .. n)} in a fresh array. */
    public static byte[] encode(byte[] key, int n) {
        byte[] out = new byte[length(key, n)];
        encode(key, n, out);
        return out;
    }

    /** Writes the ordered form of {@code key[0 .. n)} to {@code dst} (which must hold {@link #length}) and returns its length. */
    public static int encode(byte[] key, int n, byte[] dst) {
        int j = 0;
        for (int i = 0; i < n; i++) {
            byte b = key[i];
            dst[j++] = b;
            if (b == 0) {
                dst[j++] = (byte) 0xFF;
            }
        }
        dst[j++] = 0;
        dst[j++] = 0;
        return j;
    }

    /**
     * Turns the ordered form in {@code buf[0 .. n)} back into the host key, in place, and returns
     * the host key's length; −1 if the bytes are not exactly one canonical ordered form (a zero
     * byte followed by anything but {@code 0xFF} or the terminator's second zero, or the
     * terminator anywhere but at the end).
     */
    public static int decodeInPlace(byte[] buf, int n) {
        int j = 0;
        int i = 0;
        while (i < n) {
            byte b = buf[i];
            if (b != 0) {
                buf[j++] = b;
                i++;
                continue;
            }
            if (i + 1 >= n) {
                return -1;
            }
            byte next = buf[i + 1];
            if (next == 0) {
                return i + 2 == n ? j : -1;
            }
            if (next != (byte) 0xFF) {
                return -1;
            }
            buf[j++] = 0;
            i += 2;
        }
        return -1;
    }
}

package dev.everett.integration;

import java.util.Arrays;
import java.util.HexFormat;

/** Unsigned byte-string helpers shared by the harnesses (keys and values are plain {@code byte[]}). */
final class Bytes {
    private Bytes() {}

    private static final HexFormat HEX = HexFormat.of();

    /** Unsigned lexicographic order, as RocksDB's default bytewise comparator. */
    static int compare(byte[] a, byte[] b) {
        return Arrays.compareUnsigned(a, b);
    }

    static String hex(byte[] b) {
        return b == null ? "null" : HEX.formatHex(b);
    }

    static byte[] unhex(String s) {
        return HEX.parseHex(s);
    }

    /** A short printable form of a value or key for messages: hex, long ones abbreviated. */
    static String show(byte[] b) {
        if (b == null) {
            return "null";
        }
        if (b.length <= 48) {
            return "\"" + hex(b) + "\"";
        }
        return "\"" + hex(Arrays.copyOf(b, 24)) + "...\"(" + b.length + " bytes, fnv " + Long.toHexString(Fingerprint.fnv1a(b)) + ")";
    }

    /**
     * A deterministic filler of {@code length} bytes named by {@code tag}. Large values are built this
     * way so a printed reproduction can name them as {@code Bytes.pattern(length, tag)} instead of a
     * megabyte of hex: the first eight bytes carry the tag, the rest follow from it.
     */
    static byte[] pattern(int length, long tag) {
        byte[] out = new byte[length];
        long x = tag;
        for (int i = 0; i < length; i++) {
            if (i < 8) {
                out[i] = (byte) (tag >>> (56 - 8 * i));
            } else {
                if ((i & 7) == 0) {
                    x = Fingerprint.mix(x + 0x9e3779b97f4a7c15L);
                }
                out[i] = (byte) (x >>> (8 * (i & 7)));
            }
        }
        return out;
    }

    /** The tag when {@code b} is exactly {@code pattern(b.length, tag)}, else null. */
    static Long patternTag(byte[] b) {
        if (b.length < 8) {
            return null;
        }
        long tag = 0;
        for (int i = 0; i < 8; i++) {
            tag = (tag << 8) | (b[i] & 0xff);
        }
        return Arrays.equals(b, pattern(b.length, tag)) ? tag : null;
    }

    /** The smallest key strictly greater than {@code k}: {@code k ‖ 0x00}. */
    static byte[] successor(byte[] k) {
        return Arrays.copyOf(k, k.length + 1);
    }
}

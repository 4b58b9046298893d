package dev.everett.segment;

/** Bit-level helpers over byte arrays holding MSB-first bit strings. */
final class BitStrings {
    private BitStrings() {
    }

    /** Reads {@code n} ≤ 57 bits of {@code b} from bit {@code from}; bits past the array read as 0. */
    static long read(byte[] b, long from, int n) {
        if (n == 0) {
            return 0;
        }
        int first = (int) (from >>> 3);
        int skip = (int) (from & 7);
        long window = 0;
        for (int i = 0; i < 8; i++) {
            int idx = first + i;
            window = (window << 8) | (idx < b.length ? b[idx] & 0xFF : 0);
        }
        return (window << skip) >>> (64 - n);
    }

    /** Length in bits of the longest common prefix of two byte strings read as bit strings. */
    static long commonPrefixBits(byte[] a, int aLength, byte[] b, int bLength) {
        int i = java.util.Arrays.mismatch(a, 0, aLength, b, 0, bLength);
        if (i < 0) {
            return 8L * aLength;
        }
        if (i == Math.min(aLength, bLength)) {
            return 8L * i;
        }
        return 8L * i + Integer.numberOfLeadingZeros((a[i] ^ b[i]) & 0xFF) - 24;
    }

    /** Writes the low {@code n} ≤ 57 bits of {@code v} into {@code b} at bit {@code at}. */
    static void write(byte[] b, long at, long v, int n) {
        for (int i = 0; i < n; i++) {
            long bit = at + i;
            int idx = (int) (bit >>> 3);
            int shift = 7 - (int) (bit & 7);
            if (((v >>> (n - 1 - i)) & 1) != 0) {
                b[idx] |= (byte) (1 << shift);
            } else {
                b[idx] &= (byte) ~(1 << shift);
            }
        }
    }
}

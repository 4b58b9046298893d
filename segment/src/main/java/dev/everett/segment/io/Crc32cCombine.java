package dev.everett.segment.io;

/**
 * Combines CRC32C values: given crc(A) and crc(B) and B's length, gives crc(A ‖ B) without
 * reading A or B again. Writers use it to checksum a body whose directory is only known at
 * the end while its sections were checksummed as they streamed out.
 *
 * <p>The method is the usual one over GF(2): crc(A ‖ B) = crc(A)·x^(8·|B|) mod P xor crc(B),
 * with x^(2^k) mod P precomputed for each k and the polynomial kept reflected (0x82F63B78).
 */
final class Crc32cCombine {
    private static final int POLY = 0x82F63B78;
    /**
     * x^(2^k) mod P for every k a length can reach: {@link #xPow8n} starts at k = 3 (one byte is
     * x^8) and a length has at most 63 bits. The table must not wrap at 32 as zlib's does for its
     * polynomial: for CRC32C, x^(2^32) mod P is x^2, not x, so wrapping gave wrong checksums for
     * every length of 2^29 bytes (512 MiB) or more.
     */
    private static final int[] X_POW_2K = new int[3 + 63];

    static {
        int p = 1 << 30; // x^1, reflected
        X_POW_2K[0] = p;
        for (int k = 1; k < X_POW_2K.length; k++) {
            p = multiply(p, p);
            X_POW_2K[k] = p;
        }
    }

    private Crc32cCombine() {
    }

    /** a(x)·b(x) mod P, reflected. */
    private static int multiply(int a, int b) {
        int m = 1 << 31;
        int product = 0;
        while (true) {
            if ((a & m) != 0) {
                product ^= b;
                if ((a & (m - 1)) == 0) {
                    return product;
                }
            }
            m >>>= 1;
            b = (b & 1) != 0 ? (b >>> 1) ^ POLY : b >>> 1;
        }
    }

    /** x^(8·n) mod P. */
    private static int xPow8n(long n) {
        int p = 1 << 31; // x^0
        int k = 3;
        while (n != 0) {
            if ((n & 1) != 0) {
                p = multiply(X_POW_2K[k], p);
            }
            n >>>= 1;
            k++;
        }
        return p;
    }

    /** crc(A ‖ B) from crc(A), crc(B) and |B| in bytes (CRC values as {@code CRC32C.getValue()} gives them). */
    static long combine(long crcA, long crcB, long lengthB) {
        if (lengthB < 0) {
            throw new IllegalArgumentException("lengthB: expected a byte count >= 0, got " + lengthB);
        }
        return Integer.toUnsignedLong(multiply(xPow8n(lengthB), (int) crcA) ^ (int) crcB);
    }
}

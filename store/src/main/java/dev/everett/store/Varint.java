package dev.everett.store;

/** Unsigned LEB128 integers, as the write-ahead log's batch payloads use them for lengths. */
final class Varint {

    static final int MAX_INT_BYTES = 5;

    private Varint() {
    }

    /** Writes {@code v} (≥ 0) at {@code pos}; returns the position after it. */
    static int put(byte[] b, int pos, int v) {
        while ((v & ~0x7F) != 0) {
            b[pos++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        b[pos++] = (byte) v;
        return pos;
    }

    /**
     * Reads a non-negative int at {@code pos} no further than {@code limit}: the value in the low
     * 32 bits and the position after it in the high 32 bits, or -1 if it is malformed or truncated.
     */
    static long get(byte[] b, int pos, int limit) {
        int v = 0;
        for (int shift = 0; shift < 35; shift += 7) {
            if (pos >= limit) {
                return -1;
            }
            int x = b[pos++] & 0xFF;
            v |= (x & 0x7F) << shift;
            if ((x & 0x80) == 0) {
                if (v < 0 || (shift == 28 && x > 0x07)) {
                    return -1;
                }
                return ((long) pos << 32) | (v & 0xFFFFFFFFL);
            }
        }
        return -1;
    }
}

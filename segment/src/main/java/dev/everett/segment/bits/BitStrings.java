package dev.everett.segment.bits;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Bit-level helpers over MSB-first bit strings held in byte arrays or mapped segments: bit 0 is
 * bit 7 of byte 0. Everything works a byte or a 64-bit word at a time, never a bit at a time.
 *
 * <p>Key buffers that hold bit strings keep the unused low bits of their last byte zero, so two
 * such strings compare as their bytes and then their lengths ({@link #compare}).
 *
 * <p>The native merger reaches the reads, copies and mismatches it needs through
 * {@code dev.everett.segment.encoded.BitSpans}, the one package the module opens to it.
 */
public final class BitStrings {
    private static final ValueLayout.OfLong BE64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final VarHandle ARRAY_BE64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private BitStrings() {
    }

    /** Bytes holding {@code bits} bits. */
    public static int bytes(long bits) {
        return (int) ((bits + 7) >>> 3);
    }

    /** Reads {@code n} ≤ 57 bits of {@code b} from bit {@code from}; bits past the array read as 0. */
    static long read(byte[] b, long from, int n) {
        if (n == 0) {
            return 0;
        }
        int first = (int) (from >>> 3);
        int skip = (int) (from & 7);
        long window = 0;
        int last = Math.min(b.length, first + 8);
        int i = first;
        for (; i < last; i++) {
            window = (window << 8) | (b[i] & 0xFF);
        }
        window <<= 8 * (first + 8 - i);
        return (window << skip) >>> (64 - n);
    }

    /** Reads {@code n} ≤ 57 bits of a mapped segment from bit {@code from}; bits past its end read as 0. */
    public static long read(MemorySegment s, long from, int n) {
        if (n == 0) {
            return 0;
        }
        long index = from >>> 3;
        int skip = (int) (from & 7);
        long window;
        long size = s.byteSize();
        if (index + 8 <= size) {
            window = s.get(BE64, index);
        } else {
            window = 0;
            for (int i = 0; i < 8; i++) {
                long at = index + i;
                window = (window << 8) | (at < size ? s.get(ValueLayout.JAVA_BYTE, at) & 0xFF : 0);
            }
        }
        return (window << skip) >>> (64 - n);
    }

    /** Reads 64 bits of a mapped segment from bit {@code from}; bits past its end read as 0. */
    static long read64(MemorySegment s, long from) {
        long index = from >>> 3;
        int skip = (int) (from & 7);
        if (index + 9 <= s.byteSize()) {
            long v = s.get(BE64, index) << skip;
            return skip == 0 ? v : v | ((s.get(ValueLayout.JAVA_BYTE, index + 8) & 0xFF) >>> (8 - skip));
        }
        return (read(s, from, 32) << 32) | read(s, from + 32, 32);
    }

    /** The bit at position {@code p} of {@code b}. */
    public static int bit(byte[] b, long p) {
        return (b[(int) (p >>> 3)] >>> (7 - (int) (p & 7))) & 1;
    }

    /** The bit at position {@code p} of a mapped segment. */
    public static int bit(MemorySegment s, long p) {
        return (s.get(ValueLayout.JAVA_BYTE, p >>> 3) >>> (7 - (int) (p & 7))) & 1;
    }

    /** Writes the low {@code n} ≤ 57 bits of {@code v} into {@code b} at bit {@code at}, leaving the other bits. */
    public static void write(byte[] b, long at, long v, int n) {
        if (n == 0) {
            return;
        }
        int idx = (int) (at >>> 3);
        int off = (int) (at & 7);
        long word = (v << (64 - n)) >>> off;
        long mask = (-1L << (64 - n)) >>> off;
        int bytes = (off + n + 7) >>> 3;
        for (int i = 0; i < bytes; i++) {
            int shift = 56 - 8 * i;
            int m = (int) (mask >>> shift) & 0xFF;
            b[idx + i] = (byte) ((b[idx + i] & ~m) | ((int) (word >>> shift) & m));
        }
    }

    /**
     * Copies {@code n} bits of a mapped segment from bit {@code from} into {@code dst} at bit
     * {@code at}, leaving the bits of {@code dst} around them.
     */
    public static void copy(MemorySegment s, long from, byte[] dst, long at, long n) {
        if (n <= 0) {
            return;
        }
        if (((from | at) & 7) == 0) {
            int whole = (int) (n >>> 3);
            MemorySegment.copy(s, ValueLayout.JAVA_BYTE, from >>> 3, dst, (int) (at >>> 3), whole);
            long done = 8L * whole;
            if (done < n) {
                write(dst, at + done, read(s, from + done, (int) (n - done)), (int) (n - done));
            }
            return;
        }
        // Bring the destination to a byte boundary, then place 64 bits (two loads, one store) and
        // 56 bits (7 whole bytes) at a time.
        int head = (int) Math.min(n, (8 - (at & 7)) & 7);
        if (head > 0) {
            write(dst, at, read(s, from, head), head);
            from += head;
            at += head;
            n -= head;
        }
        int d = (int) (at >>> 3);
        long size = s.byteSize();
        while (n >= 64 && d + 8 <= dst.length && (from >>> 3) + 9 <= size) {
            ARRAY_BE64.set(dst, d, read64(s, from));
            d += 8;
            from += 64;
            at += 64;
            n -= 64;
        }
        while (n >= 56) {
            long v = read(s, from, 56);
            for (int i = 0; i < 7; i++) {
                dst[d + i] = (byte) (v >>> (48 - 8 * i));
            }
            d += 7;
            from += 56;
            at += 56;
            n -= 56;
        }
        if (n > 0) {
            write(dst, at, read(s, from, (int) n), (int) n);
        }
    }

    /** Copies {@code n} bits of {@code src} from bit {@code from} into {@code dst} at bit {@code at}. */
    public static void copy(byte[] src, long from, byte[] dst, long at, long n) {
        while (n > 0) {
            int k = (int) Math.min(n, 56);
            write(dst, at, read(src, from, k), k);
            from += k;
            at += k;
            n -= k;
        }
    }

    /** Zeroes the unused low bits of the last byte of a {@code bits}-bit string. */
    public static void clearTail(byte[] b, long bits) {
        int used = (int) (bits & 7);
        if (used != 0) {
            int last = (int) (bits >>> 3);
            b[last] &= (byte) (0xFF00 >>> used);
        }
    }

    /** Length in bits of the longest common prefix of two byte strings read as bit strings. */
    public static long commonPrefixBits(byte[] a, int aLength, byte[] b, int bLength) {
        int i = Arrays.mismatch(a, 0, aLength, b, 0, bLength);
        if (i < 0) {
            return 8L * aLength;
        }
        if (i == Math.min(aLength, bLength)) {
            return 8L * i;
        }
        return 8L * i + Integer.numberOfLeadingZeros((a[i] ^ b[i]) & 0xFF) - 24;
    }

    /**
     * Longest common prefix, in bits, of two bit strings of {@code aBits} and {@code bBits} bits
     * whose unused tail bits are zero.
     */
    public static long commonPrefixOfBits(byte[] a, long aBits, byte[] b, long bBits) {
        return commonPrefixOfBits(a, 0, aBits, b, bBits);
    }

    /** As {@link #commonPrefixOfBits(byte[], long, byte[], long)}, with {@code a}'s string starting at byte {@code aFrom}. */
    public static long commonPrefixOfBits(byte[] a, int aFrom, long aBits, byte[] b, long bBits) {
        long limit = Math.min(aBits, bBits);
        int i = Arrays.mismatch(a, aFrom, aFrom + bytes(aBits), b, 0, bytes(bBits));
        if (i < 0) {
            return limit;
        }
        if (i >= Math.min(bytes(aBits), bytes(bBits))) {
            return Math.min(limit, 8L * i);
        }
        long bit = 8L * i + Integer.numberOfLeadingZeros((a[aFrom + i] ^ b[i]) & 0xFF) - 24;
        return Math.min(limit, bit);
    }

    /**
     * Orders two bit strings whose unused tail bits are zero: unsigned and MSB-first, a proper
     * prefix first.
     */
    public static int compare(byte[] a, long aBits, byte[] b, long bBits) {
        return compare(a, 0, aBits, b, bBits);
    }

    /** As {@link #compare(byte[], long, byte[], long)}, with {@code a}'s string starting at byte {@code aFrom}. */
    public static int compare(byte[] a, int aFrom, long aBits, byte[] b, long bBits) {
        int c = Arrays.compareUnsigned(a, aFrom, aFrom + bytes(aBits), b, 0, bytes(bBits));
        return c != 0 ? c : Long.compare(aBits, bBits);
    }

    /**
     * The first position at which {@code n} bits of a mapped segment from bit {@code from}
     * differ from the bits of {@code q} from bit {@code qFrom}, or -1 if they agree.
     */
    public static long mismatch(MemorySegment s, long from, byte[] q, long qFrom, long n) {
        long done = 0;
        while (done < n) {
            int k = (int) Math.min(n - done, 56);
            long x = read(s, from + done, k) ^ read(q, qFrom + done, k);
            if (x != 0) {
                return done + Long.numberOfLeadingZeros(x) - (64 - k);
            }
            done += k;
        }
        return -1;
    }

    /**
     * The first position at which {@code n} bits of {@code a} from bit {@code aFrom} differ from
     * those of {@code b} from bit {@code bFrom}, or -1 if they agree; 56 bits per step.
     */
    public static long mismatch(MemorySegment a, long aFrom, MemorySegment b, long bFrom, long n) {
        if (n >= LONG_MISMATCH) {
            return longMismatch(a, aFrom, b, bFrom, n);
        }
        return shortMismatch(a, aFrom, b, bFrom, n);
    }

    /**
     * Runs at least this long take {@link #longMismatch}; the short loop stays small enough to
     * inline into the merger's comparisons of short keys.
     */
    private static final long LONG_MISMATCH = 256;

    /**
     * A long mismatch (equal 4 KiB keys in two inputs, say) out of line: {@code a} is brought to
     * a byte boundary; if {@code b} then is too, whole bytes are compared by the vectorised
     * {@link MemorySegment#mismatch}; otherwise each step loads one aligned word of {@code a} and
     * one of {@code b}, shifted into line with the word before it.
     */
    private static long longMismatch(MemorySegment a, long aFrom, MemorySegment b, long bFrom, long n) {
        int head = (int) ((8 - (aFrom & 7)) & 7);
        long done = 0;
        if (head > 0) {
            long x = read(a, aFrom, head) ^ read(b, bFrom, head);
            if (x != 0) {
                return Long.numberOfLeadingZeros(x) - (64 - head);
            }
            done = head;
        }
        long ai = (aFrom + done) >>> 3;
        long bBit = bFrom + done;
        long bi = bBit >>> 3;
        int shift = (int) (bBit & 7);
        if (shift == 0) {
            long bytes = (n - done) >>> 3;
            long m = MemorySegment.mismatch(a, ai, ai + bytes, b, bi, bi + bytes);
            if (m >= 0) {
                int x = (a.get(ValueLayout.JAVA_BYTE, ai + m) ^ b.get(ValueLayout.JAVA_BYTE, bi + m)) & 0xFF;
                return done + 8 * m + Integer.numberOfLeadingZeros(x) - 24;
            }
            done += 8 * bytes;
        } else {
            // b's word i straddles its loaded words i and i + 1; each loop loads only the latter.
            long words = Math.min((n - done) >>> 6, Math.min((a.byteSize() - ai) >> 3, Math.max(0, (b.byteSize() - bi - 8) >> 3)));
            long prev = words > 0 ? b.get(BE64, bi) : 0;
            for (long i = 0; i < words; i++) {
                long next = b.get(BE64, bi + 8 * i + 8);
                long x = a.get(BE64, ai + 8 * i) ^ ((prev << shift) | (next >>> (64 - shift)));
                if (x != 0) {
                    return done + 64 * i + Long.numberOfLeadingZeros(x);
                }
                prev = next;
            }
            done += 64 * words;
        }
        long rest = shortMismatch(a, aFrom + done, b, bFrom + done, n - done);
        return rest < 0 ? -1 : done + rest;
    }

    /** The mismatch 56 bits per step. */
    private static long shortMismatch(MemorySegment a, long aFrom, MemorySegment b, long bFrom, long n) {
        long done = 0;
        while (done < n) {
            int k = (int) Math.min(n - done, 56);
            long x = read(a, aFrom + done, k) ^ read(b, bFrom + done, k);
            if (x != 0) {
                return done + Long.numberOfLeadingZeros(x) - (64 - k);
            }
            done += k;
        }
        return -1;
    }

    /**
     * Writes the first {@code n} bytes that follow the first bit of {@code src} (which must hold
     * at least {@code n + 1} bytes) into {@code dst}: a KV03 logical key without its sort code.
     */
    public static void dropFirstBit(byte[] src, byte[] dst, int n) {
        int i = 0;
        for (; i + 8 <= n && i + 9 <= src.length; i += 8) {
            ARRAY_BE64.set(dst, i, ((long) ARRAY_BE64.get(src, i) << 1) | ((src[i + 8] & 0xFF) >>> 7));
        }
        for (; i < n; i++) {
            dst[i] = (byte) ((src[i] << 1) | ((src[i + 1] & 0xFF) >>> 7));
        }
    }

    /** Shifts a bit string right by {@code shift} ≤ 7 bits behind a prefix of zeros: a copy of {@code bits + shift} bits. */
    public static byte[] shiftedRight(byte[] b, long bits, int shift) {
        byte[] out = new byte[bytes(bits + shift)];
        copy(b, 0, out, shift, bits);
        return out;
    }
}

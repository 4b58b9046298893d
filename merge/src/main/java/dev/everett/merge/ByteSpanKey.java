package dev.everett.merge;

import dev.everett.segment.encoded.EncodedRecords;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A {@link SpanKey} of a byte-unit input: spans of bytes at file byte offsets. It also keeps the
 * key's first 16 bytes in two big-endian words (zero past the key's end): store keys are mostly
 * that short or differ within them, and then a loser-tree match on tied LCPs is decided by two
 * word comparisons instead of a walk of both span stacks.
 */
final class ByteSpanKey extends SpanKey {
    private static final ValueLayout.OfLong BIG_ENDIAN_WORD = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    /** Bytes the words hold. */
    private static final int WORD_BYTES = 16;
    /** Key bytes [0, 8) and [8, 16), most significant first, zero past the key's end. */
    private long w0;
    private long w1;

    ByteSpanKey(EncodedRecords records, int index) {
        super(records, index, WORD_BYTES);
    }

    @Override
    void track(long lit, long r, long n) {
        // Small, so it inlines into the record step: most records of long keys keep all 16 bytes.
        if (r < WORD_BYTES) {
            placeLiteral(lit, r, n);
        }
    }

    /** Keeps bytes [0, r) of the words, then places the literal's first bytes at r (zero after them). */
    private void placeLiteral(long lit, long r, long n) {
        long m = Math.min(n, WORD_BYTES - r);
        long a;
        long b;
        if (lit + WORD_BYTES <= source.byteSize()) {
            a = source.get(BIG_ENDIAN_WORD, lit);
            b = source.get(BIG_ENDIAN_WORD, lit + 8);
        } else {
            a = 0;
            b = 0;
            for (long i = 0; i < m; i++) {
                long v = source.get(ValueLayout.JAVA_BYTE, lit + i) & 0xFFL;
                if (i < 8) {
                    a |= v << (56 - 8 * i);
                } else {
                    b |= v << (56 - 8 * (i - 8));
                }
            }
        }
        // The literal's first m bytes: a 128-bit value (a, b) masked to its top m bytes.
        if (m < 8) {
            a &= m == 0 ? 0 : -1L << (64 - 8 * m);
            b = 0;
        } else {
            b &= m == 8 ? 0 : m == 16 ? -1L : -1L << (64 - 8 * (m - 8));
        }
        // Shifted right by r bytes, below the kept prefix.
        int shift = (int) (8 * r);
        if (shift == 0) {
            w0 = a;
            w1 = b;
        } else if (shift < 64) {
            w0 = (w0 & (-1L << (64 - shift))) | (a >>> shift);
            w1 = (b >>> shift) | (a << (64 - shift));
        } else {
            w1 = (shift == 64 ? 0 : w1 & (-1L << (128 - shift))) | (a >>> (shift - 64));
        }
    }

    /** The two words decide when the keys differ within their first 16 bytes, or one ends there. */
    @Override
    int compareCached(SpanKey other, long[] common) {
        ByteSpanKey o = (ByteSpanKey) other;
        long limit = Math.min(length, o.length);
        long x = w0 ^ o.w0;
        if (x != 0 || (x = w1 ^ o.w1) != 0) {
            long m = (w0 != o.w0 ? 0 : 8) + (Long.numberOfLeadingZeros(x) >>> 3);
            if (m < limit) {
                common[0] = m;
                return w0 != o.w0 ? Long.compareUnsigned(w0, o.w0) : Long.compareUnsigned(w1, o.w1);
            }
            // Past the shorter key's end: the difference is the other key's bytes against zero padding.
        } else if (limit > WORD_BYTES) {
            return UNDECIDED;
        }
        // Equal up to the shorter key's end, which lies within the first 16 bytes.
        common[0] = limit;
        return Long.compare(length, o.length);
    }

    @Override
    void checkForm(long r, long lcp, long lit, long oldLength) {
        // Byte-unit keys are any bytes.
    }

    @Override
    long keyBytes() {
        return length;
    }

    @Override
    void build(long lit, long r, long n) {
        if (built.length < length) {
            built = Arrays.copyOf(built, (int) Math.max(length, 2L * built.length));
        }
        copyRun(lit, built, r, n);
    }

    @Override
    long successorLcp(long r, long lit, long n) {
        int incoming = source.get(ValueLayout.JAVA_BYTE, lit) & 0xFF;
        int top = spanFromTop(r);
        int old = source.get(ValueLayout.JAVA_BYTE, at[top] + (r - start[top])) & 0xFF;
        if (incoming > old) {
            return r;
        }
        if (incoming < old) {
            throw sortsBefore();
        }
        // Conservative front coding: compare the rest of the old key with the literal.
        long m = 1;
        long limit = Math.min(length - r, n);
        while (m < limit) {
            int a = source.get(ValueLayout.JAVA_BYTE, lit + m) & 0xFF;
            int b = unit(r + m);
            if (a != b) {
                if (a < b) {
                    throw sortsBefore();
                }
                return r + m;
            }
            m++;
        }
        if (n <= length - r) {
            throw notGreater();
        }
        return r + m;
    }

    /** Key unit u (u < length). */
    private int unit(long u) {
        int s = spanOf(u);
        return source.get(ValueLayout.JAVA_BYTE, at[s] + (u - start[s])) & 0xFF;
    }

    @Override
    long mismatch(long aAt, MemorySegment b, long bAt, long n) {
        return n <= 16 ? shortMismatch(source, aAt, b, bAt, n) : MemorySegment.mismatch(source, aAt, aAt + n, b, bAt, bAt + n);
    }

    @Override
    int compareUnit(long aAt, MemorySegment b, long bAt) {
        return Integer.compare(source.get(ValueLayout.JAVA_BYTE, aAt) & 0xFF, b.get(ValueLayout.JAVA_BYTE, bAt) & 0xFF);
    }

    /** Byte-by-byte mismatch for short runs, where the vectorised one's setup dominates. */
    private static long shortMismatch(MemorySegment a, long aAt, MemorySegment b, long bAt, long n) {
        for (long i = 0; i < n; i++) {
            if (a.get(ValueLayout.JAVA_BYTE, aAt + i) != b.get(ValueLayout.JAVA_BYTE, bAt + i)) {
                return i;
            }
        }
        return -1;
    }

    @Override
    void copyRun(long from, byte[] dst, long dstAt, long n) {
        MemorySegment.copy(source, ValueLayout.JAVA_BYTE, from, dst, (int) dstAt, (int) n);
    }
}

package dev.everett.merge;

import dev.everett.segment.encoded.EncodedRecords;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/** A {@link SpanKey} of a byte-unit input: spans of bytes at file byte offsets. */
final class ByteSpanKey extends SpanKey {
    ByteSpanKey(EncodedRecords records, int index) {
        super(records, index);
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

package dev.everett.merge;

import dev.everett.segment.EncodedRecords;
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
        MemorySegment.copy(source, ValueLayout.JAVA_BYTE, lit, built, (int) r, (int) n);
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
    int compareFrom(SpanKey o, long from, long[] common) {
        ByteSpanKey other = (ByteSpanKey) o;
        long u = from;
        long limit = Math.min(length, other.length);
        while (u < limit) {
            int a = spanOf(u);
            int b = other.spanOf(u);
            long chunk = Math.min(Math.min(end[a], other.end[b]), limit) - u;
            long aAt = at[a] + (u - start[a]);
            long bAt = other.at[b] + (u - other.start[b]);
            long m = chunk <= 16 ? shortMismatch(source, aAt, other.source, bAt, chunk)
                    : MemorySegment.mismatch(source, aAt, aAt + chunk, other.source, bAt, bAt + chunk);
            if (m >= 0) {
                common[0] = u + m;
                return Integer.compare(source.get(ValueLayout.JAVA_BYTE, aAt + m) & 0xFF, other.source.get(ValueLayout.JAVA_BYTE, bAt + m) & 0xFF);
            }
            u += chunk;
        }
        common[0] = limit;
        return Long.compare(length, other.length);
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
    void copyUnits(long from, long to, byte[] dst, long dstAt) {
        long u = from;
        while (u < to) {
            int s = spanOf(u);
            long chunk = Math.min(end[s], to) - u;
            MemorySegment.copy(source, ValueLayout.JAVA_BYTE, at[s] + (u - start[s]), dst, (int) (dstAt + (u - from)), (int) chunk);
            u += chunk;
        }
    }
}

package dev.everett.merge;

import dev.everett.segment.encoded.BitSpans;
import dev.everett.segment.encoded.EncodedRecords;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * A {@link SpanKey} of a bit-unit input (KV02 bit, KV03): spans of bits at file bit offsets,
 * lengths and LCPs in bits of the host key (a KV03 sort code is left out by
 * {@link EncodedRecords}; every key has the same one). Canonical bit front coding keeps the exact
 * bit LCP, so the old key's bit at r is 0 and the literal's first bit is 1: one bit decides. Runs
 * are compared 56 bits at a time.
 */
final class BitSpanKey extends SpanKey {
    BitSpanKey(EncodedRecords records, int index) {
        super(records, index, 0);
    }

    @Override
    long keyBytes() {
        return length >>> 3;
    }

    @Override
    void track(long lit, long r, long n) {
        // Bit keys are compared through their spans only.
    }

    @Override
    int compareCached(SpanKey other, long[] common) {
        throw new AssertionError("bit keys cache no units");
    }

    @Override
    void build(long lit, long r, long n) {
        long bytes = (length + 7) >>> 3;
        if (built.length < bytes) {
            built = Arrays.copyOf(built, (int) Math.max(bytes, 2L * built.length));
        }
        copyRun(lit, built, r, n);
    }

    /** The bit at position p of the input. */
    private int bit(long p) {
        return (int) BitSpans.read(source, p, 1);
    }

    @Override
    long successorLcp(long r, long lit, long n) {
        int incoming = bit(lit);
        int top = spanFromTop(r);
        int old = bit(at[top] + (r - start[top]));
        if (incoming > old) {
            return r;
        }
        if (incoming < old) {
            throw sortsBefore();
        }
        // Conservative front coding: compare the rest of the old key with the literal, span by span.
        long limit = Math.min(length - r, n);
        long m = 1;
        while (m < limit) {
            long u = r + m;
            int s = spanOf(u);
            long chunk = Math.min(end[s] - u, limit - m);
            long oldAt = at[s] + (u - start[s]);
            long d = mismatch(lit + m, source, oldAt, chunk);
            if (d >= 0) {
                if (bit(lit + m + d) == 0) {
                    throw sortsBefore();
                }
                return r + m + d;
            }
            m += chunk;
        }
        if (n <= length - r) {
            throw notGreater();
        }
        return r + limit;
    }

    @Override
    long mismatch(long aAt, MemorySegment b, long bAt, long n) {
        return BitSpans.mismatch(source, aAt, b, bAt, n);
    }

    @Override
    int compareUnit(long aAt, MemorySegment b, long bAt) {
        return bit(aAt) == 1 ? 1 : -1;
    }

    @Override
    void copyRun(long from, byte[] dst, long dstAt, long n) {
        BitSpans.copy(source, from, dst, dstAt, n);
    }
}

package dev.everett.merge;

import dev.everett.segment.BitStrings;
import dev.everett.segment.EncodedRecords;
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
        super(records, index);
    }

    @Override
    long keyBytes() {
        return length >>> 3;
    }

    @Override
    void build(long lit, long r, long n) {
        long bytes = (length + 7) >>> 3;
        if (built.length < bytes) {
            built = Arrays.copyOf(built, (int) Math.max(bytes, 2L * built.length));
        }
        BitStrings.copy(source, lit, built, r, n);
    }

    /** The bit at position p of the input. */
    private int bit(long p) {
        return (int) BitStrings.read(source, p, 1);
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
            long d = BitStrings.mismatch(source, lit + m, source, oldAt, chunk);
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
    int compareFrom(SpanKey o, long from, long[] common) {
        BitSpanKey other = (BitSpanKey) o;
        long u = from;
        long limit = Math.min(length, other.length);
        while (u < limit) {
            int a = spanOf(u);
            int b = other.spanOf(u);
            long chunk = Math.min(Math.min(end[a], other.end[b]), limit) - u;
            long aAt = at[a] + (u - start[a]);
            long bAt = other.at[b] + (u - other.start[b]);
            long m = BitStrings.mismatch(source, aAt, other.source, bAt, chunk);
            if (m >= 0) {
                common[0] = u + m;
                return bit(aAt + m) == 1 ? 1 : -1;
            }
            u += chunk;
        }
        common[0] = limit;
        return Long.compare(length, other.length);
    }

    @Override
    void copyUnits(long from, long to, byte[] dst, long dstAt) {
        long u = from;
        while (u < to) {
            int s = spanOf(u);
            long chunk = Math.min(end[s], to) - u;
            BitStrings.copy(source, at[s] + (u - start[s]), dst, dstAt + (u - from), chunk);
            u += chunk;
        }
    }
}

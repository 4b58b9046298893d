package dev.everett.merge;

import dev.everett.segment.EncodedRecords;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * One merge input, walked as encoded records. Its current key is never built: it is a stack of
 * spans, each a run of key units [start, end) lying at a file offset of the mapped input (the
 * literal of the record that introduced them). A record that keeps r units pops the spans that
 * start at or after r, cuts the top one back to r, and pushes its own literal; each record adds
 * at most one span and a popped span never returns, so the upkeep is amortised O(1).
 *
 * <p>Advancing also checks strict order against the previous key: canonical front coding
 * differs at unit r, so one unit comparison decides; only a record that keeps less than the
 * whole shared prefix needs a longer comparison through the spans.
 */
final class SpanKey {
    final EncodedRecords records;
    final MemorySegment source;
    final int index;
    private long[] at = new long[16];
    private long[] start = new long[16];
    private long[] end = new long[16];
    private int spans;
    private long length;
    private boolean eof;
    private boolean first = true;
    /** When a key-aware merger needs keys, the current key kept built, literal by literal. */
    private byte[] built;

    SpanKey(EncodedRecords records, int index) {
        this.records = records;
        this.source = records.source();
        this.index = index;
    }

    /**
     * Keeps the current key built from now on (for a key-aware merger): each record then
     * copies its literal over the kept prefix, as an ordinary cursor does. Call before the
     * first {@link #advance()}.
     */
    void keepBuilt() {
        built = new byte[64];
    }

    /** The built key, valid in [0, length()); only after {@link #keepBuilt()}. */
    byte[] built() {
        return built;
    }

    boolean eof() {
        return eof;
    }

    long length() {
        return length;
    }

    /**
     * Moves to the next record and returns the unit LCP between the previous key and the new
     * one (0 for the first record and at the end).
     */
    long advance() {
        if (!records.next()) {
            eof = true;
            spans = 0;
            length = 0;
            return 0;
        }
        long r = records.retained();
        long lit = records.literalAt();
        long n = records.literalLength();
        long lcp = 0;
        if (first) {
            first = false;
        } else {
            lcp = successorLcp(r, lit, n);
        }
        while (spans > 0 && start[spans - 1] >= r) {
            spans--;
        }
        if (spans > 0 && end[spans - 1] > r) {
            end[spans - 1] = r;
        }
        if (n > 0) {
            push(lit, r, r + n);
        }
        length = r + n;
        if (built != null) {
            if (built.length < length) {
                built = Arrays.copyOf(built, (int) Math.max(length, 2L * built.length));
            }
            MemorySegment.copy(source, ValueLayout.JAVA_BYTE, lit, built, (int) r, (int) n);
        }
        return lcp;
    }

    /** LCP of the old key and the new one (kept r units, literal at lit of n units); checks old < new. */
    private long successorLcp(long r, long lit, long n) {
        if (r == length) {
            if (n == 0) {
                throw records.corrupt(records.recordStart(), "record " + records.ordinal() + " repeats its predecessor's key");
            }
            return r;
        }
        if (n == 0) {
            throw records.corrupt(records.recordStart(), "record " + records.ordinal() + " is a proper prefix of its predecessor");
        }
        int incoming = source.get(ValueLayout.JAVA_BYTE, lit) & 0xFF;
        int top = spanFromTop(r);
        int old = source.get(ValueLayout.JAVA_BYTE, at[top] + (r - start[top])) & 0xFF;
        if (incoming > old) {
            return r;
        }
        if (incoming < old) {
            throw records.corrupt(records.recordStart(), "record " + records.ordinal() + " sorts before its predecessor");
        }
        // Conservative front coding: compare the rest of the old key with the literal.
        long m = 1;
        long limit = Math.min(length - r, n);
        while (m < limit) {
            int a = source.get(ValueLayout.JAVA_BYTE, lit + m) & 0xFF;
            int b = unit(r + m);
            if (a != b) {
                if (a < b) {
                    throw records.corrupt(records.recordStart(), "record " + records.ordinal() + " sorts before its predecessor");
                }
                return r + m;
            }
            m++;
        }
        if (n <= length - r) {
            throw records.corrupt(records.recordStart(), "record " + records.ordinal() + " is not greater than its predecessor");
        }
        return r + m;
    }

    private void push(long offset, long s, long e) {
        if (spans == at.length) {
            at = Arrays.copyOf(at, spans * 2);
            start = Arrays.copyOf(start, spans * 2);
            end = Arrays.copyOf(end, spans * 2);
        }
        at[spans] = offset;
        start[spans] = s;
        end[spans] = e;
        spans++;
    }

    /** The span holding key unit u (spans are ordered by start). */
    private int spanOf(long u) {
        int lo = 0;
        int hi = spans - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (start[mid] <= u) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    /** Key unit u (u < length). */
    int unit(long u) {
        int s = spanOf(u);
        return source.get(ValueLayout.JAVA_BYTE, at[s] + (u - start[s])) & 0xFF;
    }

    /**
     * The span holding unit u, searched from the top of the stack: the successor check asks
     * for the unit where the new record's literal starts, which lies in one of the top spans.
     */
    private int spanFromTop(long u) {
        int s = spans - 1;
        while (start[s] > u) {
            s--;
        }
        return s;
    }

    /**
     * Compares this key with another from unit {@code from}, where both agree on
     * [0, from): returns a negative, zero or positive number, and puts the exact unit LCP in
     * {@code common[0]}.
     */
    int compareFrom(SpanKey other, long from, long[] common) {
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

    /** Copies key units [from, to) into {@code dst} at {@code dstAt}. */
    void copyUnits(long from, long to, byte[] dst, int dstAt) {
        long u = from;
        while (u < to) {
            int s = spanOf(u);
            long chunk = Math.min(end[s], to) - u;
            MemorySegment.copy(source, ValueLayout.JAVA_BYTE, at[s] + (u - start[s]), dst, (int) (dstAt + (u - from)), (int) chunk);
            u += chunk;
        }
    }
}

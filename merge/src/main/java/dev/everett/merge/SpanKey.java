package dev.everett.merge;

import dev.everett.segment.encoded.EncodedRecords;
import java.lang.foreign.MemorySegment;
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
 *
 * <p>The unit is the input's: {@link ByteSpanKey} compares bytes at byte offsets,
 * {@link BitSpanKey} bits at bit offsets (the input's family picks one: {@link EncodedRecords#open}). Lengths, LCPs and
 * span bounds are in those units throughout, so the loser tree and the merge loop do not care.
 * The two are separate classes, so the byte path stays the straight code it was, and each call
 * site sees one class in a merge (all inputs of a merge share a policy).
 */
abstract sealed class SpanKey permits ByteSpanKey, BitSpanKey {
    final EncodedRecords records;
    final MemorySegment source;
    final int index;
    long[] at = new long[16];
    long[] start = new long[16];
    long[] end = new long[16];
    int spans;
    long length;
    private boolean eof;
    private boolean first = true;
    /** When a key-aware merger needs keys, the current key kept built, literal by literal. */
    byte[] built;

    /** Units at the front of the key that {@link #compareCached} decides on (0: none). */
    private final long cachedUnits;
    /** {@link #compareCached}'s answer when both keys are longer than the cached units and agree on them. */
    static final int UNDECIDED = Integer.MIN_VALUE;

    SpanKey(EncodedRecords records, int index, long cachedUnits) {
        this.records = records;
        this.source = records.source();
        this.index = index;
        this.cachedUnits = cachedUnits;
    }

    /**
     * Compares this key with {@code other} on the cached front units alone (both agree below the
     * comparison's start, which lies among them): the order, with the exact LCP in
     * {@code common[0]}, when they differ there or one key ends there; else {@link #UNDECIDED}.
     */
    abstract int compareCached(SpanKey other, long[] common);

    /** The span key of an input in its own unit. */
    static SpanKey of(EncodedRecords records, int index) {
        return records.open(ByteSpanKey::new, BitSpanKey::new, index);
    }

    /**
     * Keeps the current key built from now on (for a key-aware merger): each record then
     * copies its literal over the kept prefix, as an ordinary cursor does. Call before the
     * first {@link #advance()}.
     */
    void keepBuilt() {
        built = new byte[64];
    }

    /** The built host key, valid in its first {@link #keyBytes()} bytes; only after {@link #keepBuilt()}. */
    byte[] built() {
        return built;
    }

    /** The current key's length in bytes. */
    abstract long keyBytes();

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
    final long advance() {
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
        } else if (r == length || n == 0) {
            lcp = extension(r, n);
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
        long oldLength = length;
        length = r + n;
        checkForm(r, lcp, lit, oldLength);
        track(lit, r, n);
        if (built != null) {
            build(lit, r, n);
        }
        return lcp;
    }

    /**
     * Checks what the unit's key grammar demands of the new key beyond its order (the spans
     * already describe it; it kept r units of the old key, which had {@code oldLength} and passed
     * this check, and its literal lies at {@code lit}; {@code lcp} is the new key's LCP with the
     * old one, which equals r where the front coding is canonical, and 0 for the first record).
     * A merge does not build keys, so this is the only place where an input's key form is
     * checked; a key that breaks it would otherwise be copied into the output as it is.
     */
    abstract void checkForm(long r, long lcp, long lit, long oldLength);

    /** Follows the new key (kept prefix r, then n units at lit) in whatever the unit caches of it. */
    abstract void track(long lit, long r, long n);

    /** Copies the new literal (n units at lit, kept prefix r) into {@link #built}. */
    abstract void build(long lit, long r, long n);

    /**
     * LCP of the old key and the new one (kept r < length units, then a literal of n > 0 units
     * at lit); checks old < new.
     */
    abstract long successorLcp(long r, long lit, long n);

    /** The successor cases decided without reading a unit: the old key whole, or an empty literal. */
    private long extension(long r, long n) {
        if (n > 0) {
            return r; // keeps the whole old key and adds units: old is a proper prefix of new
        }
        throw records.corrupt(records.recordStart(), "record " + records.ordinal()
                + (r == length ? " repeats its predecessor's key" : " is a proper prefix of its predecessor"));
    }

    final RuntimeException sortsBefore() {
        return records.corrupt(records.recordStart(), "record " + records.ordinal() + " sorts before its predecessor");
    }

    final RuntimeException notGreater() {
        return records.corrupt(records.recordStart(), "record " + records.ordinal() + " is not greater than its predecessor");
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

    /**
     * The span holding key unit u (spans are ordered by start). The top span is tried first:
     * comparisons in the loser tree start at the LCP, which on deep stacks (keys built from many
     * short literals) lies in one of the top two spans, where a search by halves would take
     * log(spans) steps.
     */
    final int spanOf(long u) {
        int hi = spans - 1;
        if (hi <= 0 || start[hi] <= u) {
            return Math.max(hi, 0);
        }
        if (start[--hi] <= u) {
            return hi;
        }
        int lo = 0;
        hi--;
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

    /**
     * The span holding unit u, searched from the top of the stack: the successor check asks
     * for the unit where the new record's literal starts, which lies in one of the top spans.
     */
    final int spanFromTop(long u) {
        int s = spans - 1;
        while (start[s] > u) {
            s--;
        }
        return s;
    }

    /**
     * Compares this key with another of the same unit from unit {@code from}, where both agree
     * on [0, from): returns a negative, zero or positive number, and puts the exact unit LCP in
     * {@code common[0]}. Walks both span stacks run by run; the unit's class compares the runs.
     */
    final int compareFrom(SpanKey other, long from, long[] common) {
        long u = from;
        if (u < cachedUnits) {
            // Within the units the key caches: decided there unless both keys agree on all of them.
            int c = compareCached(other, common);
            if (c != UNDECIDED) {
                return c;
            }
            u = cachedUnits;
        }
        long limit = Math.min(length, other.length);
        while (u < limit) {
            int a = spanOf(u);
            int b = other.spanOf(u);
            long chunk = Math.min(Math.min(end[a], other.end[b]), limit) - u;
            long aAt = at[a] + (u - start[a]);
            long bAt = other.at[b] + (u - other.start[b]);
            long m = mismatch(aAt, other.source, bAt, chunk);
            if (m >= 0) {
                common[0] = u + m;
                return compareUnit(aAt + m, other.source, bAt + m);
            }
            u += chunk;
        }
        common[0] = limit;
        return Long.compare(length, other.length);
    }

    /** The first of n units at {@code aAt} of this input and {@code bAt} of {@code b} that differ, or -1. */
    abstract long mismatch(long aAt, MemorySegment b, long bAt, long n);

    /** Orders this input's unit at {@code aAt} against {@code b}'s at {@code bAt} (known to differ). */
    abstract int compareUnit(long aAt, MemorySegment b, long bAt);

    /** Copies key units [from, to) into {@code dst} at unit {@code dstAt}. */
    final void copyUnits(long from, long to, byte[] dst, long dstAt) {
        long u = from;
        while (u < to) {
            int s = spanOf(u);
            long chunk = Math.min(end[s], to) - u;
            copyRun(at[s] + (u - start[s]), dst, dstAt + (u - from), chunk);
            u += chunk;
        }
    }

    /** Copies n units of this input from {@code from} into {@code dst} at unit {@code dstAt}. */
    abstract void copyRun(long from, byte[] dst, long dstAt, long n);
}

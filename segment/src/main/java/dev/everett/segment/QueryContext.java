package dev.everett.segment;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * How the current boundary key compares with the query Q, carried from catalog to catalog
 * without ever rebuilding a key: {@code common} is the number of leading bits the boundary
 * shares with Q, {@code order} is the boundary's order relative to Q (−1, 0, +1), and the
 * boundary's length in units is known except right after a cut-LCP predecessor step.
 *
 * <p>Advancing over a record needs only its retained length and its literal: if the boundary
 * already agreed with Q on at least the retained prefix, the literal is compared with the rest
 * of Q; otherwise the record inherits a prefix on which the boundary had already diverged, and
 * the comparison stands. Byte unit: lengths are bytes, {@code common} is bits. Bit unit: every
 * length and position is in bits, and Q is the logical query: for KV03 chains the sort code
 * {@code 0} then the query's bits, as the streams hold logical keys.
 */
final class QueryContext {
    private final Corruption corruption;
    /** Bit unit: positions and lengths count bits, the query is a bit string. */
    private final boolean bits;
    /** Bit unit: bits of sort code in front of the host's query (1 for KV03). */
    private final int pathBits;
    byte[] query;
    int queryLength;
    /** The query's length in bits (bit unit: of the logical query). */
    long queryBits;
    private MemorySegment querySegment;
    long common;
    int order;
    boolean lengthKnown;
    long length;

    QueryContext(Corruption corruption) {
        this(corruption, false, 0);
    }

    QueryContext(Corruption corruption, boolean bits, int pathBits) {
        this.corruption = corruption;
        this.bits = bits;
        this.pathBits = pathBits;
    }

    /**
     * The first boundary for query {@code q[0 .. n)} (the host's key): the empty key. With a sort
     * code (KV03) that is the logical empty key, the code alone, which Q shares: a KV03 record 0
     * keeps exactly its code, so the boundary before it must hold it.
     */
    void start(byte[] q, int n) {
        if (bits && pathBits > 0) {
            query = BitStrings.shiftedRight(q, 8L * n, pathBits);
            querySegment = null;
        } else if (q != query) {
            query = q;
            querySegment = MemorySegment.ofArray(q);
        }
        queryLength = n;
        int path = bits ? pathBits : 0;
        queryBits = 8L * n + path;
        common = path;
        order = queryBits == path ? 0 : -1;
        lengthKnown = true;
        length = path;
    }

    void copyFrom(QueryContext o) {
        if (o.query != query) {
            query = o.query;
            querySegment = o.querySegment;
        }
        queryLength = o.queryLength;
        queryBits = o.queryBits;
        common = o.common;
        order = o.order;
        lengthKnown = o.lengthKnown;
        length = o.length;
    }

    /**
     * Moves onto a record that keeps {@code retained} units of its predecessor and adds the
     * literal {@code s[at .. at + literal)}, giving a key of {@code keyLength} units.
     */
    void advance(MemorySegment s, long recordAt, long retained, long at, long literal, long keyLength) {
        if (bits) {
            advanceBits(s, recordAt, retained, at, literal, keyLength);
            return;
        }
        if (lengthKnown && retained > length) {
            throw corruption.at(recordAt, "record retains " + retained + " units of a boundary key only " + length + " long");
        }
        if (common >= 8 * retained) {
            long rest = queryLength - retained;
            long n = Math.min(literal, rest);
            long m = MemorySegment.mismatch(s, at, at + n, querySegment, retained, retained + n);
            if (m >= 0) {
                int a = s.get(ValueLayout.JAVA_BYTE, at + m) & 0xFF;
                int b = query[(int) (retained + m)] & 0xFF;
                order = a < b ? -1 : 1;
                common = 8 * (retained + m) + Integer.numberOfLeadingZeros(a ^ b) - 24;
            } else {
                common = 8 * (retained + n);
                order = Long.compare(literal, rest);
            }
        }
        lengthKnown = true;
        length = keyLength;
    }

    /** {@link #advance} in bits: positions are file bit offsets, {@code recordAt} too. */
    private void advanceBits(MemorySegment s, long recordAt, long retained, long at, long literal, long keyLength) {
        if (lengthKnown && retained > length) {
            throw corruption.at(recordAt >>> 3, "record retains " + retained + " bits of a boundary key only " + length + " long");
        }
        if (common >= retained) {
            long rest = queryBits - retained;
            long n = Math.min(literal, rest);
            long m = BitStrings.mismatch(s, at, query, retained, n);
            if (m >= 0) {
                order = BitStrings.bit(s, at + m) == 0 ? -1 : 1;
                common = retained + m;
            } else {
                common = retained + n;
                order = Long.compare(literal, rest);
            }
        }
        lengthKnown = true;
        length = keyLength;
    }

    /**
     * Becomes the context of a borrowed key C known only through its cut LCP with the
     * boundary B, where C ≤ B ≤ Q: it agrees with Q on min(cutLcp, common) bits, and equals Q
     * exactly when that is all of Q.
     */
    void predecessor(long cutLcp, long cutAt) {
        if (order > 0) {
            throw corruption.at(cutAt, "cut-LCP predecessor taken from a boundary above the query");
        }
        long boundaryBits = bits ? length : 8 * length;
        if (lengthKnown && Long.compareUnsigned(cutLcp, boundaryBits) > 0) {
            throw corruption.at(cutAt, "cut LCP " + Long.toUnsignedString(cutLcp) + " bits exceeds the boundary key's " + boundaryBits + " bits");
        }
        common = Math.min(cutLcp, common);
        if (common == queryBits) {
            order = 0;
            lengthKnown = true;
            length = bits ? queryBits : queryLength;
        } else {
            order = -1;
            lengthKnown = false;
        }
    }
}

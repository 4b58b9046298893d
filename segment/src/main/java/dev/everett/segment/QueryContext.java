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
 * the comparison stands. Byte unit: lengths are bytes, {@code common} is bits.
 */
final class QueryContext {
    private final Corruption corruption;
    byte[] query;
    int queryLength;
    private MemorySegment querySegment;
    long common;
    int order;
    boolean lengthKnown;
    long length;

    QueryContext(Corruption corruption) {
        this.corruption = corruption;
    }

    /** The empty boundary for query {@code q[0 .. n)}. */
    void start(byte[] q, int n) {
        if (q != query) {
            query = q;
            querySegment = MemorySegment.ofArray(q);
        }
        queryLength = n;
        common = 0;
        order = n == 0 ? 0 : -1;
        lengthKnown = true;
        length = 0;
    }

    void copyFrom(QueryContext o) {
        if (o.query != query) {
            query = o.query;
            querySegment = o.querySegment;
        }
        queryLength = o.queryLength;
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

    /**
     * Becomes the context of a borrowed key C known only through its cut LCP with the
     * boundary B, where C ≤ B ≤ Q: it agrees with Q on min(cutLcp, common) bits, and equals Q
     * exactly when that is all of Q.
     */
    void predecessor(long cutLcp, long cutAt) {
        if (order > 0) {
            throw corruption.at(cutAt, "cut-LCP predecessor taken from a boundary above the query");
        }
        if (lengthKnown && Long.compareUnsigned(cutLcp, 8 * length) > 0) {
            throw corruption.at(cutAt, "cut LCP " + Long.toUnsignedString(cutLcp) + " bits exceeds the boundary key's " + 8 * length + " bits");
        }
        common = Math.min(cutLcp, common);
        if (common == 8L * queryLength) {
            order = 0;
            lengthKnown = true;
            length = queryLength;
        } else {
            order = -1;
            lengthKnown = false;
        }
    }
}

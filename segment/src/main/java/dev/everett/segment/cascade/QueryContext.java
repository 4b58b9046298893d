package dev.everett.segment.cascade;

import dev.everett.segment.bits.BitStrings;
import dev.everett.segment.fc.KeyForm;
import dev.everett.segment.fc.StreamUnits;
import dev.everett.segment.io.Corruption;
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
    private static final ValueLayout.OfLong BIG_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(java.nio.ByteOrder.BIG_ENDIAN);
    private static final java.lang.invoke.VarHandle QUERY_LONG =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.BIG_ENDIAN);
    private final Corruption corruption;
    /** The streams' unit: lengths in {@link #advance} and {@link #boundary}, and key copies. */
    private final StreamUnits units;
    /**
     * Bit unit: positions and lengths count bits, the query is a bit string. Set once from
     * {@link #units}, so that the per-record {@link #advance} keeps one straight path per chain.
     */
    private final boolean bits;
    /** The host's query made the stored key (sort code, ordered string form). */
    private final KeyForm form;
    /**
     * The query's units. Byte unit: a private copy padded with 8 zero bytes, so that an 8-byte
     * load at any position inside the query stays in bounds; shared by reference with the
     * contexts copied from this one (they all belong to one probe and one query at a time).
     */
    byte[] query;
    int queryLength;
    /** Byte unit: the buffer {@link #start} copies the query into, grown as needed. */
    private byte[] padded = new byte[24];
    /** The query's length in bits (bit unit: of the logical query). */
    long queryBits;
    long common;
    int order;
    boolean lengthKnown;
    long length;

    QueryContext(Corruption corruption, StreamUnits units, KeyForm form) {
        this.corruption = corruption;
        this.units = units;
        this.bits = units.partialBytes();
        this.form = form;
    }

    /**
     * The first boundary for query {@code q[0 .. n)} (the host's key): the empty key. With a sort
     * code (KV03) that is the logical empty key, the code alone, which Q shares: a KV03 record 0
     * keeps exactly its code, so the boundary before it must hold it.
     */
    void start(byte[] q, int n) {
        long path;
        if (bits) {
            // The streams hold logical keys (KV02 in bits: of the ordered string form): so does Q.
            query = form.logicalQuery(q, n);
            n = form.storedBytes(query);
            path = form.units(0); // the sort code
        } else {
            if (padded.length < n + 8) {
                padded = new byte[n + 8 + (n >>> 1)];
            }
            System.arraycopy(q, 0, padded, 0, n);
            java.util.Arrays.fill(padded, n, n + 8, (byte) 0);
            query = padded;
            path = 0;
        }
        queryLength = n;
        queryBits = 8L * n + path;
        common = path;
        order = queryBits == path ? 0 : -1;
        lengthKnown = true;
        length = path;
    }

    void copyFrom(QueryContext o) {
        query = o.query;
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
            throw retainsTooMuch(recordAt, retained, "units");
        }
        if (common >= 8 * retained) {
            compareLiteral(s, retained, at, literal);
        }
        lengthKnown = true;
        length = keyLength;
    }

    private dev.everett.api.CorruptSegmentException retainsTooMuch(long at, long retained, String unit) {
        return corruption.at(at, "record retains " + retained + " " + unit + " of a boundary key only " + length + " long");
    }

    /**
     * Byte unit, the boundary agreeing with Q on its whole retained prefix: compares the literal
     * with Q from there. Kept apart and small so that the JIT inlines it into the window scans.
     * Literals are mostly a few bytes, so they are compared 8 bytes at a time: one big-endian
     * load from each side (the query is padded, and the literal lies inside the mapped file, so
     * a load that would pass the file's end falls back to bytes), masked to what is compared.
     */
    private void compareLiteral(MemorySegment s, long retained, long at, long literal) {
        long rest = queryLength - retained;
        long n = Math.min(literal, rest);
        long size = s.byteSize();
        byte[] query = this.query;
        int q = (int) retained;
        long m = 0;
        while (m < n) {
            long x;
            if (at + m + 8 <= size) {
                x = s.get(BIG_LONG, at + m);
            } else {
                x = tail(s, at + m, Math.min(8, n - m));
            }
            long y = (long) QUERY_LONG.get(query, q + (int) m);
            long take = Math.min(8, n - m);
            long mask = -1L << (64 - 8 * take);
            long d = (x ^ y) & mask;
            if (d != 0) {
                order = Long.compareUnsigned(x & mask, y & mask) < 0 ? -1 : 1;
                common = 8 * (retained + m) + Long.numberOfLeadingZeros(d);
                return;
            }
            m += take;
        }
        common = 8 * (retained + n);
        order = Long.compare(literal, rest);
    }

    /** Up to 8 bytes at the very end of the file, big-endian in the top of a long. */
    private static long tail(MemorySegment s, long at, long count) {
        long x = 0;
        for (int i = 0; i < count; i++) {
            x |= (s.get(ValueLayout.JAVA_BYTE, at + i) & 0xFFL) << (56 - 8 * i);
        }
        return x;
    }

    /** {@link #advance} in bits: positions are file bit offsets, {@code recordAt} too. */
    private void advanceBits(MemorySegment s, long recordAt, long retained, long at, long literal, long keyLength) {
        if (lengthKnown && retained > length) {
            throw retainsTooMuch(recordAt >>> 3, retained, "bits");
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
     * Becomes the context of a boundary key known in full: the first {@code units} units of
     * {@code key} from byte {@code from} (bit unit: an MSB-first bit string whose unused tail bits
     * are zero). Gives exactly what advancing over the records that spell it would give: the
     * common prefix with Q in bits, the order, and the length.
     */
    void boundary(byte[] key, int from, long units) {
        long keyBits = this.units.bits(units);
        long c = BitStrings.commonPrefixOfBits(key, from, keyBits, query, queryBits);
        common = c;
        if (c == keyBits) {
            order = c == queryBits ? 0 : -1;
        } else if (c == queryBits) {
            order = 1;
        } else {
            order = ((key[from + (int) (c >>> 3)] >>> (7 - (int) (c & 7))) & 1) == 0 ? -1 : 1;
        }
        lengthKnown = true;
        length = units;
    }

    /**
     * Becomes the context of a boundary key of {@code units} units that shares {@code common}
     * bits with Q and orders {@code order} against it, as the caller found from what it knows of
     * the key: the same state {@link #boundary(byte[], int, long)} gives from the key's bytes.
     */
    void boundary(long common, int order, long units) {
        this.common = common;
        this.order = order;
        lengthKnown = true;
        length = units;
    }

    /** Orders {@code units} units of {@code key} from byte {@code from} against Q (as {@link #boundary}). */
    int compareWith(byte[] key, int from, long units) {
        return BitStrings.compare(key, from, this.units.bits(units), query, queryBits);
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
        long boundaryBits = units.bits(length);
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

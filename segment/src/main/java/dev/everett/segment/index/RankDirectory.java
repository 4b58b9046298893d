package dev.everett.segment.index;

import dev.everett.segment.io.Corruption;
import dev.everett.segment.io.LittleEndian;
import java.lang.foreign.MemorySegment;

/**
 * One route's rank directory: a class per virtual group (how many of the route's borrowed
 * keys fall in the group, b = log2(K + 1) bits, packed LSB-first into u64 words) and one
 * checkpoint per 128 groups (the exclusive prefix sum). rank(g) = borrows before position g·K.
 */
public final class RankDirectory {
    private final MemorySegment s;
    private final Corruption corruption;
    private final long classes;
    private final long checkpoints;
    private final long groups;
    private final int bits;
    private final long mask;
    private final long total;

    RankDirectory(MemorySegment s, Corruption corruption, long classes, long checkpoints, long groups, int bits, long total) {
        this.s = s;
        this.corruption = corruption;
        this.classes = classes;
        this.checkpoints = checkpoints;
        this.groups = groups;
        this.bits = bits;
        this.mask = (1L << bits) - 1;
        this.total = total;
    }

    long groups() {
        return groups;
    }

    /** Borrowed keys of this route in group g. */
    public int classOf(long g) {
        if (total == 0) {
            return 0; // an empty route (every secondary route of a single-run chain): nothing to read
        }
        long bit = g * bits;
        long wordAt = classes + 8 * (bit >>> 6);
        int shift = (int) (bit & 63);
        long v = LittleEndian.u64(s, wordAt) >>> shift;
        if (shift + bits > 64) {
            v |= LittleEndian.u64(s, wordAt + 8) << (64 - shift);
        }
        return (int) (v & mask);
    }

    /** Borrowed keys of this route before group g; rank(G) is the route's total (D13). */
    public long rank(long g) {
        if (g >= groups || total == 0) {
            return total;
        }
        long block = g >>> 7;
        long r = LittleEndian.u64(s, checkpoints + 8 * block) + sumClasses(block << 7, g);
        if (Long.compareUnsigned(r, total) > 0) {
            throw corruption.at(checkpoints + 8 * block, "rank of group " + g + " exceeds the route's " + total + " borrowed keys");
        }
        return r;
    }

    private static final long NIBBLES = 0x0F0F_0F0F_0F0F_0F0FL;
    private static final long PAIRS = 0x3333_3333_3333_3333L;
    private static final long BYTES = 0x0101_0101_0101_0101L;

    /**
     * The sum of classes [from, to). With 2- or 4-bit classes (K = 3, 15) no field straddles a
     * word, so whole words are summed at once: fields are added pairwise into bytes, and the
     * bytes summed with one multiplication. Other widths add field by field.
     */
    private long sumClasses(long from, long to) {
        if (64 % bits != 0) {
            long r = 0;
            for (long h = from; h < to; h++) {
                r += classOf(h);
            }
            return r;
        }
        long bit = from * bits;
        long end = to * bits;
        long r = 0;
        while (bit < end) {
            long word = LittleEndian.u64(s, classes + 8 * (bit >>> 6));
            int shift = (int) (bit & 63);
            long take = Math.min(64 - shift, end - bit);
            word >>>= shift;
            if (take < 64) {
                word &= (1L << take) - 1;
            }
            r += bits == 4 ? sumNibbles(word) : sumPairs(word);
            bit += take;
        }
        return r;
    }

    private static long sumNibbles(long w) {
        long bytes = (w & NIBBLES) + ((w >>> 4) & NIBBLES);
        return (bytes * BYTES) >>> 56;
    }

    private static long sumPairs(long w) {
        long nibbles = (w & PAIRS) + ((w >>> 2) & PAIRS);
        return sumNibbles(nibbles);
    }

    public long checkpointOffset(long block) {
        return checkpoints + 8 * block;
    }
}

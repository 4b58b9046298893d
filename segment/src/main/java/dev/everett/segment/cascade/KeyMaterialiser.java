package dev.everett.segment.cascade;

import dev.everett.segment.index.IndexDirectory;
import dev.everett.segment.fc.FcStream;
import dev.everett.segment.fc.Frame;
import dev.everett.segment.fc.StreamUnits;
import dev.everett.segment.index.Catalog;
import dev.everett.segment.index.IndexReader;
import java.util.List;

/**
 * Rebuilds full keys at any position of a chain, top down. A record's key cannot be read from
 * its native alone (a block start keeps a prefix that belongs to earlier records), but within a
 * virtual group every stream can be decoded from the group's boundary key B: for the first
 * record C of a stream in the group and its physical predecessor A, A ≤ B ≤ C, so C's retained
 * prefix is a prefix of B. B is the main-route sample one catalog up, rebuilt the same way; the
 * head's only group starts at the empty key.
 *
 * <p>In bit units the keys are logical bit strings (a KV03 key behind its sort code), lengths are
 * in bits, and the unused tail bits of each key array are zero.
 */
public final class KeyMaterialiser {
    /** Catalogs from the head down the main route. */
    private final List<Catalog> path;
    private final long k;
    private final FcStream.Window window = new FcStream.Window();

    public KeyMaterialiser(List<Catalog> path) {
        this.path = path;
        this.k = path.get(0).index.groupSize();
    }

    /** Keys of one stream's records in one group, from its first record there up to a target. */
    record GroupKeys(long first, byte[][] keys, int[] lengths, long[] valueAt, long[] valueLength, int count) {
        int lengthOf(long ordinal) {
            return lengths[(int) (ordinal - first)];
        }

        byte[] keyOf(long ordinal) {
            return keys[(int) (ordinal - first)];
        }
    }

    /**
     * The keys of native records [first of its group, ordinal] of the catalog at {@code level}
     * (0 = head).
     */
    GroupKeys natives(int level, long ordinal) {
        return decode(level, -1, ordinal);
    }

    /** route -1 = natives, 0 = main, 1 = secondary. */
    private GroupKeys decode(int level, int route, long ordinal) {
        Catalog c = path.get(level);
        IndexReader ix = c.index;
        long group = groupOf(ix, route, ordinal);
        byte[] boundary;
        int boundaryLength;
        if (group == 0) {
            // The empty key; for KV03 the logical empty key, the sort code 0 alone.
            int path = streamOf(c, ix, route).framing().pathBits();
            boundary = new byte[path > 0 ? 1 : 0];
            boundaryLength = path;
        } else {
            ix.corruption().require(level > 0, IndexDirectory.inFile(IndexDirectory.VIRTUAL_COUNT), () -> "group " + group + " of a head catalog");
            GroupKeys above = decode(level - 1, IndexReader.MAIN, group);
            boundary = above.keyOf(group);
            boundaryLength = above.lengthOf(group);
        }
        long first = firstOf(ix, route, group);
        FcStream s = streamOf(c, ix, route);
        int n = (int) (ordinal - first + 1);
        byte[][] keys = new byte[n][];
        int[] lengths = new int[n];
        long[] valueAt = new long[n];
        long[] valueLength = new long[n];
        s.open(window, first);
        byte[] key = boundary;
        int length = boundaryLength;
        StreamUnits units = s.framing().units();
        for (int i = 0; i < n; i++) {
            window.read();
            Frame f = window.frame;
            if (f.retained > length) {
                throw ix.corruption().at(s.byteOffset(f.start), "record retains " + f.retained + " units of a " + length + "-unit boundary key");
            }
            int next = Math.toIntExact(f.retained + f.suffixLength);
            byte[] k2 = units.extend(key, f.retained, s.segment(), f.suffixAt, f.suffixLength);
            keys[i] = k2;
            lengths[i] = next;
            valueAt[i] = f.valueAt;
            valueLength[i] = f.valueLength;
            key = k2;
            length = next;
        }
        return new GroupKeys(first, keys, lengths, valueAt, valueLength, n);
    }

    private static FcStream streamOf(Catalog c, IndexReader ix, int route) {
        return route < 0 ? c.nativeStream() : ix.route(route).stream();
    }

    /** The group holding a stream's record: the first group whose end passes the ordinal. */
    private long groupOf(IndexReader ix, int route, long ordinal) {
        long lo = 0;
        long hi = ix.groups() - 1;
        while (lo < hi) {
            long mid = (lo + hi) >>> 1;
            if (firstOf(ix, route, mid + 1) > ordinal) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }

    /** The first record of a stream at or after group g's start (g = G gives the stream's size). */
    private long firstOf(IndexReader ix, int route, long g) {
        if (route >= 0) {
            return ix.route(route).ranks().rank(g);
        }
        long start = Math.min(g * k, ix.virtualCount());
        return start - ix.route(IndexReader.MAIN).ranks().rank(g) - ix.route(IndexReader.SECONDARY).ranks().rank(g);
    }
}

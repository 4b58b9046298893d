package dev.everett.compaction;

import dev.everett.api.IndexedSegment;
import dev.everett.api.KeyRange;
import dev.everett.api.Lookup;
import dev.everett.api.ObjectId;
import dev.everett.api.RunCursors;
import dev.everett.api.SeekCursor;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One installed version: its levels and the open segments (and whole-run chain) that read them.
 * References are counted by the tree (the tree's own, each {@link TreeVersion}, each cursor); the
 * last release closes the segments and tells the tree, which deletes files no version holds.
 */
final class VersionCore {
    final Levels levels;
    /** Open handles by level, in each level's order. */
    private final List<List<SegmentHandle>> handles;
    private final WholeRunChain chain;
    /**
     * What a point lookup reads, resolved once here rather than on every {@link #get}: level 0
     * (newest first, ranges that may overlap; null when empty) and each non-empty level below
     * it (key-disjoint), top first.
     */
    private final KeyRanges overlapping;
    private final KeyRanges[] disjoint;
    /** Guarded by the tree's lock. */
    int references;

    private VersionCore(Levels levels, List<List<SegmentHandle>> handles, WholeRunChain chain) {
        this.levels = levels;
        this.handles = handles;
        this.chain = chain;
        this.overlapping = handles.isEmpty() || handles.get(0).isEmpty() ? null : new KeyRanges(handles.get(0));
        List<KeyRanges> below = new ArrayList<>();
        for (List<SegmentHandle> level : handles.subList(Math.min(1, handles.size()), handles.size())) {
            if (!level.isEmpty()) {
                below.add(new KeyRanges(level));
            }
        }
        this.disjoint = below.toArray(KeyRanges[]::new);
    }

    /**
     * The segments of one level with their key ranges, in the level's order, as arrays: a lookup
     * compares the query with the keys straight, without a list, a handle and its metadata in
     * between. The segment readers check on every call that they are still open, as they did
     * when reached through their handles.
     */
    private static final class KeyRanges {
        final byte[][] smallest;
        final byte[][] largest;
        final IndexedSegment[] segments;

        KeyRanges(List<SegmentHandle> level) {
            int n = level.size();
            smallest = new byte[n][];
            largest = new byte[n][];
            segments = new IndexedSegment[n];
            for (int i = 0; i < n; i++) {
                SegmentHandle h = level.get(i);
                smallest[i] = h.meta().smallestKeyView();
                largest[i] = h.meta().largestKeyView();
                segments[i] = h.segment();
            }
        }

        /**
         * Level 0 (ranges may overlap, newest first): the first answer that is not ABSENT from
         * a segment whose range holds {@code key}.
         */
        Lookup getOverlapping(byte[] key) {
            for (int i = 0; i < segments.length; i++) {
                if (Arrays.compareUnsigned(key, smallest[i]) >= 0 && Arrays.compareUnsigned(key, largest[i]) <= 0) {
                    Lookup r = segments[i].get(key);
                    if (r.status() != Lookup.Status.ABSENT) {
                        return r;
                    }
                }
            }
            return Lookup.absent();
        }

        /** A key-disjoint level: the answer of the one segment whose range may hold {@code key}. */
        Lookup getDisjoint(byte[] key) {
            int lo = 0;
            int hi = largest.length;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (Arrays.compareUnsigned(largest[mid], key) < 0) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            if (lo == largest.length || Arrays.compareUnsigned(smallest[lo], key) > 0) {
                return Lookup.absent();
            }
            return segments[lo].get(key);
        }
    }

    /**
     * Opens every segment of {@code levels} (sharing those already open), each read with the key
     * filters of its level, and its chain.
     */
    static VersionCore open(Levels levels, SegmentFiles segments, java.nio.file.Path chains,
                            java.util.function.IntFunction<dev.everett.api.FilterPolicy> filtersAt) throws IOException {
        List<List<SegmentHandle>> handles = new ArrayList<>();
        WholeRunChain chain = null;
        boolean ok = false;
        try {
            for (int n = 0; n < levels.levels().size(); n++) {
                List<SegmentHandle> hs = new ArrayList<>();
                handles.add(hs);
                for (SegmentMeta m : levels.level(n)) {
                    hs.add(segments.open(m, filtersAt.apply(n)));
                }
            }
            if (levels.chain() != null) {
                chain = WholeRunChain.open(segments, chains, levels.chain());
            }
            ok = true;
            return new VersionCore(levels, handles, chain);
        } finally {
            if (!ok) {
                closeAll(handles, chain);
            }
        }
    }

    private static void closeAll(List<List<SegmentHandle>> handles, WholeRunChain chain) {
        for (List<SegmentHandle> hs : handles) {
            for (SegmentHandle h : hs) {
                h.close();
            }
        }
        if (chain != null) {
            chain.close();
        }
    }

    /** The whole-run chain, or null (a partitioned or empty version). */
    WholeRunChain chain() {
        return chain;
    }

    /** Closes every segment and the chain (when the last reference goes). */
    void close() {
        closeAll(handles, chain);
    }

    /** Identities this version keeps alive: its segments and its chain's directory. */
    List<ObjectId> held() {
        List<ObjectId> out = new ArrayList<>(levels.ids());
        if (levels.chain() != null) {
            out.add(levels.chain().id());
        }
        return out;
    }

    Lookup get(byte[] key) {
        if (chain != null) {
            return chain.get(key);
        }
        if (overlapping != null) {
            Lookup r = overlapping.getOverlapping(key);
            if (r.status() != Lookup.Status.ABSENT) {
                return r;
            }
        }
        for (KeyRanges level : disjoint) {
            Lookup r = level.getDisjoint(key);
            if (r.status() != Lookup.Status.ABSENT) {
                return r;
            }
        }
        return Lookup.absent();
    }

    /**
     * The only partitioned level of a version with no level 0 and one non-empty level below (a
     * fully compacted store), or null: a cursor over it needs no merge.
     */
    List<SegmentHandle> loneLevel() {
        if (levels.layout() == Layout.WHOLE_RUN || handles.isEmpty() || !handles.get(0).isEmpty()) {
            return null;
        }
        List<SegmentHandle> lone = null;
        for (int n = 1; n < handles.size(); n++) {
            if (!handles.get(n).isEmpty()) {
                if (lone != null) {
                    return null;
                }
                lone = handles.get(n);
            }
        }
        return lone;
    }

    /**
     * Child cursors newest first: each level-0 segment, then each partitioned level below as one;
     * or, for a whole-run version, every run of its chain, positioned together by one descent.
     */
    RunCursors children(KeyRange range) {
        if (levels.layout() == Layout.WHOLE_RUN) {
            if (chain == null) {
                return new SeparateCursors(new SeekCursor[0]);
            }
            return chain.chain().runCursors(chain.state().catalogs().size(), range);
        }
        List<SeekCursor> out = new ArrayList<>();
        try {
            for (int n = 0; n < handles.size(); n++) {
                List<SegmentHandle> level = handles.get(n);
                if (n == 0) {
                    for (SegmentHandle h : level) {
                        out.add(h.segment().cursor(range));
                    }
                } else if (!level.isEmpty()) {
                    out.add(new LevelCursor(level, range));
                }
            }
        } catch (RuntimeException e) {
            out.forEach(SeekCursor::close);
            throw e;
        }
        return new SeparateCursors(out.toArray(SeekCursor[]::new));
    }

    long levelBytes(int n) {
        long sum = 0;
        for (SegmentMeta m : levels.level(n)) {
            sum += m.fileBytes();
        }
        return sum;
    }

    /** Per-segment open state for tests: how many handles this version holds. */
    Map<ObjectId, SegmentHandle> handlesById() {
        Map<ObjectId, SegmentHandle> out = new HashMap<>();
        for (List<SegmentHandle> hs : handles) {
            for (SegmentHandle h : hs) {
                out.put(h.meta().id(), h);
            }
        }
        return out;
    }
}

package dev.everett.compaction;

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
    /** Guarded by the tree's lock. */
    int references;

    private VersionCore(Levels levels, List<List<SegmentHandle>> handles, WholeRunChain chain) {
        this.levels = levels;
        this.handles = handles;
        this.chain = chain;
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
        List<SegmentHandle> l0 = handles.isEmpty() ? List.of() : handles.get(0);
        for (SegmentHandle h : l0) {
            if (h.meta().mayContain(key)) {
                Lookup r = h.segment().get(key);
                if (r.status() != Lookup.Status.ABSENT) {
                    return r;
                }
            }
        }
        for (int n = 1; n < handles.size(); n++) {
            SegmentHandle h = candidate(handles.get(n), key);
            if (h != null) {
                Lookup r = h.segment().get(key);
                if (r.status() != Lookup.Status.ABSENT) {
                    return r;
                }
            }
        }
        return Lookup.absent();
    }

    /** The one segment of a key-disjoint level whose range may hold {@code key}, or null. */
    private static SegmentHandle candidate(List<SegmentHandle> level, byte[] key) {
        int lo = 0;
        int hi = level.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (Arrays.compareUnsigned(level.get(mid).meta().largestKeyView(), key) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        if (lo == level.size() || Arrays.compareUnsigned(level.get(lo).meta().smallestKeyView(), key) > 0) {
            return null;
        }
        return level.get(lo);
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

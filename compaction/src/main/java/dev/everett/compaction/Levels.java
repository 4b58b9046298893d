package dev.everett.compaction;

import dev.everett.api.ObjectId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The segments of a version by level, immutable, with the rules an edit must keep: every
 * segment once; for partitioned levels below 0, key-disjoint segments in key order; for whole-run
 * levels, one run per level and merges of adjacent runs only.
 */
record Levels(Layout layout, List<List<SegmentMeta>> levels, byte[] hostState, long number, WholeRunChain.State chain) {
    Levels {
        List<List<SegmentMeta>> copy = new ArrayList<>();
        for (List<SegmentMeta> l : levels) {
            copy.add(List.copyOf(l));
        }
        // Partitioned trees drop trailing empty levels, so equal contents give equal shapes.
        while (layout == Layout.PARTITIONED && !copy.isEmpty() && copy.getLast().isEmpty()) {
            copy.removeLast();
        }
        levels = List.copyOf(copy);
        hostState = hostState == null ? new byte[0] : hostState;
    }

    static Levels empty(Layout layout) {
        return new Levels(layout, List.of(), new byte[0], 0, null);
    }

    List<SegmentMeta> level(int n) {
        return n < levels.size() ? levels.get(n) : List.of();
    }

    /** Every segment's identity. */
    Set<ObjectId> ids() {
        Set<ObjectId> out = new HashSet<>();
        for (List<SegmentMeta> l : levels) {
            for (SegmentMeta m : l) {
                out.add(m.id());
            }
        }
        return out;
    }

    /** Where segment {@code id} lies: {level, position}, or null. */
    int[] find(ObjectId id) {
        for (int n = 0; n < levels.size(); n++) {
            List<SegmentMeta> l = levels.get(n);
            for (int i = 0; i < l.size(); i++) {
                if (l.get(i).id().equals(id)) {
                    return new int[] {n, i};
                }
            }
        }
        return null;
    }

    /** The version after {@code e}, or IllegalArgumentException naming the rule it breaks. */
    Levels apply(Edit e) {
        if (e.snapshot()) {
            if (e.layout() != layout) {
                throw new IllegalArgumentException("snapshot of a " + e.layout() + " tree applied to a " + layout + " tree");
            }
            return empty(layout).applyChanges(e);
        }
        return applyChanges(e);
    }

    private Levels applyChanges(Edit e) {
        if (e.number() <= number && number != 0) {
            throw new IllegalArgumentException("edit number " + e.number() + " does not follow " + number);
        }
        List<List<SegmentMeta>> next = new ArrayList<>();
        for (List<SegmentMeta> l : levels) {
            next.add(new ArrayList<>(l));
        }
        Set<ObjectId> present = ids();
        Set<ObjectId> removed = new HashSet<>();
        int firstRemovedRun = Integer.MAX_VALUE;
        for (ObjectId id : e.removed()) {
            int[] at = find(id);
            if (at == null || !removed.add(id)) {
                throw new IllegalArgumentException("edit removes segment " + id + ", which the version does not hold");
            }
            firstRemovedRun = Math.min(firstRemovedRun, at[0]);
        }
        if (layout == Layout.WHOLE_RUN && !removed.isEmpty()) {
            for (int n = firstRemovedRun; n < firstRemovedRun + removed.size(); n++) {
                if (n >= levels.size() || !removed.contains(levels.get(n).getFirst().id())) {
                    throw new IllegalArgumentException("a whole-run edit removes runs that are not adjacent");
                }
            }
        }
        for (List<SegmentMeta> l : next) {
            l.removeIf(m -> removed.contains(m.id()));
        }
        if (layout == Layout.WHOLE_RUN) {
            next.removeIf(List::isEmpty);
        }
        for (Edit.Added a : e.added()) {
            SegmentMeta m = a.meta();
            if ((present.contains(m.id()) && !removed.contains(m.id())) || find(next, m.id())) {
                throw new IllegalArgumentException("edit adds segment " + m.id() + " twice");
            }
            if (layout == Layout.WHOLE_RUN) {
                if (a.level() > next.size()) {
                    throw new IllegalArgumentException("edit adds a run at level " + a.level() + " of " + next.size() + " runs");
                }
                next.add(a.level(), new ArrayList<>(List.of(m)));
                continue;
            }
            while (next.size() <= a.level()) {
                next.add(new ArrayList<>());
            }
            List<SegmentMeta> l = next.get(a.level());
            if (a.level() == 0) {
                l.addFirst(m);
                continue;
            }
            int i = 0;
            while (i < l.size() && Arrays.compareUnsigned(l.get(i).smallestKeyView(), m.smallestKeyView()) < 0) {
                i++;
            }
            if ((i > 0 && l.get(i - 1).overlaps(m)) || (i < l.size() && l.get(i).overlaps(m))) {
                throw new IllegalArgumentException("segment " + m.id() + " overlaps another at level " + a.level());
            }
            l.add(i, m);
        }
        WholeRunChain.State chain = e.chain() != null ? e.chain() : (e.removed().isEmpty() && e.added().isEmpty() ? this.chain : null);
        if (layout == Layout.WHOLE_RUN && !next.isEmpty() && chain == null) {
            throw new IllegalArgumentException("a whole-run edit that changes runs must name their chain");
        }
        if (layout == Layout.WHOLE_RUN && chain != null && chain.catalogs().size() != next.size()) {
            throw new IllegalArgumentException("chain indexes " + chain.catalogs().size() + " runs but the version has " + next.size());
        }
        return new Levels(layout, next, e.hostState() != null ? e.hostState() : hostState, e.number(), next.isEmpty() ? null : chain);
    }

    private static boolean find(List<List<SegmentMeta>> levels, ObjectId id) {
        for (List<SegmentMeta> l : levels) {
            for (SegmentMeta m : l) {
                if (m.id().equals(id)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The snapshot edit that recreates this version. */
    Edit snapshot(long editNumber) {
        List<Edit.Added> added = new ArrayList<>();
        for (int n = levels.size() - 1; n >= 0; n--) {
            List<SegmentMeta> l = levels.get(n);
            if (layout == Layout.WHOLE_RUN) {
                added.add(new Edit.Added(0, l.getFirst())); // bottom run first, each pushed on top
            } else if (n == 0) {
                for (SegmentMeta m : l.reversed()) {
                    added.add(new Edit.Added(0, m)); // oldest first, each put in front
                }
            } else {
                for (SegmentMeta m : l) {
                    added.add(new Edit.Added(n, m));
                }
            }
        }
        return new Edit(editNumber, true, layout, hostState, List.of(), added, chain);
    }
}

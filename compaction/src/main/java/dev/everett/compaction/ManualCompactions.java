package dev.everett.compaction;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Plans of the compactions a host asks for by hand, as RocksDB's {@code compactRange(begin, end)}
 * with the bottommost level forced: the segments holding keys of a range, and those that must move
 * with them, merged into the bottom level with tombstones (and every value they hide) dropped.
 * The plan goes to {@link LsmTree#compact(CompactionPlan)} like a picker's.
 */
public final class ManualCompactions {
    private ManualCompactions() {
    }

    /** Every segment into the bottom level ({@link #range} over every key). */
    public static Optional<CompactionPlan> full(Version v) {
        return range(v, null, null);
    }

    /**
     * The compaction of the keys in {@code [begin, end]} (both inclusive; null: unbounded on that
     * side), or empty if no segment holds a key of the range (an inverted range holds none), or the
     * segments holding them already are the bottom level's, without tombstones.
     *
     * <p>Whole-run levels each span every key, so a run holding a key of the range means every run.
     * Partitioned: the segments overlapping the range on any level, then, until nothing changes,
     * every segment overlapping the key range of all those taken (RocksDB widens a manual
     * compaction the same way, level by level). So no level-0 segment older than one taken and
     * overlapping it stays behind, and the output, at the deepest non-empty level (at least 1),
     * overlaps none of that level's segments left in place. A segment left above the output shares
     * no key with the segments taken from its level and above, and is newer than those taken from
     * below: reads answer as before, and the tombstones dropped at the bottom hide nothing older.
     */
    public static Optional<CompactionPlan> range(Version v, byte[] begin, byte[] end) {
        if (begin != null && end != null && Arrays.compareUnsigned(begin, end) > 0) {
            return Optional.empty();
        }
        int deepest = -1;
        for (int level = v.levelCount() - 1; level >= 0 && deepest < 0; level--) {
            if (!v.level(level).isEmpty()) {
                deepest = level;
            }
        }
        if (deepest < 0) {
            return Optional.empty();
        }
        boolean partitioned = v.layout() == Layout.PARTITIONED;
        int output = partitioned ? Math.max(1, deepest) : 0;
        Set<SegmentMeta> taken = new LinkedHashSet<>();
        byte[] lo = begin; // the caller's range widened by every segment taken (each overlaps it)
        byte[] hi = end;
        for (boolean grew = true; grew; ) { // until no segment overlaps the widened range untaken
            grew = false;
            for (int level = 0; level <= deepest; level++) {
                for (SegmentMeta s : v.level(level)) {
                    if (!taken.contains(s) && overlaps(s, lo, hi)) {
                        if (!partitioned) {
                            return plan(v, allSegments(v), output); // runs span every key: all of them
                        }
                        taken.add(s);
                        grew = true;
                        lo = lo != null && Arrays.compareUnsigned(s.smallestKeyView(), lo) < 0 ? s.smallestKeyView() : lo;
                        hi = hi != null && Arrays.compareUnsigned(s.largestKeyView(), hi) > 0 ? s.largestKeyView() : hi;
                    }
                }
            }
        }
        if (taken.isEmpty()) {
            return Optional.empty(); // no segment holds a key of the range
        }
        List<SegmentMeta> inputs = new ArrayList<>();
        for (int level = deepest; level >= 0; level--) { // oldest first: deeper levels, then level 0 oldest to newest
            List<SegmentMeta> segments = level == 0 ? v.level(0).reversed() : v.level(level);
            for (SegmentMeta s : segments) {
                if (taken.contains(s)) {
                    inputs.add(s);
                }
            }
        }
        return plan(v, inputs, output);
    }

    private static List<SegmentMeta> allSegments(Version v) {
        List<SegmentMeta> inputs = new ArrayList<>();
        for (int level = v.levelCount() - 1; level >= 0; level--) { // whole-run: deepest run oldest
            inputs.addAll(v.level(level));
        }
        return inputs;
    }

    /** The plan of {@code inputs} (oldest first) into {@code output}; empty if they already lie clean at the bottom. */
    private static Optional<CompactionPlan> plan(Version v, List<SegmentMeta> inputs, int output) {
        long tombstones = 0;
        boolean allAtOutput = true;
        Set<SegmentMeta> atOutput = v.layout() == Layout.PARTITIONED && output > 0 ? new HashSet<>(v.level(output)) : Set.of();
        for (SegmentMeta s : inputs) {
            tombstones += s.tombstones();
            allAtOutput &= v.layout() == Layout.PARTITIONED ? atOutput.contains(s) : inputs.size() == 1;
        }
        if (allAtOutput && tombstones == 0) {
            return Optional.empty();
        }
        return Optional.of(new CompactionPlan(inputs, output, true, 1, "manual compaction (compactRange)"));
    }

    /** True if {@code s} holds keys in {@code [lo, hi]} (null: unbounded on that side). */
    private static boolean overlaps(SegmentMeta s, byte[] lo, byte[] hi) {
        return (lo == null || Arrays.compareUnsigned(s.largestKeyView(), lo) >= 0)
                && (hi == null || Arrays.compareUnsigned(s.smallestKeyView(), hi) <= 0);
    }
}

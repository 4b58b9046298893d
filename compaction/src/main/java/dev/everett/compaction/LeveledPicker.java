package dev.everett.compaction;

import dev.everett.api.ObjectId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * RocksDB's leveled compaction for {@link Layout#PARTITIONED} trees. Each level gets a score, as
 * RocksDB computes it ({@code VersionStorageInfo::ComputeCompactionScore} without the dynamic
 * level sizes): level 0 counts its segments against {@code level0Trigger}; level {@code n ≥ 1}
 * (not the last) divides its bytes by its target, {@code baseLevelBytes · sizeRatio^(n−1)}. Segments
 * already being compacted do not count. The level with the highest score ≥ 1 is compacted:
 * level 0 as a whole with the level-1 segments it overlaps; a level below by the one segment whose
 * overlap with the next level is smallest relative to its own size (RocksDB's default
 * {@code kMinOverlappingRatio}), with the segments it overlaps there. Tombstones are dropped when
 * no level below the output holds keys in the inputs' range.
 *
 * @param levels         levels in the tree (2 or more; the last holds the oldest data)
 * @param level0Trigger  level-0 segments that make level 0 due (RocksDB's {@code level0_file_num_compaction_trigger}, default 4)
 * @param baseLevelBytes level 1's target bytes ({@code max_bytes_for_level_base}, default 256 MiB)
 * @param sizeRatio      each level's target over the one above ({@code max_bytes_for_level_multiplier}, default 10)
 */
public record LeveledPicker(int levels, int level0Trigger, long baseLevelBytes, double sizeRatio) implements CompactionPicker {
    public LeveledPicker {
        if (levels < 2) {
            throw new IllegalArgumentException("a leveled tree needs at least 2 levels, got " + levels);
        }
        if (level0Trigger < 1) {
            throw new IllegalArgumentException("level-0 trigger must be at least 1, got " + level0Trigger);
        }
        if (baseLevelBytes < 1) {
            throw new IllegalArgumentException("base level bytes must be at least 1, got " + baseLevelBytes);
        }
        if (!(sizeRatio > 1)) {
            throw new IllegalArgumentException("size ratio must exceed 1, got " + sizeRatio);
        }
    }

    /** RocksDB's defaults over 7 levels: trigger 4, 256 MiB base, ratio 10. */
    public static LeveledPicker defaults() {
        return new LeveledPicker(7, 4, 256L << 20, 10);
    }

    @Override
    public Layout layout() {
        return Layout.PARTITIONED;
    }

    /** The target bytes of level {@code n ≥ 1}. */
    public double targetBytes(int n) {
        return baseLevelBytes * Math.pow(sizeRatio, n - 1);
    }

    /** Every level's score (the last level's is 0: nothing lies below it). */
    public double[] scores(Version v, Set<ObjectId> compacting) {
        double[] s = new double[levels];
        for (int n = 0; n < levels - 1 && n < v.levelCount(); n++) {
            long count = 0;
            long bytes = 0;
            for (SegmentMeta m : v.level(n)) {
                if (!compacting.contains(m.id())) {
                    count++;
                    bytes += m.fileBytes();
                }
            }
            s[n] = n == 0 ? (double) count / level0Trigger : bytes / targetBytes(n);
        }
        return s;
    }

    @Override
    public Optional<CompactionPlan> pick(Version v, Set<ObjectId> compacting) {
        if (v.layout() != Layout.PARTITIONED) {
            throw new IllegalArgumentException("the leveled picker plans partitioned trees, not " + v.layout());
        }
        double[] scores = scores(v, compacting);
        Integer[] order = new Integer[scores.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Double.compare(scores[b], scores[a]));
        for (int n : order) {
            if (scores[n] < 1) {
                break;
            }
            Optional<CompactionPlan> p = n == 0 ? pickLevel0(v, compacting, scores[0]) : pickLevel(v, n, compacting, scores[n]);
            if (p.isPresent()) {
                return p;
            }
        }
        return Optional.empty();
    }

    private Optional<CompactionPlan> pickLevel0(Version v, Set<ObjectId> compacting, double score) {
        List<SegmentMeta> l0 = v.level(0);
        for (SegmentMeta m : l0) {
            if (compacting.contains(m.id())) {
                return Optional.empty(); // one level-0 compaction at a time keeps level 0's age order simple
            }
        }
        byte[][] range = range(l0);
        List<SegmentMeta> below = overlapping(v.level(1), range);
        if (any(below, compacting)) {
            return Optional.empty();
        }
        List<SegmentMeta> inputs = new ArrayList<>(below);
        inputs.addAll(l0.reversed()); // level 0 is newest first; inputs go oldest first
        return Optional.of(new CompactionPlan(inputs, 1, bottommost(v, 1, range(inputs)), score,
                "level 0 holds " + l0.size() + " segments (trigger " + level0Trigger + ")"));
    }

    private Optional<CompactionPlan> pickLevel(Version v, int n, Set<ObjectId> compacting, double score) {
        SegmentMeta best = null;
        List<SegmentMeta> bestBelow = null;
        double bestRatio = Double.MAX_VALUE;
        for (SegmentMeta m : v.level(n)) {
            if (compacting.contains(m.id())) {
                continue;
            }
            List<SegmentMeta> below = overlapping(v.level(n + 1), new byte[][] {m.smallestKeyView(), m.largestKeyView()});
            if (any(below, compacting)) {
                continue;
            }
            long overlap = 0;
            for (SegmentMeta b : below) {
                overlap += b.fileBytes();
            }
            double ratio = (double) overlap / Math.max(1, m.fileBytes());
            if (ratio < bestRatio) {
                bestRatio = ratio;
                best = m;
                bestBelow = below;
            }
        }
        if (best == null) {
            return Optional.empty();
        }
        List<SegmentMeta> inputs = new ArrayList<>(bestBelow);
        inputs.add(best);
        return Optional.of(new CompactionPlan(inputs, n + 1, bottommost(v, n + 1, range(inputs)), score,
                String.format("level %d holds %d bytes over a target of %.0f", n, v.levelBytes(n), targetBytes(n))));
    }

    /** True if no level below {@code output} holds a key in {@code range}. */
    static boolean bottommost(Version v, int output, byte[][] range) {
        return bottommost(v::level, v.levelCount(), output, range);
    }

    /** As {@link #bottommost(Version, int, byte[][])}, over levels given by {@code level}. */
    static boolean bottommost(java.util.function.IntFunction<List<SegmentMeta>> level, int levelCount, int output, byte[][] range) {
        for (int n = output + 1; n < levelCount; n++) {
            if (!overlapping(level.apply(n), range).isEmpty()) {
                return false;
            }
        }
        return true;
    }

    static byte[][] range(List<SegmentMeta> segments) {
        byte[] lo = null;
        byte[] hi = null;
        for (SegmentMeta m : segments) {
            if (lo == null || Arrays.compareUnsigned(m.smallestKeyView(), lo) < 0) {
                lo = m.smallestKeyView();
            }
            if (hi == null || Arrays.compareUnsigned(m.largestKeyView(), hi) > 0) {
                hi = m.largestKeyView();
            }
        }
        return new byte[][] {lo, hi};
    }

    static List<SegmentMeta> overlapping(List<SegmentMeta> level, byte[][] range) {
        List<SegmentMeta> out = new ArrayList<>();
        if (range[0] == null) {
            return out;
        }
        for (SegmentMeta m : level) {
            if (Arrays.compareUnsigned(m.smallestKeyView(), range[1]) <= 0 && Arrays.compareUnsigned(range[0], m.largestKeyView()) <= 0) {
                out.add(m);
            }
        }
        return out;
    }

    private static boolean any(List<SegmentMeta> segments, Set<ObjectId> ids) {
        for (SegmentMeta m : segments) {
            if (ids.contains(m.id())) {
                return true;
            }
        }
        return false;
    }
}

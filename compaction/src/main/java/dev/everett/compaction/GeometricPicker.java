package dev.everett.compaction;

import dev.everett.api.ObjectId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Keeps the runs of a {@link Layout#WHOLE_RUN} tree growing geometrically from the top: reading
 * down from the newest run, the first run that is smaller than {@code sizeRatio} times all the runs
 * above it together is merged with all of them into one run. So runs never need their indexes
 * rebuilt from below: every merge this picker plans includes the top run. Sizes are file bytes.
 * Tombstones are dropped when the merge includes the oldest run.
 *
 * @param sizeRatio how much larger each run must be than everything above it (2 or more is usual)
 */
public record GeometricPicker(double sizeRatio) implements CompactionPicker {
    public GeometricPicker {
        if (!(sizeRatio >= 1)) {
            throw new IllegalArgumentException("size ratio must be at least 1, got " + sizeRatio);
        }
    }

    @Override
    public Layout layout() {
        return Layout.WHOLE_RUN;
    }

    @Override
    public Optional<CompactionPlan> pick(Version v, Set<ObjectId> compacting) {
        if (v.layout() != Layout.WHOLE_RUN) {
            throw new IllegalArgumentException("the geometric picker plans whole-run trees, not " + v.layout());
        }
        int runs = v.levelCount();
        long above = 0;
        for (int j = 0; j < runs; j++) {
            SegmentMeta run = v.level(j).getFirst();
            if (compacting.contains(run.id())) {
                return Optional.empty();
            }
            long size = run.fileBytes();
            if (j > 0 && size < sizeRatio * above) {
                List<SegmentMeta> inputs = new ArrayList<>();
                for (int i = j; i >= 0; i--) {
                    inputs.add(v.level(i).getFirst());
                }
                return Optional.of(new CompactionPlan(inputs, 0, j == runs - 1, sizeRatio * above / Math.max(1, size),
                        "run " + j + " (" + size + " bytes) is under " + sizeRatio + "x the " + above + " bytes above it"));
            }
            above += size;
        }
        return Optional.empty();
    }
}

package dev.everett.compaction;

import java.util.List;
import java.util.Objects;

/**
 * What a picker chose to compact.
 *
 * @param inputs         the input segments, oldest first (on equal keys, later inputs are newer)
 * @param outputLevel    the level the outputs go to; for {@link Layout#WHOLE_RUN} the level of the
 *                       newest input, whose place the merged run takes
 * @param dropTombstones the tombstone decision: true only if the output is bottommost for its key
 *                       range (no data older than the inputs exists for those keys elsewhere)
 * @param score          how urgent the picker found it (≥ 1 means over its target)
 * @param reason         a short human-readable reason
 */
public record CompactionPlan(List<SegmentMeta> inputs, int outputLevel, boolean dropTombstones, double score, String reason) {
    public CompactionPlan {
        inputs = List.copyOf(inputs);
        if (inputs.isEmpty()) {
            throw new IllegalArgumentException("a compaction needs at least one input");
        }
        if (outputLevel < 0) {
            throw new IllegalArgumentException("output level must be 0 or more, got " + outputLevel);
        }
        Objects.requireNonNull(reason, "reason");
    }

    /** The same plan with another tombstone decision (a host may always choose to keep them). */
    public CompactionPlan withDropTombstones(boolean drop) {
        return new CompactionPlan(inputs, outputLevel, drop, score, reason);
    }
}

package dev.everett.compaction;

import dev.everett.api.ObjectId;
import java.util.Optional;
import java.util.Set;

/**
 * Chooses the next compaction for a version. A host may supply its own; the tree checks every
 * plan it is given (inputs in the version, the layout's shape kept) before running it.
 * {@link LeveledPicker} suits {@link Layout#PARTITIONED}, {@link GeometricPicker} suits
 * {@link Layout#WHOLE_RUN}.
 */
public interface CompactionPicker {
    /**
     * The most urgent compaction, or empty if none is due.
     *
     * @param version    the current version
     * @param compacting segments that running compactions already hold (not to be picked again)
     */
    Optional<CompactionPlan> pick(Version version, Set<ObjectId> compacting);

    /** The layout this picker plans for. */
    Layout layout();
}

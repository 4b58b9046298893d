package dev.everett.api;

import java.util.List;
import java.util.ServiceLoader;

/**
 * The entry point a host uses to merge runs. Implementations are found with
 * {@link ServiceLoader}; {@code everett-merge} provides the encoded-cursor native merger, which
 * merges records as the literal spans of their mapped files without building keys.
 */
public interface MergeEngine {
    /**
     * A merge of {@code runs}, given oldest first: on equal keys, later runs are newer. The runs
     * are readers of one policy, opened by the {@link SegmentEngine} (directly or through an
     * {@link ObjectStore}); the merge reads them and never closes them.
     *
     * @throws IllegalArgumentException if {@code runs} is empty, mixes policies or holds one file twice
     */
    MergeBuilder merge(List<? extends SegmentReader> runs);

    /**
     * Whether this engine's merges can take their inputs' body CRCs as they read them
     * ({@link MergeBuilder#checkInputsAsRead}); a host that relies on that instead of checking
     * its inputs first asks here (false by default: an engine that does not answer cannot).
     */
    default boolean checksInputsAsRead() {
        return false;
    }

    /** The first merge engine on the class or module path. */
    static MergeEngine load() {
        return ServiceLoader.load(MergeEngine.class).findFirst()
                .orElseThrow(() -> new IllegalStateException("no Everett merge engine on the class path (add everett-merge)"));
    }
}

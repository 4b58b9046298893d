package dev.everett.merge;

import dev.everett.api.MergeBuilder;
import dev.everett.api.MergeEngine;
import dev.everett.api.SegmentReader;
import java.util.List;

/** The {@link MergeEngine} this module provides through {@link java.util.ServiceLoader}: the encoded-cursor native merger. */
public final class NativeMergeEngine implements MergeEngine {
    @Override
    public MergeBuilder merge(List<? extends SegmentReader> runs) {
        return NativeMerger.of(runs);
    }

    /** The native merger takes its inputs' CRCs as it reads them when asked ({@link NativeMerger#checkInputsAsRead}). */
    @Override
    public boolean checksInputsAsRead() {
        return true;
    }
}

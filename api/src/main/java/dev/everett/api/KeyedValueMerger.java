package dev.everett.api;

import java.lang.foreign.MemorySegment;

/**
 * A {@link ValueMerger} that also sees the key. The merger then has to rebuild every key it
 * meets (a materialising cursor) instead of working on encoded literals, so prefer the
 * value-only form when the key is not needed.
 */
@FunctionalInterface
public interface KeyedValueMerger {
    MemorySegment merge(MemorySegment key, MemorySegment older, MemorySegment newer);
}

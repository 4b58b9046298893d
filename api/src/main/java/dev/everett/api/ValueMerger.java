package dev.everett.api;

import java.lang.foreign.MemorySegment;

/**
 * Combines the values of one key found in several merge inputs, always called with the older
 * value first. Under the optional grammar {@code null} stands for a tombstone, both as an
 * argument and as a result; under the raw grammar values are never null. Arguments are views
 * of the inputs (or an earlier result) valid only during the call; the result is copied out.
 * Merges may be re-parenthesised, so the function should be associative.
 */
@FunctionalInterface
public interface ValueMerger {
    /** The default: the newer value replaces the older one. */
    ValueMerger NEWER_WINS = (older, newer) -> newer;

    MemorySegment merge(MemorySegment older, MemorySegment newer);
}

package dev.everett.api;

/**
 * One output of a merge, as {@link MergeJob#finishAll()} reports it.
 *
 * @param segment    what was published
 * @param tombstones how many of its records are tombstones
 */
public record MergeOutput(SegmentInfo segment, long tombstones) {
}

package dev.everett.api;

/**
 * Work done by a merge, in one step or in total.
 *
 * @param keys          distinct keys resolved (written, or dropped as tombstones)
 * @param inputRecords  input records consumed
 */
public record MergeProgress(long keys, long inputRecords) {
}

package dev.everett.compaction;

/**
 * How far a compaction has come.
 *
 * @param keys              distinct keys resolved (written or dropped)
 * @param inputRecords      input records consumed
 * @param totalInputRecords records in all inputs (the job is done when every one is consumed)
 * @param outputs           output segments started so far
 */
public record CompactionProgress(long keys, long inputRecords, long totalInputRecords, int outputs) {
    /** The fraction of input records consumed, from 0 to 1. */
    public double fraction() {
        return totalInputRecords == 0 ? 1.0 : (double) inputRecords / totalInputRecords;
    }
}

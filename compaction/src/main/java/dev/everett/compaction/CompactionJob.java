package dev.everett.compaction;

import java.io.IOException;
import java.util.List;

/**
 * One compaction: its inputs merged (k-way, on their encoded records) into new segments split at
 * key boundaries, done in bounded steps. Pausing is not calling {@link #step} for a while.
 *
 * <p>Nothing the job writes is visible until {@link #finish()} returns. If a step fails (a value
 * merger that throws, a corrupt input, an I/O error) the job is poisoned; whether it failed, was
 * {@linkplain #cancel() cancelled} or is simply closed unfinished, {@link #close()} deletes every
 * output it wrote (published or temporary) and the inputs are untouched. One thread drives a job;
 * {@link #cancel()} may come from any thread.
 */
public interface CompactionJob extends AutoCloseable {
    /**
     * Resolves at most {@code budget} distinct keys.
     *
     * @throws java.util.concurrent.CancellationException if the job was cancelled
     * @throws IllegalStateException if the job failed earlier or is finished or closed
     */
    CompactionProgress step(long budget) throws IOException;

    /** True once every input is exhausted: {@link #finish()} may be called. */
    boolean done();

    /** Work done so far. */
    CompactionProgress progress();

    /** Asks the job to stop: the next (or current) step throws {@link java.util.concurrent.CancellationException}. */
    void cancel();

    /** True if {@link #cancel()} was called. */
    boolean cancelled();

    /**
     * Publishes the outputs (each indexed, with its key filter if the store keeps filters) and
     * returns their metadata in key order; an output the merge left empty (every key dropped) is
     * deleted, not returned. A job from {@link LsmTree#compact} also installs the version edit that
     * removes the inputs and adds the outputs, atomically, before it returns. Before {@link #done()}
     * it throws {@link IllegalStateException} and the job stays usable.
     */
    List<SegmentMeta> finish() throws IOException;

    /**
     * Deletes every output of an unfinished job; after {@link #finish()} it does nothing. One
     * exception: a tree job whose manifest append failed after it may have written the edit, and
     * whose rollover failed too, leaves its outputs for the tree's next open, which keeps them if
     * the edit is in the manifest and deletes them if not.
     */
    @Override
    void close() throws IOException;
}

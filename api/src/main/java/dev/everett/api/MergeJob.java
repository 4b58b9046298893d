package dev.everett.api;

import java.io.IOException;
import java.util.List;

/**
 * A merge of sorted runs into one new segment, done in steps so that a host can bound the work
 * it does at a time: pausing is simply not calling {@link #step} for a while; the state stays in
 * memory. Any failure inside a step (malformed or unsorted input, a callback that throws, a
 * value of the wrong width, an I/O error) poisons the job: it refuses every later call and
 * publishes nothing. One thread at a time.
 */
public interface MergeJob extends AutoCloseable {
    /**
     * Resolves at most {@code budget} distinct keys.
     *
     * @return the work this step did; zero keys once every input is exhausted
     * @throws IllegalArgumentException if {@code budget} is below 1 (the job stays usable)
     */
    MergeProgress step(long budget) throws IOException;

    /** True once every input is exhausted (then {@link #finish()} may be called). */
    boolean done();

    /** Work done so far. */
    MergeProgress progress();

    /**
     * Completes and publishes the output. Before {@link #done()} it throws
     * {@link IllegalStateException} and the job stays usable; afterwards the job is finished.
     */
    SegmentInfo finish() throws IOException;

    /**
     * Completes and publishes the last output and returns every output in key order (one for an
     * unsplit merge; for a split merge ({@link MergeBuilder#splitInto}) the ones rolled over so
     * far and the last). Before {@link #done()} it throws {@link IllegalStateException} and the
     * job stays usable; afterwards the job is finished.
     */
    List<MergeOutput> finishAll() throws IOException;

    /**
     * Discards an unfinished output. A split merge that is not finished also deletes the outputs
     * it already published when it rolled over, so a failed or abandoned merge leaves nothing.
     */
    @Override
    void close() throws IOException;
}

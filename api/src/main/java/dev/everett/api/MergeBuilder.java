package dev.everett.api;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Configures one merge of sorted runs into a new native segment, then starts it. Obtained from
 * {@link MergeEngine#merge}; every setter returns this builder.
 *
 * <pre>{@code
 * try (MergeJob job = MergeEngine.load().merge(List.of(older, newer))
 *         .into(store.nativePath(id)).start()) {
 *     while (!job.done()) job.step(4096);
 *     job.finish();
 * }
 * }</pre>
 */
public interface MergeBuilder {
    /**
     * Where the output is published (atomically, by {@link MergeJob#finish()}). Required. Not the
     * file of an input: {@link #start()} refuses that with
     * {@link java.nio.file.FileAlreadyExistsException} naming it, as an object store refuses a publish
     * over an existing object.
     */
    MergeBuilder into(Path file);

    /**
     * Splits the output at key boundaries instead of writing one file: the merge writes to
     * {@code files.next(0)} and, before writing a key once the current output holds about
     * {@code targetBytes} of encoded keys and values (an estimate from the literals and values
     * copied, not the final file size), publishes that output and rolls over to the next path.
     * Every output starts with a full key; no key is built for the split itself. Replaces
     * {@link #into}; finish with {@link MergeJob#finishAll()}.
     *
     * @throws IllegalArgumentException if {@code targetBytes} is below 1
     */
    MergeBuilder splitInto(long targetBytes, OutputFiles files);

    /** The output's common-width rule (default: the policy's). */
    MergeBuilder widthRule(CommonWidthRule rule);

    /** How values of equal keys combine (default {@link ValueMerger#NEWER_WINS}). */
    MergeBuilder values(ValueMerger merger);

    /** A key-aware combination; the merge then rebuilds every key it meets. */
    MergeBuilder values(KeyedValueMerger merger);

    /**
     * Keep tombstones (default) or drop them with the values they hide. Drop only where the output
     * is bottommost for its keys: no older data for them exists outside the inputs.
     */
    MergeBuilder tombstones(TombstonePolicy policy);

    /**
     * Caps tombstone literals: a tombstone keeps at most the prefix its input record(s) kept, so it
     * carries every literal unit its target supplied. The output is then valid but not canonical
     * wherever the cap bites (docs/format.md).
     */
    MergeBuilder capTombstoneLiterals(boolean cap);

    /**
     * Checks each input's body CRC32C as the merge reads it (default off: the inputs' readers
     * check it before their first record, or the host did with {@link SegmentReader#verifyChecksum()}).
     * The CRC is taken just behind the merge's reading position, over bytes it has just read and
     * that are still in the processor's cache, so the check costs the CRC arithmetic instead of a
     * pass over every input before the merge (on the machines measured, a compaction's separate
     * pass took a tenth of its time). Each input's CRC is compared when the merge has read it to
     * its end: the step that does so fails with {@link CorruptSegmentException} naming the file
     * if the input is not what its writer published, and {@link MergeJob#finish()} checks every
     * input again before it publishes the last output. A step that fails part way for a reason
     * damage can cause (a framing error, a value merger refusing a value, an allocation too large
     * for the heap) first completes the checks, and reports a damaged input as its CRC mismatch
     * with that failure suppressed; an input closed or truncated during the merge is reported as
     * such, and an {@link java.io.IOException} (the output's) as it is.
     *
     * <p>Until an input's check has passed, what the merge read from it is framing-checked only:
     * a value merger may be given a value of a damaged input (its result is then discarded with
     * the merge), and outputs a split merge published before the failure are deleted by
     * {@link MergeJob#close()}, as for any merge that does not finish. Hosts whose value merger
     * must only see checked values leave this off.
     *
     * @throws UnsupportedOperationException if {@code check} is true and the engine cannot
     *         (the default; {@link MergeEngine#checksInputsAsRead()} says whether it can)
     */
    default MergeBuilder checkInputsAsRead(boolean check) {
        if (check) {
            throw new UnsupportedOperationException(getClass().getName() + " cannot take its inputs' CRCs as it reads them");
        }
        return this;
    }

    /**
     * Opens the inputs' encoded cursors and the output and reads the first record of each input.
     *
     * @throws IllegalStateException    if no output was set, or an input is closed
     * @throws java.nio.file.FileAlreadyExistsException if the (first) output is the file of an input
     */
    MergeJob start() throws IOException;
}

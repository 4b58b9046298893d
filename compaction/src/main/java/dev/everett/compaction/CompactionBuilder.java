package dev.everett.compaction;

import dev.everett.api.FilterPolicy;
import dev.everett.api.TombstonePolicy;
import dev.everett.api.ValueMerger;
import java.io.IOException;

/** Configures one compaction of segments (given oldest first) into new split segments, then starts it. */
public interface CompactionBuilder {
    /** How values of one key combine, older first ({@link ValueMerger#NEWER_WINS} by default). */
    CompactionBuilder values(ValueMerger merger);

    /**
     * The host's tombstone decision: {@link TombstonePolicy#KEEP} (the default) or
     * {@link TombstonePolicy#DROP}, only where the output is bottommost for its key range (no
     * older data for those keys exists outside the inputs); a dropped tombstone takes every value
     * it hides with it.
     */
    CompactionBuilder tombstones(TombstonePolicy policy);

    /** Roll over to a new output segment at the next key boundary once one holds about this many bytes (default: no split). */
    CompactionBuilder targetFileBytes(long bytes);

    /**
     * The key filters written beside every output (default: the {@link SegmentFiles}' own);
     * {@link FilterPolicy#none()} writes none.
     */
    CompactionBuilder filters(FilterPolicy filters);

    /** Opaque bytes stored in every output's metadata (default none). */
    CompactionBuilder hostBlob(byte[] blob);

    /** The default of {@link #inputsInMemory}: 256 MiB of input natives. */
    long DEFAULT_INPUTS_IN_MEMORY_BYTES = 256L << 20;

    /**
     * May read the inputs whole into memory when their natives hold at most {@code maxBytes}
     * together (default {@link #DEFAULT_INPUTS_IN_MEMORY_BYTES}; 0 never), else reads them through
     * their mappings. A compaction reads every input page once; the first touch of a mapped page
     * costs a page fault, which on some virtual machines costs more than copying the page
     * ({@link dev.everett.api.SegmentEngine#openInMemory}) and on others about half as much. So
     * within this budget the job reads its inputs whichever way this machine does faster: the
     * first compactions of a process with an input of at least 8 MiB time both ways on that input
     * (its checksum pass), and the process keeps the median answer of the first three; until a
     * probe has answered, inputs are copied. Either way the merge reads the same bytes. The copies
     * are released when the job closes. Larger inputs stay mapped, so a job's own memory stays
     * bounded.
     */
    CompactionBuilder inputsInMemory(long maxBytes);

    /** Opens the inputs and the first output. */
    CompactionJob start() throws IOException;
}

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

    /** Opens the inputs and the first output. */
    CompactionJob start() throws IOException;
}

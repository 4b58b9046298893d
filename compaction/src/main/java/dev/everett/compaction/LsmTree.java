package dev.everett.compaction;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import dev.everett.api.ObjectId;
import dev.everett.api.ValueMerger;

/**
 * A host's levels of Everett segments in one directory: flushes add segments, compactions replace
 * them, each change one atomic manifest edit, and readers see immutable {@link Version}s.
 *
 * <p>On disk: {@code <dir>/segments/<id>/} per segment, {@code <dir>/MANIFEST-<n>} (append-only,
 * every edit a checksummed record), {@code <dir>/CURRENT} naming the live manifest. Opening
 * replays the manifest (a torn tail after a crash stops replay at the last complete edit; a damaged
 * record, one failing its check with an intact record after it, fails with
 * {@link CorruptManifestException} naming the file and offset; a {@link RecoveryCheck} may refuse
 * the replayed state before anything is written) and deletes what
 * no edit names: temporary files, unfinished outputs and old manifests. A segment removed by an
 * edit is deleted once no version, cursor or compaction holds it.
 *
 * <pre>{@code
 * try (LsmTree tree = LsmTree.open(dir, TreeOptions.partitioned())) {
 *     tree.flush(SortedEntries.of(memtable.entrySet().iterator()), walPosition);
 *     Optional<CompactionPlan> plan = tree.pickCompaction();
 *     if (plan.isPresent()) {
 *         try (CompactionJob job = tree.compact(plan.get())) {
 *             while (!job.done()) job.step(4096);
 *             job.finish();                        // installs the edit
 *         }
 *     }
 *     try (Version v = tree.current()) {
 *         Lookup hit = v.get(key);
 *     }
 * }
 * }</pre>
 *
 * Safe for concurrent use: edits are serialised; a flush and compactions on disjoint inputs may run
 * at the same time.
 */
public interface LsmTree extends AutoCloseable {
    /** Opens (creating if needed) the tree in {@code dir}. */
    static LsmTree open(Path dir, TreeOptions options) throws IOException {
        return EverettTree.open(dir, options, RecoveryCheck.NONE, false);
    }

    /**
     * Opens (creating if needed) the tree in {@code dir}, letting {@code check} refuse the replayed
     * state before anything is written: a refusal leaves every file as it was.
     */
    static LsmTree open(Path dir, TreeOptions options, RecoveryCheck check) throws IOException {
        return EverettTree.open(dir, options, check, false);
    }

    /**
     * Opens the tree in {@code dir} for reading only, as RocksDB's {@code OpenForReadOnly}:
     * nothing in the directory is created, written, renamed or deleted. A directory without a
     * manifest (missing, or one a crash left before its first manifest) reads as an empty tree, as
     * a read-write open would find it. The manifest is replayed
     * (a torn tail is dropped in memory, not cut off), the segments it names are opened, files no
     * edit names are left for the next read-write open to sweep, and segments are read without
     * their key filters (a missing or stale filter would have to be written; lookups give the same
     * answers without them, only absent keys cost more). {@link #flush}, {@link #recordHostState}
     * and {@link #compact} throw {@link UnsupportedOperationException}; {@link #pickCompaction()}
     * finds nothing. {@code check} may refuse the replayed state, as for {@link #open}.
     *
     * @throws java.nio.file.NoSuchFileException if a whole-run tree's chain is missing (a
     *         read-write open rebuilds it)
     */
    static LsmTree openReadOnly(Path dir, TreeOptions options, RecoveryCheck check) throws IOException {
        return EverettTree.open(dir, options, check, true);
    }

    /** True if opened with {@link #openReadOnly}. */
    boolean readOnly();

    Path directory();

    TreeOptions options();

    /** A reference to the current version; close it when done. */
    Version current();

    /**
     * Writes a sorted source (a memtable) as new segments (partitioned: split at the target file
     * size into level 0; whole-run: one new run on top) and installs them with one edit that also
     * records {@code hostState} (the host's own position, for example its write-ahead log number;
     * null keeps the previous state). Tombstones are kept. An empty source still records the host
     * state. On failure nothing is installed and every new file is deleted.
     *
     * @return the segments added
     */
    List<SegmentMeta> flush(SortedEntries entries, byte[] hostState) throws IOException;

    /** Records {@code hostState} in an edit of its own. */
    void recordHostState(byte[] hostState) throws IOException;

    /** What the configured picker chooses for the current version, skipping segments being compacted. */
    Optional<CompactionPlan> pickCompaction();

    /** Segments held by running compactions. */
    Set<ObjectId> compacting();

    /** A compaction of {@code plan} with the tree's value merger; {@link CompactionJob#finish()} installs its edit. */
    default CompactionJob compact(CompactionPlan plan) throws IOException {
        return compact(plan, options().values());
    }

    /**
     * A compaction of {@code plan}; {@link CompactionJob#finish()} installs its edit.
     *
     * @throws IllegalArgumentException if the plan's inputs are not in the current version, are
     *         already being compacted, or would break the layout (partitioned: outputs overlapping
     *         segments of the output level that are not inputs; whole-run: inputs that are not
     *         adjacent runs)
     */
    CompactionJob compact(CompactionPlan plan, ValueMerger values) throws IOException;

    /**
     * Segments whose files exist: those of the current version and those an older version, a
     * cursor or a compaction still holds (deleted as soon as the last holder lets go).
     */
    int liveSegmentCount();

    /** Closes the tree; versions and cursors still open then throw on use. */
    @Override
    void close() throws IOException;
}

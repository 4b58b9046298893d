package dev.everett.compaction;

import dev.everett.api.ObjectId;
import dev.everett.api.ObjectStoreOptions;
import dev.everett.api.TemporaryFiles;
import dev.everett.api.TombstonePolicy;
import dev.everett.api.ValueMerger;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The {@link LsmTree}: a manifest, the current version and the segments under one directory.
 * Edits are serialised under this object's lock; building outputs (flushes, merges, indexes)
 * happens outside it.
 */
final class EverettTree implements LsmTree {
    private static final System.Logger LOG = System.getLogger(EverettTree.class.getName());
    static final String SEGMENTS = "segments";
    static final String CHAINS = "chains";

    private final Path dir;
    private final TreeOptions options;
    private final StorageFiles files;
    private final SegmentFiles segments;
    private final Path chains;
    /** Opened with {@link LsmTree#openReadOnly}: nothing is written. */
    private final boolean readOnly;
    private Manifest manifest;
    private VersionCore current;
    /** Versions alive (current or referenced) holding each segment or chain directory. */
    private final Map<ObjectId, Integer> holders = new HashMap<>();
    private final Set<ObjectId> compacting = new HashSet<>();
    /** Versions not yet released (closed with the tree), and the chain directories among {@link #holders}. */
    private final Set<VersionCore> live = new HashSet<>();
    /**
     * Segments (not chains) that some live version holds, kept with {@link #holders}: read without
     * the tree's monitor, which an edit holds while it appends to the manifest, so that a store's
     * statistics do not wait for the append.
     */
    private volatile int liveSegments;
    private final Set<ObjectId> chainIds = new HashSet<>();
    /** Deletions that failed (an I/O error), retried after the next edit and on open. */
    private final Set<ObjectId> pendingDeletes = new HashSet<>();
    private boolean closed;
    /** Set when a manifest append failed and the rollover after it too: no further edits. */
    private IOException broken;

    private EverettTree(Path dir, TreeOptions options, StorageFiles files, SegmentFiles segments, boolean readOnly) {
        this.dir = dir;
        this.options = options;
        this.files = files;
        this.segments = segments;
        this.chains = dir.resolve(CHAINS);
        this.readOnly = readOnly;
    }

    /**
     * Opens the tree in {@code dir}. Read-only, it writes nothing: a directory without a manifest
     * is an empty tree (not made on disk), the manifest is replayed but not rolled over, files no edit names are left where
     * they are, segment stores are opened read-only (a key filter missing or stale is not rebuilt:
     * that segment is read without filters), and a lost whole-run chain is refused instead of
     * rebuilt.
     */
    static EverettTree open(Path dir, TreeOptions options, RecoveryCheck check, boolean readOnly) throws IOException {
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(check, "check");
        StorageFiles files = options.files();
        // The open decides whether segment stores write, not the options a host passed in.
        ObjectStoreOptions store = options.store().withReadOnly(readOnly);
        if (readOnly) {
            // A directory without a manifest (missing, or a crash came before the first one) is
            // an empty tree, as a read-write open would find it, only not made on disk.
            files = new ReadOnlyFiles(files, dir);
        }
        files.createDirectories(dir);
        Manifest.Replayed replayed = Manifest.replay(files, dir, options.layout());
        SegmentFiles segments = SegmentFiles.open(dir.resolve(SEGMENTS), options.policy(), store, files);
        EverettTree tree = new EverettTree(dir, options, files, segments, readOnly);
        boolean ok = false;
        try {
            if (!readOnly) {
                files.createDirectories(tree.chains); // read-only: a tree without chains needs none; a named chain is checked below
            }
            for (ObjectId id : replayed.levels().ids()) {
                if (!files.exists(segments.segmentDirectory(id))) {
                    String missing = "manifest names segment " + id + ", which is missing from " + segments.directory();
                    if (replayed.tornTail()) {
                        // A crash tears at most the append in flight, and a segment is deleted only
                        // once the edit removing it is durable: so the dropped record was committed.
                        throw new CorruptManifestException(replayed.file(), replayed.tornAt(), missing + ", and the manifest's last record,"
                                + " at this offset, is incomplete: if that record removed the segment, the manifest lost a committed edit"
                                + " (it was cut short or damaged: segments are deleted only after the edit removing them is durable,"
                                + " so a crash cannot do this)");
                    }
                    throw new CorruptManifestException(replayed.file(), 0, missing);
                }
            }
            // Before anything is written (a rebuilt chain, the rollover, deletions), so that a
            // refusal leaves every file as it was.
            check.check(replayed.file() != null ? replayed.file() : dir.resolve(Manifest.CURRENT),
                    replayed.levels().hostState().clone(), replayed.tornTail());
            Levels levels = replayed.levels();
            WholeRunChain.State chain = levels.chain();
            if (chain != null && !files.exists(WholeRunChain.directory(tree.chains, chain.id()))) {
                if (readOnly) {
                    throw new NoSuchFileException(WholeRunChain.directory(tree.chains, chain.id()).toString(), null,
                            "the whole-run chain the manifest names is missing; a read-write open rebuilds it from the runs");
                }
                // The chain is derived from the runs: rebuild a lost one rather than refuse the tree.
                chain = WholeRunChain.build(segments, tree.chains, null, List.of(), runs(levels));
                levels = new Levels(levels.layout(), levels.levels(), levels.hostState(), levels.number(), chain);
            }
            VersionCore core = VersionCore.open(levels, segments, tree.chains, options::filtersAt);
            tree.install(core);
            if (!readOnly) {
                tree.manifest = Manifest.create(files, dir, replayed.manifestNumber(), replayed.file(), levels.snapshot(levels.number()));
                tree.deleteUnnamed();
            }
            ok = true;
            return tree;
        } finally {
            if (!ok) {
                tree.closeQuietly();
            }
        }
    }

    /**
     * Deletes what no edit names: segment and chain directories, old manifests, temporary files,
     * including those a crash left inside a live segment or chain (a key filter is written lazily,
     * after its segment was named).
     */
    private void deleteUnnamed() throws IOException {
        Set<ObjectId> live = new HashSet<>(holders.keySet());
        for (ObjectId id : segments.list()) {
            Path d = segments.segmentDirectory(id);
            if (!live.contains(id)) {
                sweep(d, () -> segments.deleteTree(d));
            } else {
                sweep(d, () -> deleteTemporaryFiles(d));
            }
        }
        for (Path p : files.list(chains)) {
            ObjectId id = SegmentFiles.parseSegmentName(p.getFileName().toString());
            if (id == null || !live.contains(id)) {
                sweep(p, () -> segments.deleteTree(p));
            } else {
                sweep(p, () -> deleteTemporaryFiles(p));
            }
        }
        for (Path p : files.list(dir)) {
            String name = p.getFileName().toString();
            if ((name.startsWith(Manifest.PREFIX) && !p.equals(manifest.file())) || name.equals(Manifest.CURRENT + ".tmp")) {
                sweep(p, () -> files.delete(p));
            }
        }
        files.forceDirectory(dir);
        pendingDeletes.clear();
    }

    /** A deletion of what no edit names. */
    private interface Deletion {
        void run() throws IOException;
    }

    /**
     * Runs {@code deletion} of garbage at {@code path}; if it fails, warns and leaves the rest for
     * the next open, which tries again. Garbage that cannot be deleted now (a permission, a file
     * another program holds open) must not make the tree unopenable: RocksDB, too, logs a failed
     * purge of obsolete files and goes on.
     */
    private static void sweep(Path path, Deletion deletion) {
        try {
            deletion.run();
        } catch (IOException | UncheckedIOException e) {
            LOG.log(System.Logger.Level.WARNING, "could not delete " + path + ", which no edit names; the next open tries again: " + e);
        }
    }

    /**
     * Deletes the temporary files under {@code directory} (see {@link TemporaryFiles}). No force
     * follows: a deletion a crash undoes is simply made again at the next open.
     */
    private void deleteTemporaryFiles(Path directory) throws IOException {
        for (Path p : files.list(directory)) {
            if (files.isDirectory(p)) {
                deleteTemporaryFiles(p);
            } else if (TemporaryFiles.isTemporary(p)) {
                files.delete(p);
            }
        }
    }

    @Override
    public Path directory() {
        return dir;
    }

    @Override
    public TreeOptions options() {
        return options;
    }

    @Override
    public synchronized Version current() {
        requireOpen();
        retain(current);
        return new TreeVersion(this, current);
    }

    /** Makes {@code core} current, holding its files, and releases the previous one. */
    private void install(VersionCore core) {
        core.references++;
        live.add(core);
        if (core.levels.chain() != null) {
            chainIds.add(core.levels.chain().id()); // before the holds below, which count segments apart from chains
        }
        for (ObjectId id : core.held()) {
            if (holders.merge(id, 1, Integer::sum) == 1 && !chainIds.contains(id)) {
                liveSegments++;
            }
        }
        VersionCore old = current;
        current = core;
        if (old != null) {
            release(old);
        }
    }

    synchronized void retain(VersionCore core) {
        if (core.references <= 0) {
            throw new IllegalStateException("version " + core.levels.number() + " is already released");
        }
        core.references++;
    }

    synchronized void release(VersionCore core) {
        if (--core.references > 0 || closed) {
            return; // a closed tree closed its versions already; files are swept at the next open
        }
        core.close();
        live.remove(core);
        for (ObjectId id : core.held()) {
            if (holders.merge(id, -1, Integer::sum) == 0) {
                holders.remove(id);
                if (!chainIds.contains(id)) {
                    liveSegments--;
                }
                pendingDeletes.add(id);
            }
        }
        deletePending();
    }

    /** Deletes the segments and chains no version holds any more; a failure leaves them for later. */
    private void deletePending() {
        for (var it = pendingDeletes.iterator(); it.hasNext(); ) {
            ObjectId id = it.next();
            if (holders.containsKey(id)) {
                it.remove();
                continue;
            }
            try {
                if (chainIds.contains(id)) {
                    segments.deleteTree(WholeRunChain.directory(chains, id));
                    chainIds.remove(id);
                } else {
                    segments.delete(id);
                }
                it.remove();
            } catch (IOException | RuntimeException e) {
                // Kept in pendingDeletes: retried after the next edit, and swept on open.
            }
        }
    }

    /**
     * Applies {@code edit} to the current version: opens the new version, appends the edit to
     * the manifest (durable when this returns) and installs it. If the append fails nothing
     * changes and the manifest rolls over to a fresh snapshot, since the failed append may have
     * left a partial record. If that rollover fails too, the edit is in doubt: the append may have
     * written the whole record before failing (a failed force), and the manifest {@code CURRENT}
     * still names may then hold it, so the caller must leave the files it names on disk (the next
     * open keeps them if the edit is there and sweeps them if not); see {@link #inDoubt}.
     */
    private synchronized void commit(Edit edit) throws IOException {
        requireOpen();
        if (broken != null) {
            throw new IOException("the manifest could not be rewritten after an earlier failure; reopen the tree", broken);
        }
        Levels next = current.levels.apply(edit);
        VersionCore core = VersionCore.open(next, segments, chains, options::filtersAt);
        try {
            manifest.append(edit);
        } catch (IOException | RuntimeException e) {
            core.close();
            try {
                manifest = Manifest.create(files, dir, manifest.number(), manifest.file(), current.levels.snapshot(current.levels.number()));
            } catch (IOException again) {
                broken = again;
                e.addSuppressed(again);
            }
            throw e;
        }
        install(core);
    }

    /**
     * Whether the commit that just failed left its edit in doubt: the tree was not broken before
     * it ({@code brokenBefore}, read under the lock before the commit) and is now, so its append
     * failed and so did the rollover that would have settled it.
     */
    private boolean inDoubt(IOException brokenBefore) {
        return brokenBefore == null && broken != null;
    }

    private long nextEditNumber() {
        return current.levels.number() + 1;
    }

    @Override
    public List<SegmentMeta> flush(SortedEntries entries, byte[] hostState) throws IOException {
        requireOpen();
        requireWritable("flush");
        long target = options.layout() == Layout.PARTITIONED ? options.targetFileBytes() : Long.MAX_VALUE;
        List<SegmentMeta> metas = segments.flush(entries, target, null, options.filtersAt(0));
        WholeRunChain.State chain = null;
        boolean ok = false;
        boolean keep = false;
        try {
            synchronized (this) {
                IOException brokenBefore = broken;
                List<Edit.Added> added = new ArrayList<>();
                for (SegmentMeta m : metas) {
                    added.add(new Edit.Added(0, m));
                }
                if (options.layout() == Layout.WHOLE_RUN && !metas.isEmpty()) {
                    List<SegmentMeta> runs = new ArrayList<>(metas);
                    runs.addAll(runs(current.levels));
                    chain = WholeRunChain.build(segments, chains, current.levels.chain(), runs(current.levels), runs);
                }
                try {
                    commit(new Edit(nextEditNumber(), false, null, hostState == null ? null : hostState.clone(), List.of(), added, chain));
                } catch (IOException | RuntimeException e) {
                    keep = inDoubt(brokenBefore);
                    throw e;
                }
            }
            ok = true;
            return metas;
        } finally {
            if (!ok && !keep) {
                discard(metas, chain);
            }
        }
    }

    /** Deletes outputs that never became part of a version. */
    private void discard(List<SegmentMeta> metas, WholeRunChain.State chain) {
        List<ObjectId> ids = new ArrayList<>();
        for (SegmentMeta m : metas) {
            ids.add(m.id());
        }
        segments.deleteQuietly(ids);
        if (chain != null) {
            try {
                segments.deleteTree(WholeRunChain.directory(chains, chain.id()));
            } catch (IOException | RuntimeException ignored) {
                // Swept on open: no edit names it.
            }
        }
    }

    private static List<SegmentMeta> runs(Levels levels) {
        List<SegmentMeta> out = new ArrayList<>();
        for (List<SegmentMeta> l : levels.levels()) {
            out.addAll(l);
        }
        return out;
    }

    @Override
    public synchronized void recordHostState(byte[] hostState) throws IOException {
        Objects.requireNonNull(hostState, "hostState");
        requireWritable("record a host state");
        commit(new Edit(nextEditNumber(), false, null, hostState.clone(), List.of(), List.of(), null));
    }

    @Override
    public Optional<CompactionPlan> pickCompaction() {
        if (readOnly) {
            return Optional.empty(); // nothing may be compacted
        }
        try (Version v = current()) {
            Set<ObjectId> busy;
            synchronized (this) {
                busy = Set.copyOf(compacting);
            }
            return options.picker().pick(v, busy);
        }
    }

    @Override
    public synchronized Set<ObjectId> compacting() {
        return Set.copyOf(compacting);
    }

    @Override
    public CompactionJob compact(CompactionPlan plan, ValueMerger values) throws IOException {
        Objects.requireNonNull(plan, "plan");
        Objects.requireNonNull(values, "values");
        TreeVersion held;
        synchronized (this) {
            requireOpen();
            requireWritable("compact");
            check(plan, current.levels);
            for (SegmentMeta m : plan.inputs()) {
                compacting.add(m.id());
            }
            retain(current);
            held = new TreeVersion(this, current);
        }
        try {
            long target = options.layout() == Layout.PARTITIONED ? options.targetFileBytes() : Long.MAX_VALUE;
            return new TreeCompaction(plan, held, values, target);
        } catch (IOException | RuntimeException e) {
            releasePlan(plan, held);
            throw e;
        }
    }

    private synchronized void releasePlan(CompactionPlan plan, TreeVersion held) {
        for (SegmentMeta m : plan.inputs()) {
            compacting.remove(m.id());
        }
        held.close();
    }

    /** Checks that a plan fits the current version and keeps the layout's rules. */
    private void check(CompactionPlan plan, Levels levels) {
        Set<ObjectId> inputs = new HashSet<>();
        int[] levelOf = new int[plan.inputs().size()];
        for (int i = 0; i < plan.inputs().size(); i++) {
            SegmentMeta m = plan.inputs().get(i);
            int[] at = levels.find(m.id());
            if (at == null) {
                throw new IllegalArgumentException("compaction input " + m.id() + " is not in the current version");
            }
            if (!levels.level(at[0]).get(at[1]).equals(m)) {
                throw new IllegalArgumentException("compaction input " + m.id() + " differs from the version's metadata");
            }
            if (compacting.contains(m.id()) || !inputs.add(m.id())) {
                throw new IllegalArgumentException("compaction input " + m.id() + " is already being compacted or listed twice");
            }
            levelOf[i] = at[0];
        }
        if (levels.layout() == Layout.WHOLE_RUN) {
            // Adjacent runs, oldest first: levels n, n-1, ..., n-k+1.
            for (int i = 1; i < levelOf.length; i++) {
                if (levelOf[i] != levelOf[i - 1] - 1) {
                    throw new IllegalArgumentException("whole-run compaction inputs must be adjacent runs, oldest first");
                }
            }
            // The output takes the place of its newest input wherever that run is when the merge
            // is installed. The plan's output level is the one it had when planned: a flush since
            // then pushed a run on top and shifted every level down, so it may be stale, and a
            // host that plans and then starts a merge must not fail for a flush in between.
            if (plan.outputLevel() > levelOf[levelOf.length - 1]) {
                throw new IllegalArgumentException("a whole-run merge takes the place of its newest input, level "
                        + levelOf[levelOf.length - 1] + ", not the deeper level " + plan.outputLevel());
            }
            if (plan.dropTombstones() && levelOf[0] != levels.levels().size() - 1) {
                throw new IllegalArgumentException("tombstones may be dropped only by a merge that includes the oldest run");
            }
            return;
        }
        int out = plan.outputLevel();
        if (out < 1) {
            throw new IllegalArgumentException("partitioned compactions write to level 1 or below, not " + out);
        }
        int minLevel = Integer.MAX_VALUE;
        for (int i = 0; i < levelOf.length; i++) {
            if (levelOf[i] > out) {
                throw new IllegalArgumentException("input " + plan.inputs().get(i).id() + " at level " + levelOf[i] + " lies below output level " + out);
            }
            minLevel = Math.min(minLevel, levelOf[i]);
        }
        // Oldest first: deeper levels before shallower, and level 0 oldest to newest.
        for (int i = 1; i < levelOf.length; i++) {
            if (levelOf[i] > levelOf[i - 1]) {
                throw new IllegalArgumentException("compaction inputs must be given oldest first (deeper levels first)");
            }
            if (levelOf[i] == 0 && levelOf[i - 1] == 0 && levels.find(plan.inputs().get(i).id())[1] > levels.find(plan.inputs().get(i - 1).id())[1]) {
                throw new IllegalArgumentException("level-0 inputs must be given oldest first");
            }
        }
        byte[][] range = LeveledPicker.range(plan.inputs());
        if (minLevel == 0) {
            // Level-0 inputs must be the oldest level-0 segments overlapping them: a newer one left
            // out would end up above data older than it.
            List<SegmentMeta> l0 = levels.level(0);
            boolean seenInput = false;
            for (SegmentMeta m : l0.reversed()) {
                if (inputs.contains(m.id())) {
                    seenInput = true;
                } else if (!seenInput && !LeveledPicker.overlapping(List.of(m), range).isEmpty()) {
                    throw new IllegalArgumentException("level-0 segment " + m.id() + " is older than the inputs and overlaps them but is not an input");
                }
            }
        }
        for (int n = Math.max(1, minLevel + 1); n <= out; n++) {
            for (SegmentMeta m : LeveledPicker.overlapping(levels.level(n), range)) {
                if (!inputs.contains(m.id())) {
                    throw new IllegalArgumentException("segment " + m.id() + " at level " + n + " overlaps the inputs but is not one");
                }
            }
        }
        if (plan.dropTombstones() && !LeveledPicker.bottommost(levels::level, levels.levels().size(), out, range)) {
            throw new IllegalArgumentException("tombstones may be dropped only where no level below " + out + " holds keys of the inputs");
        }
    }

    /** A compaction whose finish installs its edit. */
    private final class TreeCompaction extends SegmentCompaction {
        private final CompactionPlan plan;
        private final TreeVersion held;
        private boolean released;

        TreeCompaction(CompactionPlan plan, TreeVersion held, ValueMerger values, long target) throws IOException {
            super(segments, plan.inputs(), values, plan.dropTombstones() ? TombstonePolicy.DROP : TombstonePolicy.KEEP, target,
                    options.filtersAt(plan.outputLevel()), new byte[0],
                    fitsInMemory(plan.inputs(), CompactionBuilder.DEFAULT_INPUTS_IN_MEMORY_BYTES));
            this.plan = plan;
            this.held = held;
        }

        @Override
        void installed(List<SegmentMeta> outputs) throws IOException {
            synchronized (EverettTree.this) {
                IOException brokenBefore = broken;
                List<ObjectId> removed = new ArrayList<>();
                for (SegmentMeta m : plan.inputs()) {
                    removed.add(m.id());
                }
                List<Edit.Added> added = new ArrayList<>();
                WholeRunChain.State chain = null;
                if (options.layout() == Layout.WHOLE_RUN) {
                    List<SegmentMeta> before = runs(current.levels);
                    int top = before.indexOf(plan.inputs().getLast());
                    List<SegmentMeta> after = new ArrayList<>(before);
                    after.removeIf(m -> removed.contains(m.id()));
                    for (SegmentMeta m : outputs) {
                        added.add(new Edit.Added(top, m));
                        after.add(top, m);
                    }
                    if (!after.isEmpty()) {
                        chain = WholeRunChain.build(segments, chains, current.levels.chain(), before, after);
                    }
                } else {
                    for (SegmentMeta m : outputs) {
                        added.add(new Edit.Added(plan.outputLevel(), m));
                    }
                }
                try {
                    commit(new Edit(nextEditNumber(), false, null, null, removed, added, chain));
                } catch (IOException | RuntimeException e) {
                    if (inDoubt(brokenBefore)) {
                        keepOutputs(); // the manifest CURRENT names may hold the edit: the next open decides
                    } else if (chain != null) {
                        segments.deleteTree(WholeRunChain.directory(chains, chain.id()));
                    }
                    throw e;
                }
            }
        }

        @Override
        public void close() throws IOException {
            try {
                super.close();
            } finally {
                if (!released) {
                    released = true;
                    releasePlan(plan, held);
                }
            }
        }
    }

    @Override
    public int liveSegmentCount() {
        return liveSegments;
    }

    SegmentFiles segments() {
        return segments;
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("tree closed: " + dir);
        }
    }

    private void requireWritable(String what) {
        if (readOnly) {
            throw new UnsupportedOperationException("tree " + dir + " is open read-only: cannot " + what);
        }
    }

    @Override
    public boolean readOnly() {
        return readOnly;
    }


    @Override
    public synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        closeQuietly();
    }

    /** Closes every version still open (their chains) and every segment. */
    private synchronized void closeQuietly() {
        closed = true;
        for (VersionCore core : live) {
            core.close();
        }
        live.clear();
        segments.close();
    }
}

package dev.everett.store;

import dev.everett.api.DurableDirectories;
import dev.everett.api.KeyRange;
import dev.everett.api.Lookup;
import dev.everett.api.Policy;
import dev.everett.api.PolicyMismatchException;
import dev.everett.compaction.Layout;
import dev.everett.compaction.LsmTree;
import dev.everett.compaction.SegmentMeta;
import dev.everett.compaction.TreeCursor;
import dev.everett.compaction.Version;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;


/**
 * An embedded, ordered key-value store with RocksJava's shape whose sorted runs are Everett
 * segments: {@code byte[]} keys and values (keys compared as unsigned bytes; the empty key and the
 * empty value are ordinary), point writes, atomic batches, snapshots and bidirectional iterators
 * with bounds.
 *
 * <pre>{@code
 * try (EverettDB db = EverettDB.open(dir)) {
 *     db.put(key, value);
 *     byte[] v = db.get(key);            // null when absent
 * }
 * }</pre>
 *
 * <p>Writes go to a write-ahead log (checksummed records; concurrent writers share one append and
 * one force as a commit group) and then to the memtable. A full memtable is switched out and
 * flushed to segments by a background thread; background compactions keep the levels in shape;
 * writes slow down and then stop when flushes or compactions fall behind. Thread-safe: any number
 * of threads may read and write at once. Closing waits for writes in flight and the flush under
 * way, cancels compactions; any use after close throws {@link IllegalStateException}.
 */
public final class EverettDB implements AutoCloseable {

    private static final WriteOptions DEFAULT_WRITE = new WriteOptions();
    private static final ReadOptions DEFAULT_READ = new ReadOptions();
    /** A commit group's largest total batch size (a bigger single batch commits alone). */
    private static final long MAX_GROUP_BYTES = 1 << 20;
    /** Levels a whole-run store may report through {@code everett.num-files-at-level<N>}. */
    private static final int MAX_REPORTED_LEVELS = 64;

    private final Path dir;
    private final DBOptions options;
    private final StoreFiles files;
    private final Policy policy;
    /** The hold on the LOCK file: exclusive, or for a read-only open shared. */
    private final StoreLock storeLock;
    /** Opened with {@link #openReadOnly}: reads only, nothing written; see there. */
    private final boolean readOnly;
    private final StoreStats stats = new StoreStats();

    // Commit queue: guards the queue, sequence allocation and the closed flag.
    private final ReentrantLock commitLock = new ReentrantLock();
    private final Condition idle = commitLock.newCondition();
    private final ArrayDeque<PendingWrite> queue = new ArrayDeque<>();
    private long lastAllocatedSeq;
    private volatile long lastPublishedSeq;
    /** A write skipped the log (RocksDB's has_unpersisted_data_): close then flushes the memtables. */
    private boolean unloggedWrites;
    private volatile boolean closed;

    // State shared with the background threads: the view, the memtable list, failures, closing.
    private final ReentrantLock stateLock = new ReentrantLock();
    private final Condition stateChanged = stateLock.newCondition();
    private volatile ReadView view;
    private volatile Throwable backgroundFailure;
    /**
     * An append, force, close or creation of a log failed: close does not force the log again (a
     * retried force can report success for pages the failed one lost). Any other failure (a
     * flush's, a compaction's) leaves the log sound, and close forces it as always.
     */
    private volatile boolean logFailed;
    private volatile boolean closing;
    private int manualCompactions;
    private long flushesDone;

    /** Only the commit leader (and open and close) touch the log. */
    private volatile WriteAheadLog log;
    private long nextLogNumber;

    private LsmTree tree;
    private final Background background;
    private final Set<Snapshot> snapshots = ConcurrentHashMap.newKeySet();
    /**
     * Sequence numbers live snapshots and iterators read at, with how many read at each (under
     * the state lock, which also covers taking a read point, so a pruner that reads these sees
     * every read point older than the published sequence number).
     */
    private final TreeMap<Long, Integer> readPointCounts = new TreeMap<>();
    private long[] readPointArray = new long[0];
    /** The commit leader's list of chains its group overwrote (one leader at a time). */
    private final List<MemTable.Chain> overwritten = new ArrayList<>();
    private List<LogReplay.Result> recovery = List.of();

    /** Opens (creating if missing) the store in {@code dir} with default options. */
    public static EverettDB open(Path dir) {
        return open(dir, new DBOptions());
    }

    /**
     * Opens the store in {@code dir}. Creates it if missing (unless
     * {@link DBOptions#setCreateIfMissing(boolean) createIfMissing} is false), opens its levels of
     * segments from their manifest, then replays the write-ahead logs written since the last flush
     * and flushes what they held: a log whose last record was cut short by a crash recovers to the
     * last complete record (reported by {@code everett.stats}); damage anywhere else is refused with
     * a {@link CorruptFileException} (or the manifest's or segment's own exception) naming the file,
     * offset and rule.
     *
     * @throws IllegalArgumentException an option is invalid (the message names it), or the store is missing or exists against the options
     * @throws PolicyMismatchException  the store was created with another policy or layout (names the file and what it holds)
     * @throws IllegalStateException    the store is already open (in this or another process)
     * @throws UncheckedIOException     the file system failed
     */
    public static EverettDB open(Path dir, DBOptions options) {
        return open(dir, options, false);
    }

    /**
     * Opens the existing store in {@code dir} for reading only, as RocksDB's
     * {@code openReadOnly}: gets, iterators, snapshots and properties see the store as it was
     * closed (or as a crash left it), and nothing in the directory is created, written, renamed
     * or deleted. The write-ahead logs are replayed into a memtable in memory (a torn tail is
     * dropped there, not cut off the file, and reported by {@code everett.stats}), nothing is
     * flushed, no background work runs, and segments are read without their key filters (answers
     * are the same; lookups of absent keys cost more). Writes, {@link #flush()} and
     * {@link #compactRange()} throw {@link UnsupportedOperationException}.
     *
     * <p>Any number of read-only opens may share a store, in this process or others; a
     * read-write open excludes them and they exclude it (they share its {@code LOCK} file), so
     * what they read cannot change or be deleted under them. A store copied without its
     * {@code LOCK} file opens without one.
     *
     * @throws IllegalArgumentException {@code dir} holds no store, or an option is invalid
     * @throws PolicyMismatchException  the store was created with another policy or layout
     * @throws IllegalStateException    the store is open for writing (in this or another process)
     * @throws UncheckedIOException     the file system failed, or a file the store needs is missing
     */
    public static EverettDB openReadOnly(Path dir, DBOptions options) {
        return open(dir, options, true);
    }

    private static EverettDB open(Path dir, DBOptions options, boolean readOnly) {
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(options, "options");
        options.validate();
        try {
            return new EverettDB(dir, options, readOnly);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open store at " + dir + (readOnly ? " read-only" : "") + ": " + e.getMessage(), e);
        }
    }

    private EverettDB(Path dir, DBOptions options, boolean readOnly) throws IOException {
        this.dir = dir;
        this.options = options;
        this.files = options.storeFiles();
        this.readOnly = readOnly;
        if (readOnly) {
            if (!files.exists(dir.resolve(StoreDescriptor.FILE_NAME))) {
                throw new IllegalArgumentException("openReadOnly: " + dir + " holds no store (no " + StoreDescriptor.FILE_NAME + " file)");
            }
            this.storeLock = StoreLock.shared(dir);
            this.background = null;
            try {
                this.policy = openDescriptor(options);
                this.tree = LsmTree.openReadOnly(dir.resolve(TREE_DIR), Background.treeOptions(options), this::checkRecoveredTree);
                replayInMemory();
            } catch (Throwable failure) {
                abandonOpen(failure);
                throw failure;
            }
            return;
        }
        if (!Files.isDirectory(dir)) {
            if (!options.createIfMissing()) {
                throw new IllegalArgumentException("createIfMissing: " + dir + " does not exist and createIfMissing is false");
            }
            DurableDirectories.create(dir);
        }
        this.storeLock = StoreLock.exclusive(dir);
        try {
            this.policy = openDescriptor(options);
            this.tree = LsmTree.open(dir.resolve(TREE_DIR), Background.treeOptions(options), this::checkRecoveredTree);
            recover();
            this.background = new Background(this, options);
            background.start();
        } catch (Throwable failure) {
            abandonOpen(failure);
            throw failure;
        }
    }

    /** The subdirectory the levels of segments and their manifest live in. */
    static final String TREE_DIR = "tree";

    private Policy openDescriptor(DBOptions options) throws IOException {
        Path file = dir.resolve(StoreDescriptor.FILE_NAME);
        if (files.exists(file)) {
            if (options.errorIfExists() && !readOnly) {
                throw new IllegalArgumentException("errorIfExists: a store already exists at " + dir);
            }
            StoreDescriptor stored = StoreDescriptor.read(files, dir);
            if (!stored.policy().equals(options.policy())) {
                throw new PolicyMismatchException(file, "policy", StoreDescriptor.describe(options.policy()),
                        StoreDescriptor.describe(stored.policy()));
            }
            if (stored.layout() != options.levelLayout()) {
                throw new PolicyMismatchException(file, "layout", options.levelLayout(), stored.layout());
            }
            return stored.policy();
        }
        if (!options.createIfMissing()) {
            throw new IllegalArgumentException("createIfMissing: " + dir + " holds no store and createIfMissing is false");
        }
        for (Path p : files.list(dir)) {
            if (WriteAheadLog.numberOf(p) >= 0 || p.getFileName().toString().equals(TREE_DIR)) {
                throw new CorruptFileException(file, 0, "descriptor is missing while " + p.getFileName() + " exists");
            }
        }
        StoreDescriptor.write(files, dir, new StoreDescriptor(options.policy(), options.levelLayout()));
        return options.policy();
    }

    /**
     * Refuses a tree whose manifest lost edits, before the tree writes anything. Logs are deleted
     * only after the edit that covers them is durable, and the log an edit names as the first one
     * still needed was created (and its directory entry forced) before that edit was written; so
     * the logs present must run without a gap from the first one the recovered state needs. A
     * missing first log means later edits, which let it be deleted, were lost (a manifest cut short
     * at a record boundary, or a torn last edit that had been acknowledged); replaying only the
     * newer logs on top would give a state the store never held. Sequence numbers cannot be
     * checked the same way: writes without the log leave gaps in the logged ones.
     */
    private void checkRecoveredTree(Path manifest, byte[] hostState, boolean tornTail) throws IOException {
        HostState state = HostState.decode(hostState, manifest);
        List<Long> numbers = new ArrayList<>();
        for (Path p : files.list(dir)) {
            long n = WriteAheadLog.numberOf(p);
            if (n >= state.minLogNumber()) {
                numbers.add(n);
            }
        }
        numbers.sort(null);
        String how = tornTail ? " (its last record was torn and dropped, yet that edit had been acted on)" : "";
        if (numbers.isEmpty()) {
            if (state.minLogNumber() > 0) {
                throw new CorruptFileException(manifest, 0, "the manifest's last edit needs log " + WriteAheadLog.fileName(state.minLogNumber())
                        + " and later, but no log is present: edits of the manifest were lost" + how);
            }
            return; // a new store that crashed before its first log was created
        }
        long expected = Math.max(state.minLogNumber(), 1);
        if (numbers.getFirst() != expected) {
            throw new CorruptFileException(manifest, 0, "the manifest's last edit needs log " + WriteAheadLog.fileName(expected)
                    + " and later, but the oldest log present is " + WriteAheadLog.fileName(numbers.getFirst())
                    + ": edits of the manifest were lost" + how);
        }
        for (int i = 1; i < numbers.size(); i++) {
            if (numbers.get(i) != numbers.get(i - 1) + 1) {
                throw new CorruptFileException(dir.resolve(WriteAheadLog.fileName(numbers.get(i - 1) + 1)), 0, "log is missing while "
                        + WriteAheadLog.fileName(numbers.get(i)) + " exists and " + manifest.getFileName() + " needs every log from "
                        + WriteAheadLog.fileName(expected) + " on");
            }
        }
    }

    /**
     * Replays the logs the tree's last flush did not cover into a memtable, cuts a torn tail off
     * the last one, starts a new log, and flushes the replayed memtable so the old logs can go.
     */
    private void recover() throws IOException {
        HostState state = treeHostState();
        List<Path> logs = new ArrayList<>();
        long maxLog = state.minLogNumber() - 1;
        for (Path p : files.list(dir)) {
            long n = WriteAheadLog.numberOf(p);
            if (n >= 0) {
                if (n < state.minLogNumber()) {
                    files.delete(p); // flushed before a crash that came before its deletion
                } else {
                    logs.add(p);
                    maxLog = Math.max(maxLog, n);
                }
            }
        }
        MemTable replayed = new MemTable(0);
        List<LogReplay.Result> results = new ArrayList<>();
        long seq = replay(logs, state.lastSeq(), replayed, results, true);
        this.recovery = List.copyOf(results);
        this.nextLogNumber = Math.max(maxLog + 1, 1);
        this.log = WriteAheadLog.create(files, dir, nextLogNumber++);
        this.lastAllocatedSeq = seq;
        this.lastPublishedSeq = seq;
        if (!logs.isEmpty()) {
            replayed.freeze(log.number(), seq);
            MemTableEntries entries = new MemTableEntries(replayed);
            tree.flush(entries, HostState.encode(log.number(), seq));
            stats.flushes.increment();
            stats.flushRecords.add(entries.written());
            for (Path p : logs) {
                files.delete(p);
            }
        }
        this.view = new ReadView(new MemTable(log.number()), List.of(), tree.current());
    }

    /** The host state the tree's last edit recorded (the first log still needed, the last sequence number flushed). */
    private HostState treeHostState() {
        try (Version v = tree.current()) {
            return HostState.decode(v.hostState(), dir.resolve(TREE_DIR));
        }
    }

    /**
     * A read-only open's recovery: the logs the tree's last flush did not cover, replayed into the
     * memtable reads see. Unlike {@link #recover()} it leaves every log as it is: older logs are
     * not deleted, a torn tail is not cut off, no new log is started and nothing is flushed.
     */
    private void replayInMemory() throws IOException {
        HostState state = treeHostState();
        List<Path> logs = new ArrayList<>();
        for (Path p : files.list(dir)) {
            if (WriteAheadLog.numberOf(p) >= state.minLogNumber()) {
                logs.add(p);
            }
        }
        MemTable replayed = new MemTable(0);
        List<LogReplay.Result> results = new ArrayList<>();
        long seq = replay(logs, state.lastSeq(), replayed, results, false);
        this.recovery = List.copyOf(results);
        this.lastAllocatedSeq = seq;
        this.lastPublishedSeq = seq;
        this.view = new ReadView(replayed, List.of(), tree.current());
    }

    /**
     * Replays {@code logs} in log-number order into {@code into}, starting after sequence number
     * {@code seq}, adding what each held to {@code results}; returns the last sequence number. A
     * torn tail is the write in flight at a crash only in the newest log (elsewhere it is damage,
     * refused); {@code cut} cuts it off the file (a read-write open), otherwise it is only dropped.
     */
    private long replay(List<Path> logs, long seq, MemTable into, List<LogReplay.Result> results, boolean cut) throws IOException {
        logs.sort((a, b) -> Long.compare(WriteAheadLog.numberOf(a), WriteAheadLog.numberOf(b)));
        for (int i = 0; i < logs.size(); i++) {
            Path p = logs.get(i);
            LogReplay.Result r = LogReplay.replay(files, p, seq,
                    (firstSeq, count, data, off, len) -> apply(into, null, firstSeq, count, data, off, len));
            if (r.droppedBytes() > 0) {
                if (i != logs.size() - 1) {
                    throw new CorruptFileException(p, r.validBytes(), "log ends in a torn record but a later log ("
                            + logs.get(i + 1).getFileName() + ") exists; logs are forced before the next is started, so this is damage, not a crash");
                }
                if (cut) {
                    files.truncate(p, r.validBytes());
                }
            }
            seq = r.lastSeq();
            results.add(r);
        }
        return seq;
    }

    // ---------------------------------------------------------------- writes

    /** Stores {@code value} under {@code key}. */
    public void put(byte[] key, byte[] value) {
        put(DEFAULT_WRITE, key, value);
    }

    /** Stores {@code value} under {@code key} with the given durability. */
    public void put(WriteOptions options, byte[] key, byte[] value) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        write(options, new WriteBatch(WriteBatch.encodedSize(key.length, value.length)).put(key, value));
    }

    /** Removes {@code key} (a no-op if absent). */
    public void delete(byte[] key) {
        delete(DEFAULT_WRITE, key);
    }

    /** Removes {@code key} with the given durability. */
    public void delete(WriteOptions options, byte[] key) {
        write(options, new WriteBatch().delete(key));
    }

    /** Removes {@code key} under RocksDB's single-delete contract (see {@link WriteBatch#singleDelete}). */
    public void singleDelete(byte[] key) {
        singleDelete(DEFAULT_WRITE, key);
    }

    /** Removes {@code key} under RocksDB's single-delete contract, with the given durability. */
    public void singleDelete(WriteOptions options, byte[] key) {
        write(options, new WriteBatch().singleDelete(key));
    }

    /**
     * Applies every operation of {@code batch} atomically: readers, snapshots and recovery see all
     * of them or none. Returns once the batch is in the log (forced if {@code options.sync()}) and
     * visible to reads. May wait while flushes or compactions are behind (write stalls).
     *
     * @throws UncheckedIOException     the log append failed; the store then refuses further writes
     * @throws IllegalStateException    the store is closed, or an earlier log append or background job failed
     * @throws IllegalArgumentException the options ask for a synced write without the log (RocksDB
     *                                  refuses the pair too: nothing would be forced)
     */
    public void write(WriteOptions options, WriteBatch batch) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(batch, "batch");
        checkOpen();
        requireWritable("write");
        if (options.sync() && options.disableWAL()) {
            throw new IllegalArgumentException("WriteOptions: sync writes need the write-ahead log (sync and disableWAL are both set)");
        }
        if (batch.count() == 0 && !options.sync()) {
            return; // nothing to log or apply; a synced empty batch still forces the log, as RocksDB's does
        }
        commit(new PendingWrite(batch, options.sync(), options.disableWAL()));
    }

    /**
     * Queues {@code w}; whoever reaches the head of the queue leads, committing every write queued
     * behind it (or, for a memtable switch request, only the switch) while the others wait.
     */
    private void commit(PendingWrite w) {
        List<PendingWrite> group;
        commitLock.lock();
        try {
            if (closed) {
                throw closedError();
            }
            refuseAfterFailure();
            queue.addLast(w);
            while (!w.done && queue.peekFirst() != w) {
                if (w.turn == null) {
                    w.turn = commitLock.newCondition(); // only a writer that waits needs one
                }
                w.turn.awaitUninterruptibly();
            }
            if (w.done) {
                w.rethrow();
                return;
            }
            group = new ArrayList<>();
            if (w.batch == null) {
                group.add(w);
            } else {
                long bytes = 0;
                for (PendingWrite p : queue) {
                    if (p.batch == null || (!group.isEmpty() && bytes + p.batch.size() > MAX_GROUP_BYTES)) {
                        break;
                    }
                    bytes += p.batch.size();
                    group.add(p);
                }
            }
        } finally {
            commitLock.unlock();
        }
        RuntimeException failure;
        try {
            failure = w.batch == null ? switchRequested() : commitGroup(group);
        } catch (RuntimeException | Error e) {
            failure = e instanceof RuntimeException r ? r : new IllegalStateException(e);
            // A writer stalled when close began gives up: the store did not fail (close must
            // still force the log the writes before it are in).
            if (!(e instanceof ClosedWhileStalled)) {
                backgroundFailure = backgroundFailure == null ? e : backgroundFailure;
            }
        }
        commitLock.lock();
        try {
            for (PendingWrite p : group) {
                queue.pollFirst();
                p.failure = failure;
                p.done = true;
                if (p != w && p.turn != null) {
                    p.turn.signal();
                }
            }
            PendingWrite head = queue.peekFirst();
            if (head != null) {
                if (head.turn != null) {
                    head.turn.signal();
                }
            } else {
                idle.signalAll();
            }
        } finally {
            commitLock.unlock();
        }
        w.rethrow();
    }

    /** Logs and applies a group (leader only, outside the commit lock); returns the failure or null. */
    private RuntimeException commitGroup(List<PendingWrite> group) {
        long logBytes = 0; // what the group adds to the log
        for (PendingWrite p : group) {
            if (!p.disableWAL && p.batch.count() > 0) {
                logBytes += WriteAheadLog.RECORD_HEADER_BYTES + WriteAheadLog.PAYLOAD_PREFIX_BYTES + p.batch.size();
            }
        }
        makeRoomForWrite(logBytes);
        long seq = lastAllocatedSeq; // only leaders allocate, one at a time
        for (PendingWrite p : group) {
            p.firstSeq = seq + 1;
            seq += p.batch.count();
        }
        WriteAheadLog l = log;
        try {
            boolean anyLogged = false;
            boolean sync = false;
            l.beginGroup();
            for (PendingWrite p : group) {
                if (!p.disableWAL && p.batch.count() > 0) { // an empty batch (synced) has no record: replay refuses a count of 0
                    l.addRecord(p.firstSeq, p.batch.count(), p.batch.data(), p.batch.size());
                    anyLogged = true;
                }
                sync |= p.sync;
            }
            if (anyLogged || sync) {
                long before = l.bytesWritten();
                l.writeGroup(sync);
                stats.walBytes.add(l.bytesWritten() - before);
                if (sync) {
                    stats.walSyncs.increment();
                }
            }
        } catch (IOException | RuntimeException e) {
            logFailed = true;
            backgroundFailure = e;
            return new UncheckedIOException("write-ahead log append to " + l.path() + " failed; the store refuses further writes",
                    e instanceof IOException io ? io : new IOException(e));
        }
        lastAllocatedSeq = seq;
        MemTable mem = view.active;
        List<MemTable.Chain> overwritten = this.overwritten;
        for (PendingWrite p : group) {
            try {
                apply(mem, overwritten, p.firstSeq, p.batch.count(), p.batch.data(), 0, p.batch.size());
            } catch (BatchDecoder.Malformed m) {
                // A batch we encoded ourselves always decodes; reaching here is a bug, not bad input.
                throw new AssertionError("write batch does not decode at byte " + m.at + ": " + m.getMessage(), m);
            }
            stats.userBytes.add(p.batch.size());
            stats.writes.add(p.batch.count());
            unloggedWrites |= p.disableWAL;
        }
        stats.commitGroups.increment();
        lastPublishedSeq = seq;
        // Published: older versions of the keys just written go unless a snapshot or iterator
        // needs them (a get that read at an older sequence number retries).
        if (!overwritten.isEmpty()) {
            MemTable.ReadPoints keep = readPoints();
            for (MemTable.Chain c : overwritten) {
                mem.prune(c, keep);
            }
            overwritten.clear();
        }
        return null;
    }

    /**
     * Write stalls, as RocksDB's: while level 0 (or, whole-run, the number of runs) is at the
     * slowdown trigger each commit waits a millisecond; at the stop trigger, or with the active
     * memtable full and every other memtable waiting for its flush, commits wait for the
     * background. A full memtable is switched out here.
     */
    private void makeRoomForWrite(long groupLogBytes) {
        boolean slowed = false;
        for (;;) {
            refuseAfterFailure();
            ReadView v = view;
            int level0 = level0Files(v.version);
            boolean compactionsCount = !options.disableAutoCompactions();
            if (compactionsCount && level0 >= options.level0StopWritesTrigger()) {
                stats.stopNanos.add(awaitBackground());
                continue;
            }
            if (compactionsCount && !slowed && level0 >= options.level0SlowdownWritesTrigger()) {
                long t = System.nanoTime();
                try {
                    Thread.sleep(1);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                stats.slowdowns.increment();
                stats.slowdownNanos.add(System.nanoTime() - t);
                slowed = true;
                continue;
            }
            // The log counts too: overwrites prune the memtable (its size can stay far below the
            // buffer size), but every one of them stays in the log until the memtable is flushed,
            // and a log replays into memory whole at open.
            // And a log must stay small enough for open to read it back (one array): a group that
            // would take it past that goes to a new log (a fresh log takes any one batch).
            long logged = log.bytesWritten();
            if (v.active.approximateBytes() >= options.writeBufferSize() || logged >= options.writeBufferSize()
                    || (!v.active.isEmpty() && logged + groupLogBytes > options.maxLogBytes())) {
                if (v.immutables.size() >= options.maxWriteBufferNumber() - 1) {
                    stats.memtableStallNanos.add(awaitBackground());
                    continue;
                }
                switchMemTable();
            }
            return;
        }
    }

    /** Waits (briefly, to recheck) for a background job to change the state; returns the nanoseconds waited. */
    private long awaitBackground() {
        long t = System.nanoTime();
        stateLock.lock();
        try {
            if (backgroundFailure == null && !closing) {
                stateChanged.await(10, TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            stateLock.unlock();
        }
        if (closing) {
            throw new ClosedWhileStalled(closedError().getMessage());
        }
        return System.nanoTime() - t;
    }

    /** What a writer stalled by back-pressure gets when close begins: the store is closing, not failed. */
    private static final class ClosedWhileStalled extends IllegalStateException {
        ClosedWhileStalled(String message) {
            super(message);
        }
    }

    /** A {@link #flush()} request at the head of the queue: switch the memtable if it holds anything. */
    private RuntimeException switchRequested() {
        refuseAfterFailure();
        if (!view.active.isEmpty()) {
            // As RocksDB's manual flush (allow_write_stall false): a switch never takes the store
            // past maxWriteBufferNumber memtables; it waits for a flush in flight, as a write does.
            while (view.immutables.size() >= options.maxWriteBufferNumber() - 1) {
                stats.memtableStallNanos.add(awaitBackground());
                refuseAfterFailure();
            }
            switchMemTable();
        }
        return null;
    }

    /**
     * Freezes the active memtable and starts a new one with a new log (leader only). The old log
     * is forced and closed first (closing cuts the room it took ahead, durably), so that only the
     * newest log can ever end in a torn record or in zeros.
     */
    private void switchMemTable() {
        WriteAheadLog old = log;
        WriteAheadLog next;
        try {
            old.force();
            old.close();
            next = WriteAheadLog.create(files, dir, nextLogNumber++);
        } catch (IOException e) {
            logFailed = true;
            backgroundFailure = e;
            throw new UncheckedIOException("cannot switch write-ahead logs after " + old.path() + "; the store refuses further writes", e);
        }
        stateLock.lock();
        try {
            ReadView v = view;
            v.active.freeze(next.number(), lastAllocatedSeq);
            List<MemTable> imms = new ArrayList<>(v.immutables.size() + 1);
            imms.add(v.active);
            imms.addAll(v.immutables);
            install(new ReadView(new MemTable(next.number()), imms, v.version.retain()));
            log = next;
            stateChanged.signalAll();
        } finally {
            stateLock.unlock();
        }
    }

    /** Replaces the current view (caller holds the state lock); the store's reference to the old one is dropped. */
    private void install(ReadView next) {
        ReadView old = view;
        view = next;
        old.release();
    }

    /** Adds a batch's operations to {@code mem}; the chains of keys it already held go to {@code overwritten} (if not null). */
    private static void apply(MemTable mem, List<MemTable.Chain> overwritten, long firstSeq, int count, byte[] data, int off, int len)
            throws BatchDecoder.Malformed {
        long[] seq = {firstSeq};
        BatchDecoder.forEach(data, off, len, count, (type, d, keyOff, keyLen, valueOff, valueLen) -> {
            byte[] key = Arrays.copyOfRange(d, keyOff, keyOff + keyLen);
            byte[] value = type == WriteBatch.PUT ? Arrays.copyOfRange(d, valueOff, valueOff + valueLen) : null;
            MemTable.Chain chain = mem.add(key, seq[0]++, type, value);
            if (chain != null && overwritten != null) {
                overwritten.add(chain);
            }
        });
    }

    private void refuseAfterFailure() {
        Throwable f = backgroundFailure;
        if (f != null) {
            throw new IllegalStateException("store at " + dir + " refuses writes after an earlier failure: " + f, f);
        }
    }

    /** One writer (or a memtable switch request, with no batch) waiting in, or committed by, a commit group. */
    private static final class PendingWrite {
        final WriteBatch batch;
        final boolean sync;
        final boolean disableWAL;
        /** What the writer waits on for its turn or its group's commit; made (under the commit lock) only if it waits. */
        Condition turn;
        long firstSeq;
        boolean done;
        RuntimeException failure;

        PendingWrite(WriteBatch batch, boolean sync, boolean disableWAL) {
            this.batch = batch;
            this.sync = sync;
            this.disableWAL = disableWAL;
        }

        void rethrow() {
            if (failure != null) {
                throw failure;
            }
        }
    }

    // ---------------------------------------------------------------- reads

    /** The value stored under {@code key}, or {@code null} if there is none. */
    public byte[] get(byte[] key) {
        return get(DEFAULT_READ, key);
    }

    /** The value stored under {@code key} as of the options' snapshot (or now), or {@code null}. */
    public byte[] get(ReadOptions options, byte[] key) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(key, "key");
        checkOpen();
        // A read at the latest state is not registered as a read point: if a version it needed
        // was pruned while it read (its sequence number had gone stale), it reads again.
        boolean unregistered = options.snapshot() == null;
        for (;;) {
            Snapshot at = readPoint(options, false);
            try {
                MemTable.Version found = null;
                for (MemTable m : at.view.tables) {
                    found = m.get(key, at.seq, unregistered);
                    if (found != null) {
                        break;
                    }
                }
                // A read at a snapshot relies on the snapshot's registered read point to keep its
                // versions. A release after readPoint's check unregisters it, and pruning may then
                // drop them while this read walks; the release marks the snapshot released before
                // it unregisters, so a walk that saw such a drop sees the mark here.
                if (!unregistered && options.snapshot().released()) {
                    throw releasedError(options.snapshot());
                }
                if (found == MemTable.STALE) {
                    continue;
                }
                if (found != null) {
                    return found.isDeletion() ? null : found.value.clone();
                }
                Lookup hit = at.view.version.get(key);
                return hit.found() ? hit.valueBytes() : null;
            } finally {
                at.view.release();
            }
        }
    }

    /**
     * The values stored under {@code keys}, in their order ({@code null} where there is none), as
     * RocksJava's {@code multiGetAsList}: all read at one point, so a batch written concurrently is
     * seen whole or not at all. A key may appear more than once.
     */
    public List<byte[]> multiGetAsList(List<byte[]> keys) {
        return multiGetAsList(DEFAULT_READ, keys);
    }

    /** As {@link #multiGetAsList(List)}, at the options' snapshot (or one taken now). */
    public List<byte[]> multiGetAsList(ReadOptions options, List<byte[]> keys) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(keys, "keys");
        for (int i = 0; i < keys.size(); i++) {
            if (keys.get(i) == null) {
                throw new NullPointerException("keys[" + i + "] is null");
            }
        }
        checkOpen();
        List<byte[]> values = new ArrayList<>(keys.size());
        if (options.snapshot() != null) {
            for (byte[] key : keys) {
                values.add(get(options, key));
            }
            return values;
        }
        // One read point for every key: an implicit snapshot, as an iterator takes one. It is not
        // one of the store's snapshots, so a close meanwhile does not release it under the reads
        // (which would fail them as reads at a released snapshot the caller never took).
        Snapshot at = readPoint(DEFAULT_READ, true);
        try (ReadOptions atSnapshot = new ReadOptions().setSnapshot(at)) {
            for (byte[] key : keys) {
                values.add(get(atSnapshot, key));
            }
        } finally {
            at.view.release();
            releaseReadPoint(at.seq, false);
        }
        return values;
    }

    /** An iterator over the latest state (an implicit snapshot taken now). */
    public EverettIterator newIterator() {
        return newIterator(DEFAULT_READ);
    }

    /** An iterator at the options' snapshot (or an implicit one taken now), within their bounds. */
    public EverettIterator newIterator(ReadOptions options) {
        Objects.requireNonNull(options, "options");
        checkOpen();
        Snapshot at = readPoint(options, true);
        ReadView v = at.view;
        try {
            // A memtable empty now holds nothing the iterator can see (whatever it takes later
            // is newer than the read point, and everything older was added before it was
            // published), so it is left out; with every memtable empty (after a flush, say) the
            // segments are the only source and the iterator steps them with no merge at all.
            List<SourceCursor> sources = new ArrayList<>(v.tables.length + 1);
            for (MemTable table : v.tables) {
                if (!table.isEmpty()) {
                    sources.add(new MemTableCursor(table, at.seq));
                }
            }
            byte[] lo = options.lowerBoundView();
            byte[] hi = options.upperBoundView();
            boolean empty = lo != null && hi != null && Arrays.compareUnsigned(lo, hi) >= 0;
            TreeCursor segments = v.version.cursor(empty ? KeyRange.all() : new KeyRange(lo, hi));
            long seq = at.seq;
            Runnable release = () -> {
                v.release();
                releaseReadPoint(seq, false);
            };
            if (sources.isEmpty() && !empty) {
                // The segments alone, opened with the iterator's bounds: the iterator steps them directly.
                return new EverettIterator(this, segments, lo, hi, release);
            }
            sources.add(new TreeSource(segments));
            SourceCursor cursor = sources.size() == 1 ? sources.getFirst() : new MergingCursor(sources.toArray(SourceCursor[]::new));
            return new EverettIterator(this, cursor, lo, hi, release);
        } catch (RuntimeException e) {
            v.release();
            releaseReadPoint(at.seq, false);
            throw e;
        }
    }

    /**
     * The view (retained: the caller releases it) and sequence number a read uses: the options'
     * snapshot, or the current state. An iterator needs the two to match exactly (taken together
     * under the state lock, which a memtable switch also takes) and is registered as a read point
     * (the caller releases it with {@link #releaseReadPoint}); a get may read the view first and
     * the sequence after, since a switch in between only hides writes newer than the view, and a
     * single key read as of the switch is still a committed state.
     */
    private Snapshot readPoint(ReadOptions options, boolean exact) {
        Snapshot s = options.snapshot();
        if (s != null) {
            if (s.db != this) {
                throw new IllegalArgumentException("ReadOptions snapshot belongs to another store");
            }
            if (!exact) {
                if (s.released() || !s.view.tryRetain()) {
                    throw releasedError(s);
                }
                return s;
            }
            stateLock.lock();
            try {
                // Under the lock a release also takes: the snapshot's read point is still registered.
                if (s.released() || !s.view.tryRetain()) {
                    throw releasedError(s);
                }
                registerReadPoint(s.seq);
                return s;
            } finally {
                stateLock.unlock();
            }
        }
        if (!exact) {
            for (;;) {
                ReadView v = view;
                if (v.tryRetain()) {
                    return new Snapshot(this, v, lastPublishedSeq);
                }
                checkOpen(); // a view is only ever fully released once replaced, or at close
            }
        }
        stateLock.lock();
        try {
            checkOpen();
            ReadView v = view;
            v.tryRetain(); // the store holds the current view, so this cannot fail
            long seq = lastPublishedSeq;
            registerReadPoint(seq);
            return new Snapshot(this, v, seq);
        } finally {
            stateLock.unlock();
        }
    }

    private static IllegalArgumentException releasedError(Snapshot s) {
        return new IllegalArgumentException("ReadOptions snapshot (sequence " + s.seq + ") was released");
    }

    /** Registers a read at {@code seq} (under the state lock): memtables keep the versions it sees. */
    private void registerReadPoint(long seq) {
        if (readPointCounts.merge(seq, 1, Integer::sum) == 1) {
            readPointArray = null;
        }
    }

    /**
     * Ends a read at {@code seq} (a snapshot's if {@code snapshot}); if it was the last one there,
     * memtables sweep out the versions only it needed when that is worth a walk ({@link MemTable#prune(MemTable.ReadPoints, boolean)}).
     */
    private void releaseReadPoint(long seq, boolean snapshot) {
        stateLock.lock();
        try {
            if (readPointCounts.merge(seq, -1, Integer::sum) > 0) {
                return;
            }
            readPointCounts.remove(seq);
            readPointArray = null;
        } finally {
            stateLock.unlock();
        }
        if (closed) {
            return;
        }
        ReadView v = view;
        if (v.tryRetain()) {
            try {
                MemTable.ReadPoints keep = null;
                for (MemTable m : v.tables) {
                    if (m.sweepDue(snapshot)) {
                        keep = keep == null ? readPoints() : keep;
                        m.prune(keep, snapshot);
                    }
                }
            } finally {
                v.release();
            }
        }
    }

    /** The read points memtables must keep versions for: the published sequence number and every registered one. */
    private MemTable.ReadPoints readPoints() {
        stateLock.lock();
        try {
            long[] points = readPointArray;
            if (points == null) {
                points = readPointCounts.keySet().stream().mapToLong(Long::longValue).toArray();
                readPointArray = points;
            }
            return new MemTable.ReadPoints(lastPublishedSeq, points);
        } finally {
            stateLock.unlock();
        }
    }

    /** Versions held by the current view's memtables (tests). */
    long memTableVersions() {
        ReadView v = readPoint(DEFAULT_READ, false).view;
        try {
            long n = 0;
            for (MemTable m : v.tables) {
                n += m.versionCount();
            }
            return n;
        } finally {
            v.release();
        }
    }

    // ---------------------------------------------------------------- snapshots

    /** A snapshot of the current state; release it when done. */
    public Snapshot getSnapshot() {
        checkOpen();
        Snapshot s = readPoint(DEFAULT_READ, true); // registered as a read point until released
        snapshots.add(s);
        return s;
    }

    /** Releases {@code snapshot}, letting go of the memtables and files it kept; releasing one twice does nothing. */
    public void releaseSnapshot(Snapshot snapshot) {
        Objects.requireNonNull(snapshot, "snapshot");
        if (snapshot.db != this) {
            throw new IllegalArgumentException("snapshot belongs to another store");
        }
        boolean first;
        stateLock.lock();
        try {
            first = snapshot.markReleased(); // under the lock readPoint checks it under
        } finally {
            stateLock.unlock();
        }
        if (first) {
            snapshots.remove(snapshot);
            snapshot.view.release();
            releaseReadPoint(snapshot.seq, true);
        }
    }

    /** The sequence number of the last committed write. */
    public long getLatestSequenceNumber() {
        checkOpen();
        return lastPublishedSeq;
    }

    // ---------------------------------------------------------------- maintenance

    /**
     * Writes the memtable to segments and waits until it (and every memtable switched out before
     * it) is flushed, as RocksDB's {@code flush} with {@code waitForFlush}. Afterwards every write
     * acknowledged before the call is in segments, including writes made with the log disabled.
     *
     * @throws IllegalStateException the store is closed or a background job failed
     */
    public void flush() {
        checkOpen();
        requireWritable("flush");
        commit(new PendingWrite(null, false, false));
        long target;
        stateLock.lock();
        try {
            target = flushesDone + view.immutables.size();
            while (flushesDone < target) {
                if (backgroundFailure != null) {
                    refuseAfterFailure();
                }
                if (closing) {
                    throw closedError();
                }
                stateChanged.awaitUninterruptibly();
            }
        } finally {
            stateLock.unlock();
        }
    }

    /**
     * Compacts the whole key range into the bottom of the tree, as RocksDB's {@code compactRange()}
     * with a forced bottommost compaction: first a {@link #flush()}, then every segment merged into
     * one sorted run (split at the target file size in the partitioned layout) with tombstones and
     * every value they hide dropped. Background compactions pause meanwhile.
     *
     * @throws IllegalStateException if the store is closed, or a concurrent {@link #close()}
     *     cancelled the compaction before it completed (as RocksDB's fails with "shutdown in
     *     progress"; close waits for it to stop): its inputs then stay as they were (the flush
     *     before it stays)
     */
    public void compactRange() {
        compactRange(null, null);
    }

    /**
     * Compacts the keys in {@code [begin, end]} (both inclusive; null: unbounded on that side) into
     * the bottom of the tree, as RocksDB's {@code compactRange(begin, end)} with a forced
     * bottommost compaction: first a {@link #flush()} if a memtable holds a key of the range (as
     * RocksDB's does for a range bounded on both sides; for a half-open one it flushes whatever
     * the memtables hold), then every segment holding a key of the range merged
     * into the bottom level with tombstones and every value they hide dropped, with
     * the segments that must move with them (level-0 segments overlapping those taken, and on each
     * level below the segments overlapping everything taken above). Segments outside the range
     * stay where they are; the whole-run layout, whose runs each span every key, compacts every
     * run if any holds a key of the range. Background compactions pause meanwhile.
     *
     * <p>A range whose {@code begin} sorts after its {@code end} holds no key: nothing is done, as
     * RocksDB accepts it without error.
     *
     * @throws IllegalStateException if the store is closed, or a concurrent {@link #close()}
     *     cancelled the compaction before it completed (close waits for it to stop): its inputs
     *     then stay as they were (the flush before it stays)
     */
    public void compactRange(byte[] begin, byte[] end) {
        checkOpen();
        requireWritable("compact");
        if (begin != null && end != null && Arrays.compareUnsigned(begin, end) > 0) {
            return;
        }
        byte[] lo = begin == null ? null : begin.clone();
        byte[] hi = end == null ? null : end.clone();
        if (memTablesHoldKeyIn(lo, hi)) {
            flush();
        }
        stateLock.lock();
        try {
            manualCompactions++;
        } finally {
            stateLock.unlock();
        }
        try {
            background.compactRange(lo, hi);
        } finally {
            stateLock.lock();
            try {
                manualCompactions--;
                stateChanged.signalAll();
            } finally {
                stateLock.unlock();
            }
        }
    }

    /**
     * Whether the active memtable or one waiting for its flush holds a key of {@code [lo, hi]}: a
     * manual compaction flushes first only then, and a range the memtables do not reach leaves
     * them as they are. RocksDB's {@code CompactRange} makes the same check for a range bounded
     * on both sides, and flushes for every half-open one; the data compacted is the same.
     */
    private boolean memTablesHoldKeyIn(byte[] lo, byte[] hi) {
        ReadView v = view;
        if (v.active.holdsKeyIn(lo, hi)) {
            return true;
        }
        for (MemTable m : v.immutables) {
            if (m.holdsKeyIn(lo, hi)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A store property, as RocksDB's {@code getProperty}: {@code everett.stats} (a multi-line
     * report: files and bytes per level, write amplification, flush and compaction work, stalls),
     * {@code everett.num-files-at-level<N>}, {@code everett.estimate-num-keys} (live keys, estimated
     * from record and tombstone counts), {@code everett.total-segment-bytes}.
     *
     * @throws IllegalArgumentException for an unknown property (the message lists the known ones)
     */
    public String getProperty(String property) {
        Objects.requireNonNull(property, "property");
        checkOpen();
        String levelPrefix = "everett.num-files-at-level";
        ReadView v = readPoint(DEFAULT_READ, false).view;
        try {
            if (property.startsWith(levelPrefix)) {
                String n = property.substring(levelPrefix.length());
                int max = options.levelLayout() == Layout.PARTITIONED ? options.numLevels() : MAX_REPORTED_LEVELS;
                if (!n.isEmpty() && n.length() <= 2 && n.chars().allMatch(Character::isDigit) && Integer.parseInt(n) < max) {
                    int level = Integer.parseInt(n);
                    return Integer.toString(level < v.version.levelCount() ? v.version.level(level).size() : 0);
                }
                throw new IllegalArgumentException("property " + property + ": level must be 0…" + (max - 1));
            }
            return switch (property) {
                case "everett.stats" -> statsReport(v);
                case "everett.estimate-num-keys" -> Long.toString(estimateNumKeys(v));
                case "everett.total-segment-bytes" -> Long.toString(segmentBytes(v.version));
                default -> throw new IllegalArgumentException("unknown property " + property + " (known: everett.stats, "
                        + "everett.num-files-at-level<N>, everett.estimate-num-keys, everett.total-segment-bytes)");
            };
        } finally {
            v.release();
        }
    }

    private static long estimateNumKeys(ReadView v) {
        long n = 0;
        for (MemTable m : v.tables) {
            n += m.keyCount();
        }
        for (int level = 0; level < v.version.levelCount(); level++) {
            for (SegmentMeta m : v.version.level(level)) {
                n += m.records() - 2 * m.tombstones(); // a tombstone also cancels a record below it, as RocksDB estimates
            }
        }
        return Math.max(0, n);
    }

    private static long segmentBytes(Version version) {
        long bytes = 0;
        for (int level = 0; level < version.levelCount(); level++) {
            bytes += version.levelBytes(level);
        }
        return bytes;
    }

    private int level0Files(Version version) {
        return options.levelLayout() == Layout.PARTITIONED ? version.level(0).size() : version.levelCount();
    }

    private String statsReport(ReadView v) {
        StringBuilder s = new StringBuilder();
        s.append("store: ").append(dir).append(readOnly ? " (read-only)" : "").append('\n');
        s.append("policy: ").append(StoreDescriptor.describe(policy)).append(", layout ").append(options.levelLayout()).append('\n');
        s.append("sequence: ").append(lastPublishedSeq).append('\n');
        s.append("level  files  bytes\n");
        for (int level = 0; level < v.version.levelCount(); level++) {
            s.append(String.format("%5d  %5d  %d%n", level, v.version.level(level).size(), v.version.levelBytes(level)));
        }
        s.append("segment bytes: ").append(segmentBytes(v.version)).append(", live segments ").append(tree.liveSegmentCount()).append('\n');
        s.append("memtable: ").append(v.active.keyCount()).append(" keys, ").append(v.active.versionCount()).append(" versions, ")
                .append(v.active.approximateBytes()).append(" bytes; ").append(v.immutables.size()).append(" immutable waiting for flush\n");
        s.append("snapshots: ").append(snapshots.size()).append('\n');
        s.append(String.format("writes: %d operations, %d bytes, %d commit groups; log %d bytes, %d syncs%n",
                stats.writes.sum(), stats.userBytes.sum(), stats.commitGroups.sum(), stats.walBytes.sum(), stats.walSyncs.sum()));
        s.append(String.format("flushes: %d, %d records, %d bytes, %s; %d single delete/put pairs cancelled%n",
                stats.flushes.sum(), stats.flushRecords.sum(), stats.flushBytes.sum(), StoreStats.millis(stats.flushNanos.sum()),
                stats.singleDeletesCancelled.sum()));
        s.append(String.format("compactions: %d (%d cancelled), %d bytes read, %d bytes written, %s%n",
                stats.compactions.sum(), stats.compactionsCancelled.sum(), stats.compactionBytesRead.sum(),
                stats.compactionBytesWritten.sum(), StoreStats.millis(stats.compactionNanos.sum())));
        s.append(String.format("write amplification: %.2f (segment bytes written per byte flushed)%n", stats.writeAmplification()));
        s.append(String.format("stalls: %d slowdowns (%s), stopped %s on level 0, %s on memtables%n", stats.slowdowns.sum(),
                StoreStats.millis(stats.slowdownNanos.sum()), StoreStats.millis(stats.stopNanos.sum()),
                StoreStats.millis(stats.memtableStallNanos.sum())));
        if (readOnly) {
            s.append("write-ahead log: none (open read-only: the logs were replayed in memory)\n");
        } else {
            s.append("write-ahead log: ").append(log.path().getFileName()).append(", ").append(log.bytesWritten()).append(" bytes\n");
        }
        for (LogReplay.Result r : recovery) {
            s.append("recovered ").append(r.file().getFileName()).append(": ").append(r.batches()).append(" batches");
            if (r.zeroTail()) {
                s.append(", ").append(r.droppedBytes()).append(" bytes of zeros after the last record ")
                        .append(readOnly ? "ignored from offset " : "cut at offset ").append(r.validBytes())
                        .append(" (room the mapped log had taken ahead)");
            } else if (r.droppedBytes() > 0) {
                s.append(", torn tail of ").append(r.droppedBytes()).append(" bytes dropped at offset ").append(r.validBytes())
                        .append(readOnly ? " (left in the file: this open is read-only)" : "");
            }
            s.append('\n');
        }
        Throwable f = backgroundFailure;
        if (f != null) {
            s.append("failed: ").append(f).append('\n');
        }
        return s.toString();
    }

    /** Segments in the current version, and segments whose files exist (the current version's and those still pinned). */
    int[] segmentCounts() {
        ReadView v = readPoint(DEFAULT_READ, false).view;
        try {
            int n = 0;
            for (int level = 0; level < v.version.levelCount(); level++) {
                n += v.version.level(level).size();
            }
            return new int[] {n, tree.liveSegmentCount()};
        } finally {
            v.release();
        }
    }

    /** Compactions running now. */
    int runningCompactions() {
        return readOnly ? 0 : background.running();
    }

    /** What the last open replayed from each log. */
    List<LogReplay.Result> recovery() {
        return recovery;
    }

    // ---------------------------------------------------------------- background hooks

    LsmTree tree() {
        return tree;
    }

    StoreStats stats() {
        return stats;
    }

    boolean closing() {
        return closing;
    }

    /** The oldest memtable waiting for its flush, or null; waits up to {@code millis} for one. */
    MemTable awaitImmutable(long millis) throws InterruptedException {
        stateLock.lock();
        try {
            if (view.immutables.isEmpty() && !closing) {
                stateChanged.await(millis, TimeUnit.MILLISECONDS);
            }
            return view.immutables.isEmpty() || closing ? null : view.immutables.getLast();
        } finally {
            stateLock.unlock();
        }
    }

    /** Host state for the tree once {@code flushed} is in segments. */
    static byte[] hostStateAfter(MemTable flushed) {
        return HostState.encode(flushed.nextLogNumber(), flushed.lastSeqAtFreeze());
    }

    /** A flush of {@code flushed} landed: retire it from the view, delete the logs it alone needed. */
    void flushInstalled(MemTable flushed) {
        stateLock.lock();
        try {
            ReadView v = view;
            List<MemTable> imms = new ArrayList<>(v.immutables);
            if (imms.getLast() != flushed) {
                throw new IllegalStateException("flushed a memtable that is not the oldest immutable one");
            }
            imms.removeLast();
            install(new ReadView(v.active, imms, tree.current()));
            flushesDone++;
            stateChanged.signalAll();
        } finally {
            stateLock.unlock();
        }
        try {
            for (Path p : files.list(dir)) {
                long n = WriteAheadLog.numberOf(p);
                if (n >= 0 && n < flushed.nextLogNumber()) {
                    files.delete(p);
                }
            }
        } catch (IOException e) {
            // The manifest no longer needs them; the next open deletes what is left.
        }
    }

    /** A compaction landed: read the tree's new version from now on. */
    void versionChanged() {
        stateLock.lock();
        try {
            ReadView v = view;
            install(new ReadView(v.active, v.immutables, tree.current()));
            stateChanged.signalAll();
        } finally {
            stateLock.unlock();
        }
    }

    /** Background compactions wait while a manual compaction runs. */
    boolean manualCompactionRunning() {
        stateLock.lock();
        try {
            return manualCompactions > 0;
        } finally {
            stateLock.unlock();
        }
    }

    /** Wakes waiters without a state change (background threads polling, close). */
    void signalState() {
        stateLock.lock();
        try {
            stateChanged.signalAll();
        } finally {
            stateLock.unlock();
        }
    }

    /** Waits up to {@code millis} for a state change. */
    void awaitState(long millis) throws InterruptedException {
        stateLock.lock();
        try {
            if (!closing) {
                stateChanged.await(millis, TimeUnit.MILLISECONDS);
            }
        } finally {
            stateLock.unlock();
        }
    }

    /** A background job failed: writes are refused from now on, and waiters wake to see it. */
    void backgroundFailed(Throwable t) {
        if (backgroundFailure == null) {
            backgroundFailure = t;
        }
        signalState();
    }

    // ---------------------------------------------------------------- lifecycle

    /**
     * Waits for writes in flight (writers stalled by back-pressure get {@link IllegalStateException})
     * and the flush under way, cancels running compactions (their
     * outputs are deleted), forces and closes the log, closes the tree and releases the store's
     * lock. Memtables not yet flushed are in the log and come back at the next open. Snapshots
     * and iterators still open become unusable. Closing twice does nothing.
     */
    @Override
    public void close() {
        if (readOnly) {
            closeReadOnly();
            return;
        }
        commitLock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            // Writers waiting out a stall give up (closing) instead of holding close up; the rest commit.
            closing = true;
            signalState();
            while (!queue.isEmpty()) {
                idle.awaitUninterruptibly();
            }
        } finally {
            commitLock.unlock();
        }
        Throwable failure = null;
        try {
            background.stop();
        } catch (RuntimeException e) {
            failure = e;
        }
        // A compactRange runs on its caller's thread: stop() cancelled its job, which ends at its
        // next step. Nothing it reads or writes may be closed under it, so wait until it lets go.
        stateLock.lock();
        try {
            while (manualCompactions > 0) {
                stateChanged.awaitUninterruptibly();
            }
        } finally {
            stateLock.unlock();
        }
        if (unloggedWrites && backgroundFailure == null && failure == null) {
            try {
                flushAtClose();
            } catch (IOException | RuntimeException e) {
                failure = e;
                backgroundFailure = e;
            }
        }
        try {
            failure = attempt(failure, this::releaseReadState);
            failure = attempt(failure, () -> {
                if (!logFailed) {
                    log.force();
                }
                log.close();
            });
            failure = attempt(failure, tree::close);
        } finally {
            storeLock.release(); // whatever failed above: a lock kept would make the store unopenable in this process
        }
        if (failure != null) {
            throw closeFailed(failure);
        }
    }

    /**
     * What close throws after {@code failure}: an {@link UncheckedIOException} naming the store,
     * around the I/O error itself where there is one (not wrapped twice).
     */
    private UncheckedIOException closeFailed(Throwable failure) {
        IOException io = failure instanceof IOException e ? e
                : failure instanceof UncheckedIOException u ? u.getCause() : new IOException(failure);
        UncheckedIOException out = new UncheckedIOException("closing store at " + dir + " failed: " + failure, io);
        if (failure instanceof UncheckedIOException) {
            for (Throwable later : failure.getSuppressed()) {
                out.addSuppressed(later); // the wrapper itself is dropped: keep what was added to it
            }
        }
        return out;
    }

    /** Close of a read-only store: nothing to wait for, force or flush. */
    private void closeReadOnly() {
        commitLock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
        } finally {
            commitLock.unlock();
        }
        Throwable failure;
        try {
            failure = attempt(null, this::releaseReadState);
            failure = attempt(failure, tree::close);
        } finally {
            storeLock.release();
        }
        if (failure != null) {
            throw closeFailed(failure);
        }
    }

    /** One step of closing that must not stop the steps after it. */
    private interface CloseStep {
        void run() throws IOException;
    }

    /** Runs {@code step}; returns the first failure so far ({@code failure}, or the step's), later ones added to it as suppressed. */
    private static Throwable attempt(Throwable failure, CloseStep step) {
        try {
            step.run();
        } catch (IOException | RuntimeException e) {
            if (failure == null) {
                return e;
            }
            failure.addSuppressed(e);
        }
        return failure;
    }

    /**
     * After an open failed with {@code failure}: closes what it had opened (each further failure
     * added to it as suppressed) and releases the lock last, so the store can be opened again.
     */
    private void abandonOpen(Throwable failure) {
        try {
            if (background != null) {
                // Its threads may have started: they end once they see the store closing.
                closed = true;
                closing = true;
                signalState();
                suppressing(failure, background::stop);
            }
            if (view != null) {
                suppressing(failure, view::release);
            }
            if (log != null) {
                suppressing(failure, log::close);
            }
            if (tree != null) {
                suppressing(failure, tree::close);
            }
        } finally {
            suppressing(failure, storeLock::release);
        }
    }

    /** Runs {@code step} after {@code failure}, which whatever it throws (errors included) is added to. */
    private static void suppressing(Throwable failure, CloseStep step) {
        try {
            step.run();
        } catch (Throwable t) {
            failure.addSuppressed(t);
        }
    }

    /** At close: the snapshots still open and the current view, so the tree's versions can go. */
    private void releaseReadState() {
        for (Snapshot s : List.copyOf(snapshots)) {
            releaseSnapshot(s);
        }
        stateLock.lock();
        try {
            view.release();
        } finally {
            stateLock.unlock();
        }
    }

    /**
     * Writes every memtable to segments, oldest first (close, after the background stopped, when
     * writes skipped the log): what only the memtables hold would otherwise be lost by a clean
     * close, where RocksDB flushes at shutdown for the same reason. The active memtable, if it
     * holds anything, is switched out first (to a new log, so the last flush's edit names a log
     * that exists); each flush is the flush thread's own ({@link #flushOldest}).
     */
    private void flushAtClose() throws IOException {
        if (!view.active.isEmpty()) {
            switchMemTable();
        }
        while (!view.immutables.isEmpty()) {
            flushOldest(view.immutables.getLast());
        }
    }

    /**
     * Writes {@code m}, the oldest immutable memtable, to segments and retires it (the flush
     * thread, and close after the background stopped).
     */
    void flushOldest(MemTable m) throws IOException {
        long t = System.nanoTime();
        MemTableEntries entries = new MemTableEntries(m);
        List<SegmentMeta> added = tree.flush(entries, hostStateAfter(m));
        long bytes = 0;
        for (SegmentMeta s : added) {
            bytes += s.fileBytes();
        }
        stats.flushes.increment();
        stats.flushBytes.add(bytes);
        stats.flushRecords.add(entries.written());
        stats.singleDeletesCancelled.add(entries.cancelled());
        stats.flushNanos.add(System.nanoTime() - t);
        flushInstalled(m);
    }

    void checkOpen() {
        if (closed) {
            throw closedError();
        }
    }

    private void requireWritable(String what) {
        if (readOnly) {
            throw new UnsupportedOperationException("EverettDB at " + dir + " is open read-only: cannot " + what);
        }
    }

    /** True if opened with {@link #openReadOnly}. */
    public boolean isReadOnly() {
        return readOnly;
    }

    private IllegalStateException closedError() {
        return new IllegalStateException("EverettDB at " + dir + " is closed");
    }

    /** What a manual operation ({@code what}) that close stopped before it completed throws. */
    IllegalStateException cancelledByClose(String what) {
        return new IllegalStateException("EverettDB at " + dir + " is closed: " + what + " was cancelled before it completed");
    }

    /** The directory the store lives in. */
    public Path directory() {
        return dir;
    }

    /**
     * What the store keeps in each manifest edit it makes: the first log recovery still needs and
     * the last sequence number the flushed segments cover (16 bytes, little-endian).
     */
    record HostState(long minLogNumber, long lastSeq) {
        static byte[] encode(long minLogNumber, long lastSeq) {
            return ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putLong(minLogNumber).putLong(lastSeq).array();
        }

        static HostState decode(byte[] b, Path manifestDir) {
            if (b.length == 0) {
                return new HostState(0, 0);
            }
            if (b.length != 16) {
                throw new CorruptFileException(manifestDir, 0, "the manifest's host state is " + b.length + " bytes, 16 expected");
            }
            ByteBuffer in = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
            long minLog = in.getLong();
            long seq = in.getLong();
            if (minLog < 0 || seq < 0) {
                throw new CorruptFileException(manifestDir, 0, "the manifest's host state holds a negative log number or sequence");
            }
            return new HostState(minLog, seq);
        }
    }
}

package dev.everett.store;

import dev.everett.api.Policy;
import dev.everett.api.PolicyMismatchException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * An embedded, ordered key-value store with RocksJava's shape: {@code byte[]} keys and values
 * (keys compared as unsigned bytes; the empty key and the empty value are ordinary), point writes,
 * atomic batches, snapshots and bidirectional iterators with bounds.
 *
 * <pre>{@code
 * try (EverettDB db = EverettDB.open(dir)) {
 *     db.put(key, value);
 *     byte[] v = db.get(key);            // null when absent
 * }
 * }</pre>
 *
 * <p>Writes go to a write-ahead log (checksummed records; concurrent writers share one append and
 * one force as a commit group) and then to the memtable. Thread-safe: any number of threads may
 * read and write at once. Closing waits for writes in flight; any use after close throws
 * {@link IllegalStateException}.
 */
public final class EverettDB implements AutoCloseable {

    /** Number of levels reported by {@code everett.num-files-at-level<N>}. */
    static final int NUM_LEVELS = 7;
    private static final WriteOptions DEFAULT_WRITE = new WriteOptions();
    private static final ReadOptions DEFAULT_READ = new ReadOptions();

    private final Path dir;
    private final StoreFiles files;
    private final Policy policy;
    private final FileChannel lockChannel;
    private final FileLock lock;

    /** Guards the commit queue, sequence allocation and close. */
    private final ReentrantLock commitLock = new ReentrantLock();
    private final Condition idle = commitLock.newCondition();
    private final ArrayDeque<PendingWrite> queue = new ArrayDeque<>();
    private long lastAllocatedSeq;
    private volatile long lastPublishedSeq;
    private volatile Throwable writeFailure;

    /** Taken to read the view and the published sequence together, and to install a new view. */
    private final Object viewLock = new Object();
    private volatile ReadView view;
    private WriteAheadLog log;
    private long nextMemTableId;

    private final Set<Snapshot> snapshots = ConcurrentHashMap.newKeySet();
    private final List<LogReplay.Result> recovery;
    private volatile boolean closed;

    /** Opens (creating if missing) the store in {@code dir} with default options. */
    public static EverettDB open(Path dir) {
        return open(dir, new DBOptions());
    }

    /**
     * Opens the store in {@code dir}. Creates it if missing (unless
     * {@link DBOptions#setCreateIfMissing(boolean) createIfMissing} is false), then replays its
     * write-ahead logs: a log whose last record was cut short by a crash recovers to the last
     * complete record (reported by {@code everett.stats}); damage anywhere else is refused with a
     * {@link CorruptFileException} naming the file, offset and rule.
     *
     * @throws IllegalArgumentException an option is invalid (the message names it), or the store is missing or exists against the options
     * @throws PolicyMismatchException  the store was created with another policy (names the file and the policy it holds)
     * @throws IllegalStateException    the store is already open (in this or another process)
     * @throws UncheckedIOException     the file system failed
     */
    public static EverettDB open(Path dir, DBOptions options) {
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(options, "options");
        options.validate();
        try {
            return new EverettDB(dir, options);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open store at " + dir + ": " + e.getMessage(), e);
        }
    }

    private EverettDB(Path dir, DBOptions options) throws IOException {
        this.dir = dir;
        this.files = options.storeFiles();
        if (!Files.isDirectory(dir)) {
            if (!options.createIfMissing()) {
                throw new IllegalArgumentException("createIfMissing: " + dir + " does not exist and createIfMissing is false");
            }
            Files.createDirectories(dir);
        }
        this.lockChannel = FileChannel.open(dir.resolve("LOCK"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock l;
        try {
            l = lockChannel.tryLock();
        } catch (OverlappingFileLockException e) {
            l = null;
        }
        if (l == null) {
            lockChannel.close();
            throw new IllegalStateException("store at " + dir + " is already open (its LOCK file is held)");
        }
        this.lock = l;
        boolean ok = false;
        try {
            this.policy = openDescriptor(options);
            this.recovery = recover();
            ok = true;
        } finally {
            if (!ok) {
                releaseLock();
            }
        }
    }

    private Policy openDescriptor(DBOptions options) throws IOException {
        Path file = dir.resolve(StoreDescriptor.FILE_NAME);
        if (files.exists(file)) {
            if (options.errorIfExists()) {
                throw new IllegalArgumentException("errorIfExists: a store already exists at " + dir);
            }
            Policy stored = StoreDescriptor.read(files, dir);
            if (!stored.equals(options.policy())) {
                throw new PolicyMismatchException(file, "policy", StoreDescriptor.describe(options.policy()), StoreDescriptor.describe(stored));
            }
            return stored;
        }
        if (!options.createIfMissing()) {
            throw new IllegalArgumentException("createIfMissing: " + dir + " holds no store and createIfMissing is false");
        }
        for (Path p : files.list(dir)) {
            if (WriteAheadLog.numberOf(p) >= 0) {
                throw new CorruptFileException(file, 0, "descriptor is missing while write-ahead log " + p.getFileName() + " exists");
            }
        }
        StoreDescriptor.write(files, dir, options.policy());
        return options.policy();
    }

    /** Replays every log into a fresh memtable, cuts a torn tail off the last one, and starts a new log. */
    private List<LogReplay.Result> recover() throws IOException {
        List<Path> logs = new ArrayList<>();
        for (Path p : files.list(dir)) {
            if (WriteAheadLog.numberOf(p) >= 0) {
                logs.add(p);
            }
        }
        logs.sort((a, b) -> Long.compare(WriteAheadLog.numberOf(a), WriteAheadLog.numberOf(b)));
        MemTable mem = new MemTable(nextMemTableId++);
        List<LogReplay.Result> results = new ArrayList<>();
        long seq = 0;
        for (int i = 0; i < logs.size(); i++) {
            Path p = logs.get(i);
            LogReplay.Result r = LogReplay.replay(files, p, seq, (firstSeq, count, data, off, len) -> apply(mem, firstSeq, count, data, off, len));
            if (r.droppedBytes() > 0) {
                if (i != logs.size() - 1) {
                    throw new CorruptFileException(p, r.validBytes(), "log ends in a torn record but a later log ("
                            + logs.get(i + 1).getFileName() + ") exists; logs are forced before the next is started, so this is damage, not a crash");
                }
                files.truncate(p, r.validBytes());
            }
            seq = r.lastSeq();
            results.add(r);
        }
        long lastLog = logs.isEmpty() ? 0 : WriteAheadLog.numberOf(logs.getLast());
        this.log = WriteAheadLog.create(files, dir, lastLog + 1);
        this.lastAllocatedSeq = seq;
        this.lastPublishedSeq = seq;
        this.view = new ReadView(mem, List.of());
        return List.copyOf(results);
    }

    // ---------------------------------------------------------------- writes

    /** Stores {@code value} under {@code key}. */
    public void put(byte[] key, byte[] value) {
        put(DEFAULT_WRITE, key, value);
    }

    /** Stores {@code value} under {@code key} with the given durability. */
    public void put(WriteOptions options, byte[] key, byte[] value) {
        write(options, new WriteBatch().put(key, value));
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
     * visible to reads.
     *
     * @throws UncheckedIOException  the log append failed; the store then refuses further writes
     * @throws IllegalStateException the store is closed, or an earlier log append failed
     */
    public void write(WriteOptions options, WriteBatch batch) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(batch, "batch");
        checkOpen();
        if (batch.count() == 0) {
            return;
        }
        PendingWrite w = new PendingWrite(batch, options.sync() && !options.disableWAL(), options.disableWAL(), commitLock.newCondition());
        List<PendingWrite> group;
        commitLock.lock();
        try {
            if (closed) {
                throw closedError();
            }
            refuseAfterFailure();
            queue.addLast(w);
            while (!w.done && queue.peekFirst() != w) {
                w.turn.awaitUninterruptibly();
            }
            if (w.done) {
                w.rethrow();
                return;
            }
            // This writer leads: it commits every write queued behind it (within a byte budget).
            group = new ArrayList<>();
            long bytes = 0;
            for (PendingWrite p : queue) {
                if (!group.isEmpty() && bytes + p.batch.size() > MAX_GROUP_BYTES) {
                    break;
                }
                p.firstSeq = lastAllocatedSeq + 1;
                lastAllocatedSeq += p.batch.count();
                bytes += p.batch.size();
                group.add(p);
            }
        } finally {
            commitLock.unlock();
        }
        RuntimeException failure = commitGroup(group);
        commitLock.lock();
        try {
            if (failure == null) {
                lastPublishedSeq = group.getLast().firstSeq + group.getLast().batch.count() - 1;
            }
            for (PendingWrite p : group) {
                queue.pollFirst();
                p.failure = failure;
                p.done = true;
                if (p != w) {
                    p.turn.signal();
                }
            }
            PendingWrite head = queue.peekFirst();
            if (head != null) {
                head.turn.signal();
            } else {
                idle.signalAll();
            }
        } finally {
            commitLock.unlock();
        }
        w.rethrow();
    }

    /** A commit group's largest total batch size (a bigger single batch commits alone). */
    private static final long MAX_GROUP_BYTES = 1 << 20;

    /** Logs and applies a group (leader only, outside the commit lock); returns the failure or null. */
    private RuntimeException commitGroup(List<PendingWrite> group) {
        try {
            boolean anyLogged = false;
            boolean sync = false;
            log.beginGroup();
            for (PendingWrite p : group) {
                if (!p.disableWAL) {
                    log.addRecord(p.firstSeq, p.batch.count(), p.batch.data(), p.batch.size());
                    anyLogged = true;
                }
                sync |= p.sync;
            }
            if (anyLogged) {
                log.writeGroup(sync);
            }
        } catch (IOException | RuntimeException e) {
            writeFailure = e;
            return new UncheckedIOException("write-ahead log append to " + log.path() + " failed; the store refuses further writes",
                    e instanceof IOException io ? io : new IOException(e));
        }
        MemTable mem = view.active;
        for (PendingWrite p : group) {
            try {
                apply(mem, p.firstSeq, p.batch.count(), p.batch.data(), 0, p.batch.size());
            } catch (BatchDecoder.Malformed m) {
                // A batch we encoded ourselves always decodes; reaching here is a bug, not bad input.
                throw new AssertionError("write batch does not decode at byte " + m.at + ": " + m.getMessage(), m);
            }
        }
        return null;
    }

    private static void apply(MemTable mem, long firstSeq, int count, byte[] data, int off, int len) throws BatchDecoder.Malformed {
        long[] seq = {firstSeq};
        BatchDecoder.forEach(data, off, len, count, (type, d, keyOff, keyLen, valueOff, valueLen) -> {
            byte[] key = Arrays.copyOfRange(d, keyOff, keyOff + keyLen);
            byte[] value = type == WriteBatch.PUT ? Arrays.copyOfRange(d, valueOff, valueOff + valueLen) : null;
            mem.add(key, seq[0]++, type, value);
        });
    }

    private void refuseAfterFailure() {
        Throwable f = writeFailure;
        if (f != null) {
            throw new IllegalStateException("store at " + dir + " refuses writes: an earlier write-ahead log append failed (" + f + ")", f);
        }
    }

    /** One writer waiting in, or committed by, a commit group. */
    private static final class PendingWrite {
        final WriteBatch batch;
        final boolean sync;
        final boolean disableWAL;
        final Condition turn;
        long firstSeq;
        boolean done;
        RuntimeException failure;

        PendingWrite(WriteBatch batch, boolean sync, boolean disableWAL, Condition turn) {
            this.batch = batch;
            this.sync = sync;
            this.disableWAL = disableWAL;
            this.turn = turn;
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
        Snapshot at = readPoint(options, false);
        for (MemTable m : at.view.tables) {
            MemTable.Entry e = m.get(key, at.seq);
            if (e != null) {
                return e.isDeletion() ? null : e.value().clone();
            }
        }
        return null;
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
        MemTable[] tables = at.view.tables;
        SourceCursor[] sources = new SourceCursor[tables.length];
        for (int i = 0; i < tables.length; i++) {
            sources[i] = new MemTableCursor(tables[i], at.seq);
        }
        SourceCursor merged = sources.length == 1 ? sources[0] : new MergingCursor(sources);
        return new EverettIterator(this, merged, options.lowerBoundView(), options.upperBoundView(), () -> { });
    }

    // ---------------------------------------------------------------- snapshots

    /** A snapshot of the current state; release it when done. */
    public Snapshot getSnapshot() {
        checkOpen();
        Snapshot s;
        synchronized (viewLock) {
            s = new Snapshot(this, view, lastPublishedSeq);
        }
        snapshots.add(s);
        return s;
    }

    /** Releases {@code snapshot}; releasing one twice does nothing. */
    public void releaseSnapshot(Snapshot snapshot) {
        Objects.requireNonNull(snapshot, "snapshot");
        if (snapshot.db != this) {
            throw new IllegalArgumentException("snapshot belongs to another store");
        }
        if (snapshot.markReleased()) {
            snapshots.remove(snapshot);
        }
    }

    /** The sequence number of the last committed write. */
    public long getLatestSequenceNumber() {
        checkOpen();
        return lastPublishedSeq;
    }

    /**
     * The view and sequence number a read uses: the options' snapshot, or the current state. An
     * iterator needs the two to match exactly (taken together under the view lock); a get may read
     * the view first and the sequence after, since a memtable switch in between only hides writes
     * newer than the view, and a single key read as of the switch is still a committed state.
     */
    private Snapshot readPoint(ReadOptions options, boolean exact) {
        Snapshot s = options.snapshot();
        if (s != null) {
            if (s.db != this) {
                throw new IllegalArgumentException("ReadOptions snapshot belongs to another store");
            }
            if (s.released()) {
                throw new IllegalArgumentException("ReadOptions snapshot (sequence " + s.seq + ") was released");
            }
            return s;
        }
        if (!exact) {
            ReadView v = view;
            return new Snapshot(this, v, lastPublishedSeq);
        }
        synchronized (viewLock) {
            return new Snapshot(this, view, lastPublishedSeq);
        }
    }

    // ---------------------------------------------------------------- maintenance

    /**
     * Makes every acknowledged write durable: forces the write-ahead log (writes made with the log
     * disabled stay in memory until a flush to segments writes them out).
     */
    public void flush() {
        checkOpen();
        try {
            log.force(); // every acknowledged write is already appended; forcing may run beside a commit's append
        } catch (IOException e) {
            throw new UncheckedIOException("cannot force write-ahead log " + log.path(), e);
        }
    }

    /** Compacts the whole key range. With every record still in the memtable there is nothing on disk to compact. */
    public void compactRange() {
        checkOpen();
    }

    /**
     * A store property, as RocksDB's {@code getProperty}: {@code everett.stats} (a multi-line
     * report), {@code everett.num-files-at-level<N>}, {@code everett.estimate-num-keys},
     * {@code everett.total-segment-bytes}.
     *
     * @throws IllegalArgumentException for an unknown property (the message lists the known ones)
     */
    public String getProperty(String property) {
        Objects.requireNonNull(property, "property");
        checkOpen();
        String levelPrefix = "everett.num-files-at-level";
        if (property.startsWith(levelPrefix)) {
            String n = property.substring(levelPrefix.length());
            if (!n.isEmpty() && n.length() <= 2 && n.chars().allMatch(Character::isDigit) && Integer.parseInt(n) < NUM_LEVELS) {
                return "0";
            }
            throw new IllegalArgumentException("property " + property + ": level must be 0…" + (NUM_LEVELS - 1));
        }
        return switch (property) {
            case "everett.stats" -> stats();
            case "everett.estimate-num-keys" -> Long.toString(estimateNumKeys());
            case "everett.total-segment-bytes" -> "0";
            default -> throw new IllegalArgumentException("unknown property " + property + " (known: everett.stats, "
                    + "everett.num-files-at-level<N>, everett.estimate-num-keys, everett.total-segment-bytes)");
        };
    }

    private long estimateNumKeys() {
        long n = 0;
        for (MemTable m : view.tables) {
            n += m.entryCount();
        }
        return n;
    }

    private String stats() {
        ReadView v = view;
        StringBuilder s = new StringBuilder();
        s.append("store: ").append(dir).append('\n');
        s.append("policy: ").append(StoreDescriptor.describe(policy)).append('\n');
        s.append("sequence: ").append(lastPublishedSeq).append('\n');
        s.append("memtable: ").append(v.active.entryCount()).append(" entries, ").append(v.active.approximateBytes()).append(" bytes\n");
        s.append("immutable memtables: ").append(v.immutables.size()).append('\n');
        s.append("snapshots: ").append(snapshots.size()).append('\n');
        s.append("write-ahead log: ").append(log.path().getFileName()).append(", ").append(log.bytesWritten()).append(" bytes\n");
        for (LogReplay.Result r : recovery) {
            s.append("recovered ").append(r.file().getFileName()).append(": ").append(r.batches()).append(" batches");
            if (r.droppedBytes() > 0) {
                s.append(", torn tail of ").append(r.droppedBytes()).append(" bytes dropped at offset ").append(r.validBytes());
            }
            s.append('\n');
        }
        return s.toString();
    }

    /** What the last open replayed from each log. */
    List<LogReplay.Result> recovery() {
        return recovery;
    }

    // ---------------------------------------------------------------- lifecycle

    /**
     * Waits for writes in flight, forces and closes the log and releases the store's lock.
     * Snapshots and iterators still open become unusable. Closing twice does nothing.
     */
    @Override
    public void close() {
        commitLock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            while (!queue.isEmpty()) {
                idle.awaitUninterruptibly();
            }
        } finally {
            commitLock.unlock();
        }
        IOException failure = null;
        try {
            if (writeFailure == null) {
                log.force();
            }
        } catch (IOException e) {
            failure = e;
        }
        try {
            log.close();
        } catch (IOException e) {
            failure = failure == null ? e : failure;
        }
        snapshots.clear();
        releaseLock();
        if (failure != null) {
            throw new UncheckedIOException("closing write-ahead log " + log.path() + " failed", failure);
        }
    }

    private void releaseLock() {
        try {
            lock.release();
            lockChannel.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot release " + dir.resolve("LOCK"), e);
        }
    }

    void checkOpen() {
        if (closed) {
            throw closedError();
        }
    }

    private IllegalStateException closedError() {
        return new IllegalStateException("EverettDB at " + dir + " is closed");
    }

    /** The directory the store lives in. */
    public Path directory() {
        return dir;
    }
}

package dev.everett.streams;

import dev.everett.api.DurableDirectories;
import dev.everett.api.PolicyMismatchException;
import dev.everett.store.DBOptions;
import dev.everett.store.EverettDB;
import dev.everett.store.EverettIterator;
import dev.everett.store.ReadOptions;
import dev.everett.store.WriteBatch;
import dev.everett.store.WriteOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.errors.TaskCorruptedException;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.processor.internals.ChangelogRecordDeserializationHelper;
import org.apache.kafka.streams.processor.internals.RecordBatchingStateRestoreCallback;
import org.apache.kafka.streams.query.FailureReason;
import org.apache.kafka.streams.query.KeyQuery;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.RangeQuery;
import org.apache.kafka.streams.query.ResultOrder;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * A Kafka Streams key-value bytes store on one EverettDB per task.
 *
 * <p><b>Writes</b> go to the memtable as they come and, with {@link EverettStoreOptions#writeAheadLog()},
 * to the write-ahead log first (written, not forced). The store {@linkplain #managesOffsets() manages
 * its own changelog offsets}: it keeps them in memory and writes them, with the query position, as
 * one atomic batch behind the records they cover (its <em>bookkeeping</em>), so what the database
 * holds never runs ahead of the data (it may lag it: the changelog from that offset is replayed,
 * which rewrites the same values). With the log, every commit writes its bookkeeping, forced to
 * disk when {@link EverettStoreOptions#syncCommits()}. Without it (the default), records and
 * bookkeeping stay in the memtable until a flush to segments (when it fills, and at close) persists
 * them together, so a commit only needs to reach the memtable before the next flush: it is written
 * once {@link #bookkeepingLagBytes} of records followed the last one written, and always before a
 * flush the store asks for.
 *
 * <p><b>Restoration</b> from the changelog keeps the newest value of each restored key in a
 * {@link RestoreBuffer} and writes them, in key order, as one batch without the write-ahead log when
 * the buffer fills or before the store is next read, written or committed. With the log, the next
 * commit flushes the memtable to segments once, before it logs an offset that covers those records;
 * without it, restored records are written as processed ones are, and persisted with their offsets
 * by the next memtable flush. As with the built-in RocksDB store, each restored record's position
 * header (written when Kafka Streams' internal {@code IQ_CONSISTENCY_OFFSET_VECTOR_ENABLED} is on)
 * moves the store's query position, which commits then persist with the offsets.
 *
 * <p><b>Iterators</b> read an implicit snapshot taken when they are created, so writes and commits
 * made while one is open are not seen by it (as with RocksDB's iterators); the store closes those
 * still open when it closes.
 *
 * <p>Methods are synchronized, like the built-in RocksDB store's: the stream thread writes while
 * interactive queries read from other threads.
 */
class EverettKeyValueStore implements KeyValueStore<Bytes, byte[]> {
    /** The directory under the task's state directory that holds one EverettDB per store name. */
    static final String PARENT_DIRECTORY = "everett";
    private static final byte[] OPEN = {1};
    private static final byte[] CLOSED = {0};
    private static final String EXACTLY_ONCE_V2 = "exactly_once_v2";

    private final String name;
    private final StoreFormat format;
    /** Options given to the supplier, or {@code null} to read them from the task's configuration. */
    private final EverettStoreOptions configured;
    private EverettStoreOptions options;
    private final Set<EverettKeyValueIterator> openIterators = ConcurrentHashMap.newKeySet();
    /** Records (and, without the log, commits): through the log unforced, or around it. */
    private WriteOptions writeOptions;
    /** Status changes: always through the log and forced, so an unclean shutdown is always detected. */
    private final WriteOptions statusOptions = new WriteOptions().setSync(true);
    /**
     * Restored batches skip the write-ahead log: the flush to segments before the next commit makes
     * them durable at once, and a crash before it loses only records whose offsets were not yet
     * committed, so they are restored again.
     */
    private final WriteOptions restoreOptions = new WriteOptions().setDisableWAL(true);
    private WriteOptions commitOptions;
    /**
     * Without the log: how many bytes of records may follow the last bookkeeping written before a
     * commit writes its own; the offsets a memtable flush persists lag its records by at most this.
     * With the log, 0: every commit is written (and the log makes it durable on its own).
     */
    private long bookkeepingLagBytes;
    /** Bytes of records written since the last bookkeeping. */
    private long writtenSinceBookkeeping;
    /** A commit was made since the last bookkeeping written (its offsets and position are not in the database yet). */
    private boolean bookkeepingPending;
    private CommittedOffsets committed;
    private final RestoreStatistics restoreStatistics = new RestoreStatistics();

    private StateStoreContext context;
    private Path directory;
    private EverettDB db;
    /** Restored records not yet written to {@link #db}; every other operation drains it first. */
    private RestoreBuffer restoreBuffer;
    private volatile boolean open;
    private Position position = Position.emptyPosition();
    /**
     * Kafka Streams' internal IQ consistency switch: restored records carry the position of the
     * write they log, and restoring them moves this store's position (as the built-in store's).
     */
    private boolean consistencyEnabled;
    /**
     * With the log: records were restored (around it) since the last flush, so flush before logged
     * offsets cover them. Without the log every write goes around it, and the next memtable flush
     * persists restored records with the offsets that cover them, as it does processed ones.
     */
    private boolean restoredAroundTheLog;
    /** Flushes this store asked for (with the log, one per commit that follows restoration). */
    private int flushCount;

    EverettKeyValueStore(String name, StoreFormat format, EverettStoreOptions options) {
        this.name = name;
        this.format = format;
        this.configured = options;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public synchronized void init(StateStoreContext stateStoreContext, StateStore root) {
        if (open) {
            throw new IllegalStateException("Everett store " + name + " is already open at " + directory);
        }
        context = stateStoreContext;
        options = configured != null ? configured : EverettStoreOptions.fromConfig(stateStoreContext.appConfigs());
        writeOptions = new WriteOptions().setDisableWAL(!options.writeAheadLog());
        // Without the log, a commit's offsets must stay in the memtable with the records they cover
        // (a flush persists both or neither); through the log, they follow those records in it.
        commitOptions = options.writeAheadLog() ? new WriteOptions().setSync(options.syncCommits()) : writeOptions;
        directory = stateStoreContext.stateDir().toPath().resolve(PARENT_DIRECTORY).resolve(name);
        DBOptions dbOptions = options.toDbOptions();
        // A quarter of a memtable: a full buffer drains into the memtable without switching it
        // more than once, and the heap a restoring store holds stays near its memtable budget.
        restoreBuffer = new RestoreBuffer(Math.max(1, dbOptions.writeBufferSize() / 4));
        // A 64th of a memtable: a crash replays at most that much more changelog than it must.
        bookkeepingLagBytes = options.writeAheadLog() ? 0 : Math.max(1, dbOptions.writeBufferSize() / 64);
        writtenSinceBookkeeping = 0;
        bookkeepingPending = false;
        consistencyEnabled = StreamsConfig.InternalConfig.getBoolean(stateStoreContext.appConfigs(),
                StreamsConfig.InternalConfig.IQ_CONSISTENCY_OFFSET_VECTOR_ENABLED, false);
        db = openDatabase(dbOptions);
        try {
            checkFormat();
            boolean exactlyOnce = EXACTLY_ONCE_V2.equals(String.valueOf(
                    stateStoreContext.appConfigs().get(StreamsConfig.PROCESSING_GUARANTEE_CONFIG)));
            if (exactlyOnce && Arrays.equals(db.get(StoreKeys.STATUS), OPEN)) {
                // Under exactly-once, records written after the last commit may belong to an aborted
                // transaction: a store that was not closed cleanly cannot be trusted, so Kafka Streams
                // wipes it and restores it from the changelog.
                throw new TaskCorruptedException(Set.of(stateStoreContext.taskId()), new ProcessorStateException(
                        "Everett store " + name + " at " + directory + " was not closed cleanly; under "
                                + EXACTLY_ONCE_V2 + " it is wiped and restored from its changelog"));
            }
            db.put(statusOptions, StoreKeys.STATUS, OPEN);
            byte[] stored = db.get(StoreKeys.POSITION);
            position = stored == null ? Position.emptyPosition() : PositionCodec.decode(stored, name);
            committed = CommittedOffsets.read(db, name, directory);
        } catch (RuntimeException e) {
            closeDatabaseQuietly();
            throw e;
        }
        open = true;
        stateStoreContext.register(root, new Restorer());
    }

    private EverettDB openDatabase(DBOptions dbOptions) {
        boolean holdsFiles;
        try {
            DurableDirectories.create(directory.getParent());
            holdsFiles = Files.isDirectory(directory) && hasEntries(directory);
        } catch (IOException e) {
            throw new ProcessorStateException("Everett store " + name + ": cannot create " + directory.getParent() + ": " + e.getMessage(), e);
        }
        try {
            // An existing, non-empty directory must already be a store: never create one among foreign files.
            return EverettDB.open(directory, dbOptions.setCreateIfMissing(!holdsFiles));
        } catch (PolicyMismatchException e) {
            throw new ProcessorStateException("Everett store " + name + " at " + directory
                    + " was created with another segment policy than this application configures ("
                    + options.policy() + "): " + e.getMessage()
                    + ". Configure the policy it was created with, or delete the directory to restore the store"
                    + " from its changelog", e);
        } catch (IllegalArgumentException e) {
            if (holdsFiles) {
                throw new ProcessorStateException("Everett store " + name + ": " + directory
                        + " holds files but no Everett store (" + e.getMessage() + "); it may belong to another kind of store."
                        + " Move or delete it to restore the store from its changelog", e);
            }
            throw new ProcessorStateException("Everett store " + name + ": the options cannot open " + directory + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            throw new ProcessorStateException("Everett store " + name + ": cannot open " + directory + ": " + e.getMessage(), e);
        }
    }

    private static boolean hasEntries(Path dir) throws IOException {
        try (var entries = Files.list(dir)) {
            return entries.findAny().isPresent();
        }
    }

    /** A new store records its value format; an existing one must have been created with the same. */
    private void checkFormat() {
        byte[] stored = db.get(StoreKeys.FORMAT);
        String expected = "everett-streams/1 " + format.label;
        if (stored == null) {
            try (EverettIterator records = db.newIterator(new ReadOptions()
                    .setIterateLowerBound(StoreKeys.DATA_START).setIterateUpperBound(StoreKeys.DATA_END))) {
                records.seekToFirst();
                if (records.isValid()) {
                    throw new ProcessorStateException("Everett store " + name + " at " + directory
                            + " holds records but no format record; it was not written by an Everett state store");
                }
            }
            db.put(statusOptions, StoreKeys.FORMAT, expected.getBytes(StandardCharsets.US_ASCII));
            return;
        }
        String found = new String(stored, StandardCharsets.US_ASCII);
        if (!found.equals(expected)) {
            throw new ProcessorStateException("Everett store " + name + " at " + directory + " holds a \""
                    + found + "\" store, but this topology opens it as \"" + expected
                    + "\". Everett stores do not convert values in place: delete the directory to restore the store"
                    + " from its changelog in the new format");
        }
    }

    @Override
    public boolean persistent() {
        return true;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @SuppressWarnings("deprecation")
    @Override
    public boolean managesOffsets() {
        return true;
    }

    private void validateOpen() {
        if (!open) {
            throw new InvalidStateStoreException("Store " + name + " is currently closed");
        }
    }

    /** Checks the store is open and writes restored records still buffered, so they are read and overwritten in order. */
    private void validateOpenAndRestored() {
        validateOpen();
        drainRestored();
    }

    private void drainRestored() {
        if (!restoreBuffer.isEmpty()) {
            restoreBuffer.drainTo(db, restoreOptions);
        }
    }

    @Override
    public synchronized void put(Bytes key, byte[] value) {
        Objects.requireNonNull(key, "key cannot be null");
        validateOpenAndRestored();
        byte[] stored = StoreKeys.data(key.get());
        if (value == null) {
            db.delete(writeOptions, stored);
        } else {
            db.put(writeOptions, stored, value);
        }
        written(stored.length, value);
        updatePosition();
    }

    /** Counts a record's bytes (its stored key's and its value's) towards the next bookkeeping. */
    private void written(int storedKeyBytes, byte[] value) {
        writtenSinceBookkeeping += storedKeyBytes + (value == null ? 0 : value.length);
    }

    @Override
    public synchronized byte[] putIfAbsent(Bytes key, byte[] value) {
        Objects.requireNonNull(key, "key cannot be null");
        byte[] existing = get(key);
        if (existing == null && value != null) {
            // As the built-in store: a null value for an absent key writes nothing (no tombstone,
            // no position update).
            put(key, value);
        }
        return existing;
    }

    @Override
    public synchronized void putAll(List<KeyValue<Bytes, byte[]>> entries) {
        // As the built-in store: the batch is checked before the store is.
        Objects.requireNonNull(entries, "entries cannot be null");
        for (KeyValue<Bytes, byte[]> entry : entries) {
            Objects.requireNonNull(entry, "entry cannot be null");
            Objects.requireNonNull(entry.key, "key cannot be null");
        }
        validateOpenAndRestored();
        try (WriteBatch batch = new WriteBatch()) {
            for (KeyValue<Bytes, byte[]> entry : entries) {
                byte[] stored = StoreKeys.data(entry.key.get());
                if (entry.value == null) {
                    batch.delete(stored);
                } else {
                    batch.put(stored, entry.value);
                }
                written(stored.length, entry.value);
            }
            db.write(writeOptions, batch);
        }
        updatePosition();
    }

    @Override
    public synchronized byte[] delete(Bytes key) {
        Objects.requireNonNull(key, "key cannot be null");
        byte[] existing = get(key);
        put(key, null);
        return existing;
    }

    @Override
    public synchronized byte[] get(Bytes key) {
        validateOpenAndRestored();   // before the key, as the built-in store: a closed store says so first
        Objects.requireNonNull(key, "key cannot be null");
        return db.get(StoreKeys.data(key.get()));
    }

    @Override
    public synchronized KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to) {
        return range(from, to, false);
    }

    @Override
    public synchronized KeyValueIterator<Bytes, byte[]> reverseRange(Bytes from, Bytes to) {
        return range(from, to, true);
    }

    private KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to, boolean reverse) {
        if (from != null && to != null && from.compareTo(to) > 0) {
            // As the built-in store: an inverted range is empty, not an error, and answered before
            // the store is looked at (a closed store answers it too); its iterator is no store
            // iterator, so closing the store leaves it empty rather than closed.
            return EmptyIterator.INSTANCE;
        }
        validateOpenAndRestored();
        byte[] lower = from == null ? StoreKeys.DATA_START : StoreKeys.data(from.get());
        byte[] upper = to == null ? StoreKeys.DATA_END : StoreKeys.dataAfter(to.get());
        return iterator(lower, upper, reverse);
    }

    @Override
    public synchronized KeyValueIterator<Bytes, byte[]> all() {
        validateOpenAndRestored();
        return iterator(StoreKeys.DATA_START, StoreKeys.DATA_END, false);
    }

    @Override
    public synchronized KeyValueIterator<Bytes, byte[]> reverseAll() {
        validateOpenAndRestored();
        return iterator(StoreKeys.DATA_START, StoreKeys.DATA_END, true);
    }

    @Override
    public synchronized <PS extends Serializer<P>, P> KeyValueIterator<Bytes, byte[]> prefixScan(P prefix, PS prefixKeySerializer) {
        validateOpenAndRestored();   // before the arguments, as the built-in store
        Objects.requireNonNull(prefix, "prefix cannot be null");
        Objects.requireNonNull(prefixKeySerializer, "prefixKeySerializer cannot be null");
        byte[] bytes = prefixKeySerializer.serialize(null, prefix);
        return iterator(StoreKeys.data(bytes), StoreKeys.dataPrefixEnd(bytes), false);
    }

    private KeyValueIterator<Bytes, byte[]> iterator(byte[] lower, byte[] upper, boolean reverse) {
        EverettIterator cursor = db.newIterator(new ReadOptions().setIterateLowerBound(lower).setIterateUpperBound(upper));
        EverettKeyValueIterator iterator = new EverettKeyValueIterator(name, cursor, reverse, openIterators::remove);
        openIterators.add(iterator);
        return iterator;
    }

    @Override
    public synchronized long approximateNumEntries() {
        validateOpenAndRestored();
        // The database's estimate counts every key, the store's bookkeeping (format, status,
        // position, committed offsets) too; the built-in store keeps its offsets apart and counts
        // records only, so an empty store is 0.
        long keys = Long.parseLong(db.getProperty("everett.estimate-num-keys"));
        return Math.max(0, keys - bookkeepingKeys());
    }

    /** How many bookkeeping keys the database holds (a handful: the range below the records). */
    private long bookkeepingKeys() {
        long count = 0;
        try (EverettIterator meta = db.newIterator(new ReadOptions().setIterateUpperBound(StoreKeys.DATA_START))) {
            for (meta.seekToFirst(); meta.isValid(); meta.next()) {
                count++;
            }
        }
        return count;
    }

    @Override
    public synchronized void commit(Map<TopicPartition, Long> changelogOffsets) {
        if (!open) {
            return;
        }
        if (restoredAroundTheLog) {
            drainRestored();
            db.flush();
            flushCount++;
            restoredAroundTheLog = false;
        }
        committed.update(changelogOffsets);
        bookkeepingPending = true;
        // Without the log, the memtable holding the records this commit covers is persisted by a
        // flush, and whichever bookkeeping it holds then lags those records; so a commit is written
        // only once enough records followed the last one written (and always before a flush the
        // store asks for), which bounds how much changelog a crash replays beyond what it must.
        if (writtenSinceBookkeeping >= bookkeepingLagBytes) {
            writeBookkeeping();
        }
    }

    /** Writes the committed offsets and the position as one batch, behind every record written before. */
    private void writeBookkeeping() {
        // Restored records still buffered are covered by these offsets (and this position): they
        // go first, so that no flush can persist the offsets in a memtable without them.
        drainRestored();
        try (WriteBatch batch = new WriteBatch()) {
            committed.writeTo(batch);
            batch.put(StoreKeys.POSITION, PositionCodec.encode(position));
            db.write(commitOptions, batch);
        }
        writtenSinceBookkeeping = 0;
        bookkeepingPending = false;
    }

    @Override
    public synchronized Long committedOffset(TopicPartition partition) {
        validateOpen();   // as the built-in store: a closed store's offsets are not an answer (null means "none")
        return committed.get(partition);
    }

    @Override
    public synchronized void close() {
        if (!open) {
            return;
        }
        open = false;
        for (EverettKeyValueIterator iterator : new ArrayList<>(openIterators)) {
            iterator.closeWithStore();
        }
        openIterators.clear();
        try {
            drainRestored();
            if (bookkeepingPending) {
                writeBookkeeping();
            }
            // What only the memtable holds would be lost at close: without the log, everything since
            // the last flush; with it, records restored (around the log) since then, behind which a
            // logged older value of the same key would reappear at reopen.
            if (!options.writeAheadLog() || restoredAroundTheLog) {
                db.flush();
            }
            db.put(statusOptions, StoreKeys.STATUS, CLOSED);
        } finally {
            closeDatabaseQuietly();
        }
    }

    private void closeDatabaseQuietly() {
        EverettDB closing = db;
        db = null;
        if (closing != null) {
            closing.close();
        }
    }

    @Override
    public synchronized Position getPosition() {
        // A copy, as the built-in store hands out: the caller's view does not move with later
        // writes, and nothing the caller does to it changes the store's own.
        return position.copy();
    }

    private void updatePosition() {
        if (context != null) {
            RecordMetadata meta = context.recordMetadata().orElse(null);
            // A punctuator writes under record metadata without a topic (and offset -1): as the
            // built-in stores do, such a write moves no position (Position rejects a null topic).
            if (meta != null && meta.topic() != null) {
                position.withComponent(meta.topic(), meta.partition(), meta.offset());
            }
        }
    }

    /**
     * Answers the interactive queries the built-in RocksDB store answers at this layer: {@link KeyQuery}
     * and {@link RangeQuery} on bytes (the metered layer above translates typed and timestamped
     * queries into these). Others are unknown; a query whose position bound this store has not
     * reached fails with {@link FailureReason#NOT_UP_TO_BOUND}.
     */
    @Override
    public synchronized <R> QueryResult<R> query(Query<R> query, PositionBound positionBound, QueryConfig config) {
        long start = config.isCollectExecutionInfo() ? System.nanoTime() : -1L;
        QueryResult<R> result;
        int partition = context == null ? -1 : context.taskId().partition();
        if (!(query instanceof KeyQuery<?, ?>) && !(query instanceof RangeQuery<?, ?>)) {
            result = QueryResult.forUnknownQueryType(query, this);
        } else if (context != null && !reached(positionBound, partition)) {
            result = QueryResult.notUpToBound(position, positionBound, partition);
        } else {
            result = runQuery(query);
        }
        if (config.isCollectExecutionInfo()) {
            result.addExecutionInfo("Handled in " + getClass() + " in " + (System.nanoTime() - start) + "ns");
        }
        result.setPosition(position.copy());
        return result;
    }

    @SuppressWarnings("unchecked")
    private <R> QueryResult<R> runQuery(Query<R> query) {
        try {
            if (query instanceof KeyQuery<?, ?> keyQuery) {
                return (QueryResult<R>) QueryResult.forResult(get((Bytes) keyQuery.getKey()));
            }
            RangeQuery<Bytes, byte[]> rangeQuery = (RangeQuery<Bytes, byte[]>) query;
            Bytes lower = rangeQuery.getLowerBound().orElse(null);
            Bytes upper = rangeQuery.getUpperBound().orElse(null);
            boolean descending = rangeQuery.resultOrder() == ResultOrder.DESCENDING;
            KeyValueIterator<Bytes, byte[]> iterator = lower == null && upper == null
                    ? (descending ? reverseAll() : all())
                    : (descending ? reverseRange(lower, upper) : range(lower, upper));
            return (QueryResult<R>) QueryResult.forResult(iterator);
        } catch (RuntimeException e) {
            return QueryResult.forFailure(FailureReason.STORE_EXCEPTION,
                    "Everett store " + name + " failed to run " + query + ": " + e);
        }
    }

    /** Whether this store has seen, for its partition, at least the offsets the bound asks for. */
    private boolean reached(PositionBound bound, int partition) {
        Position wanted = bound.position();
        for (String topic : wanted.getTopics()) {
            Long needed = wanted.getPartitionPositions(topic).get(partition);
            if (needed != null) {
                Long seen = position.getPartitionPositions(topic).get(partition);
                if (seen == null || seen < needed) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Flushes the memtable as it is, bookkeeping pending or not, as when it fills up (tests). */
    synchronized void flushMemTable() {
        validateOpenAndRestored();
        db.flush();
    }

    synchronized int flushCount() {
        return flushCount;
    }

    /** What restoration has done so far (records, batches, time in the store). */
    RestoreStatistics restoreStatistics() {
        return restoreStatistics;
    }

    /**
     * Restores changelog batches through the {@link RestoreBuffer} (written without the log when it
     * fills or before the next other operation); with the log, the next commit flushes them first.
     * Kafka Streams hands it whole changelog records ({@link #restoreBatch}), whose headers carry
     * the writer's position when IQ consistency is on; that position is merged into the store's as
     * the built-in RocksDB store does, through Kafka's own {@link ChangelogRecordDeserializationHelper}.
     */
    private final class Restorer implements RecordBatchingStateRestoreCallback {
        @Override
        public void restoreBatch(Collection<ConsumerRecord<byte[], byte[]>> records) {
            restore(records.size(), () -> {
                for (ConsumerRecord<byte[], byte[]> record : records) {
                    ChangelogRecordDeserializationHelper.applyChecksAndUpdatePosition(record, consistencyEnabled, position);
                    buffer(record.key(), record.value());
                }
            });
        }

        /**
         * Records without headers, for callers outside Kafka Streams' restoration (which always calls
         * {@link #restoreBatch}): restored as that is, moving no position.
         */
        @Override
        public void restoreAll(Collection<KeyValue<byte[], byte[]>> records) {
            restore(records.size(), () -> {
                for (KeyValue<byte[], byte[]> record : records) {
                    buffer(record.key, record.value);
                }
            });
        }

        /** Runs {@code body}, which buffers a batch of {@code records} restored records, under the store's lock, and counts it. */
        private void restore(int records, Runnable body) {
            long start = System.nanoTime();
            synchronized (EverettKeyValueStore.this) {
                validateOpen();
                // Before the first record: a batch that fails part-way may have written some around the log.
                restoredAroundTheLog = options.writeAheadLog();
                body.run();
            }
            restoreStatistics.add(records, System.nanoTime() - start);
        }

        private void buffer(byte[] key, byte[] value) {
            Objects.requireNonNull(key, "restored record key cannot be null");
            // Restored records count towards the bookkeeping lag as processed ones do: a store
            // that only restores (a standby) then also writes its offsets behind them as it goes,
            // not only at close (writeBookkeeping drains the buffer first).
            written(StoreKeys.dataLength(key.length), value);
            if (restoreBuffer.add(key, value)) {
                restoreBuffer.drainTo(db, restoreOptions);
            }
        }
    }

    /** The iterator of an inverted range: empty, owned by no store, and never closed by one. */
    private static final class EmptyIterator implements KeyValueIterator<Bytes, byte[]> {
        static final EmptyIterator INSTANCE = new EmptyIterator();

        @Override
        public boolean hasNext() {
            return false;
        }

        @Override
        public KeyValue<Bytes, byte[]> next() {
            throw new NoSuchElementException();
        }

        @Override
        public Bytes peekNextKey() {
            throw new NoSuchElementException();
        }

        @Override
        public void close() {
        }
    }

    /** Counts what restoration wrote and how long the store took for it. */
    static final class RestoreStatistics {
        private long records;
        private long batches;
        private long nanos;

        synchronized void add(long batchRecords, long batchNanos) {
            records += batchRecords;
            batches++;
            nanos += batchNanos;
        }

        synchronized long records() {
            return records;
        }

        synchronized long batches() {
            return batches;
        }

        synchronized long nanos() {
            return nanos;
        }
    }
}

package dev.everett.streams;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.api.Policy;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.errors.TaskCorruptedException;
import org.apache.kafka.streams.processor.BatchingStateRestoreCallback;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Restoration, close and reopen, and the directories an Everett store refuses to open. */
class StoreLifecycleTest {
    private static final TopicPartition CHANGELOG = new TopicPartition("app-store-changelog", 0);

    @TempDir
    Path temp;

    /**
     * Restores a changelog (puts, overwrites and deletes) through the batching callback, then commits:
     * the contents match the changelog's last values and survive close and reopen. With the log,
     * the restored records (written around it) are flushed once, before the commit logs an offset
     * covering them; without it, as processed records, they wait for the next memtable flush.
     */
    @ParameterizedTest(name = "write-ahead log {0}")
    @ValueSource(booleans = {false, true})
    void restoresThroughTheBatchingCallbackThenFlushesOnceWithTheLog(boolean log) {
        long seed = Seeds.seed();
        SplittableRandom random = new SplittableRandom(seed);
        TreeMap<Bytes, byte[]> model = new TreeMap<>();
        EverettStoreOptions options = EverettStoreOptions.defaults().withWriteAheadLog(log);
        int flushes = log ? 1 : 0;
        var opened = StoreHarness.open(EverettStores.persistentKeyValueStore("restored", options), temp.toFile());
        EverettKeyValueStore store = (EverettKeyValueStore) opened.store();
        BatchingStateRestoreCallback restore = assertInstanceOf(BatchingStateRestoreCallback.class,
                opened.context().restoreCallback(), "the store registers a batching restore callback");
        int records = 60_000;
        for (int done = 0; done < records; ) {
            List<KeyValue<byte[], byte[]>> batch = new ArrayList<>();
            for (int i = 0; i < 2_000; i++, done++) {
                byte[] key = String.format("key-%06d", random.nextInt(20_000)).getBytes(StandardCharsets.UTF_8);
                byte[] value = random.nextInt(10) == 0 ? null : ("value-" + done).getBytes(StandardCharsets.UTF_8);
                batch.add(KeyValue.pair(key, value));
                if (value == null) {
                    model.remove(Bytes.wrap(key));
                } else {
                    model.put(Bytes.wrap(key), value);
                }
            }
            restore.restoreAll(batch);
        }
        assertEquals(0, store.flushCount(), Seeds.replay(seed) + ": restored batches are not flushed one by one");
        store.commit(Map.of(CHANGELOG, (long) records));
        assertEquals(flushes, store.flushCount(), Seeds.replay(seed) + ": the commit after restoration flushes once with the log only");
        store.commit(Map.of(CHANGELOG, (long) records + 1));
        assertEquals(flushes, store.flushCount(), Seeds.replay(seed) + ": later commits do not flush again");
        assertEquals(records, store.restoreStatistics().records());
        assertEquals(records / 2_000, store.restoreStatistics().batches());
        assertContents(model, store, Seeds.replay(seed));
        store.close();

        var reopened = StoreHarness.open(EverettStores.persistentKeyValueStore("restored", options), temp.toFile());
        try {
            assertContents(model, reopened.store(), Seeds.replay(seed) + " after reopen");
            assertEquals(records + 1L, reopened.store().committedOffset(CHANGELOG));
        } finally {
            reopened.store().close();
        }
    }

    @Test
    void closeAndReopenKeepsDataOffsetsAndPosition() {
        var opened = StoreHarness.open(EverettStores.persistentKeyValueStore("kept"), temp.toFile());
        KeyValueStore<Bytes, byte[]> store = opened.store();
        opened.context().processing("input", 0, 41);
        store.put(key("a"), "1".getBytes(StandardCharsets.UTF_8));
        opened.context().processing("input", 0, 42);
        store.put(key("b"), "2".getBytes(StandardCharsets.UTF_8));
        store.delete(key("a"));
        store.commit(Map.of(CHANGELOG, 3L));
        store.close();

        var reopened = StoreHarness.open(EverettStores.persistentKeyValueStore("kept"), temp.toFile());
        try {
            assertNull(reopened.store().get(key("a")));
            assertArrayEquals("2".getBytes(StandardCharsets.UTF_8), reopened.store().get(key("b")));
            assertEquals(3L, reopened.store().committedOffset(CHANGELOG));
            assertEquals(42L, reopened.store().getPosition().getPartitionPositions("input").get(0));
        } finally {
            reopened.store().close();
        }
    }

    @Test
    void aDirectoryCreatedWithAnotherPolicyIsRefused() {
        var opened = StoreHarness.open(EverettStores.persistentKeyValueStore("policy",
                EverettStoreOptions.defaults().withPolicy(Policy.defaultBytes())), temp.toFile());
        opened.store().put(key("a"), new byte[] {1});
        opened.store().close();
        ProcessorStateException refused = assertThrows(ProcessorStateException.class, () -> StoreHarness.open(
                EverettStores.persistentKeyValueStore("policy", EverettStoreOptions.defaults().withPolicy(Policy.stringPolicy())),
                temp.toFile()));
        assertTrue(refused.getMessage().contains("another segment policy"), refused.getMessage());
        assertTrue(refused.getMessage().contains("policy"), refused.getMessage());
    }

    @Test
    void aDirectoryOfAnotherStoreFormatIsRefused() {
        var opened = StoreHarness.open(EverettStores.persistentKeyValueStore("format"), temp.toFile());
        opened.store().put(key("a"), new byte[] {1});
        opened.store().close();
        ProcessorStateException refused = assertThrows(ProcessorStateException.class, () -> StoreHarness.open(
                EverettStores.persistentTimestampedKeyValueStore("format"), temp.toFile()));
        assertTrue(refused.getMessage().contains("\"everett-streams/1 plain\""), refused.getMessage());
        assertTrue(refused.getMessage().contains("everett-streams/1 timestamped"), refused.getMessage());
    }

    @Test
    void aDirectoryThatIsNoEverettStoreIsRefused() throws IOException {
        Path directory = temp.resolve(EverettKeyValueStore.PARENT_DIRECTORY).resolve("foreign");
        Files.createDirectories(directory);
        Files.writeString(directory.resolve("CURRENT"), "MANIFEST-000001\n");   // what a RocksDB directory holds
        ProcessorStateException refused = assertThrows(ProcessorStateException.class, () -> StoreHarness.open(
                EverettStores.persistentKeyValueStore("foreign"), temp.toFile()));
        assertTrue(refused.getMessage().contains(directory.toString()), refused.getMessage());
    }

    /**
     * What a crash leaves (a copy of an open store's directory): at least once, a store with its
     * write-ahead log opens with everything written; under exactly-once it reports the task corrupted so Kafka Streams wipes and
     * restores it, since writes after the last commit may belong to an aborted transaction.
     */
    @Test
    void anUncleanShutdownIsATaskCorruptionUnderExactlyOnce() throws IOException {
        EverettStoreOptions logged = EverettStoreOptions.defaults().withWriteAheadLog(true);
        Path live = temp.resolve("live");
        var opened = StoreHarness.open(EverettStores.persistentKeyValueStore("crashed", logged), live.toFile());
        opened.store().put(key("a"), new byte[] {1});
        opened.store().commit(Map.of(CHANGELOG, 1L));
        opened.store().put(key("b"), new byte[] {2});
        Path crashedAtLeastOnce = temp.resolve("crash-alos");
        Path crashedExactlyOnce = temp.resolve("crash-eos");
        copyTree(live, crashedAtLeastOnce);
        copyTree(live, crashedExactlyOnce);
        opened.store().close();

        var atLeastOnce = StoreHarness.open(EverettStores.persistentKeyValueStore("crashed", logged), crashedAtLeastOnce.toFile());
        try {
            assertArrayEquals(new byte[] {1}, atLeastOnce.store().get(key("a")));
            assertEquals(1L, atLeastOnce.store().committedOffset(CHANGELOG));
        } finally {
            atLeastOnce.store().close();
        }
        assertThrows(TaskCorruptedException.class, () -> StoreHarness.open(
                EverettStores.persistentKeyValueStore("crashed", logged), crashedExactlyOnce.toFile(),
                Map.of(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2)));
    }

    /**
     * Without the write-ahead log, records and committed offsets are durable together at memtable
     * flushes: a close flushes (so reopening keeps everything), a crash loses both together (so
     * the committed offset never runs ahead of the data), and an unclean shutdown is still seen.
     */
    @Test
    void withoutTheLogDataAndOffsetsAreDurableTogether() throws IOException {
        EverettStoreOptions noLog = EverettStoreOptions.defaults().withWriteAheadLog(false);
        Path live = temp.resolve("nolog");
        var opened = StoreHarness.open(EverettStores.persistentKeyValueStore("nolog", noLog), live.toFile());
        opened.store().put(key("a"), new byte[] {1});
        opened.store().commit(Map.of(CHANGELOG, 1L));
        Path crashed = temp.resolve("nolog-crash");
        Path crashedExactlyOnce = temp.resolve("nolog-crash-eos");
        copyTree(live, crashed);
        copyTree(live, crashedExactlyOnce);
        opened.store().put(key("b"), new byte[] {2});
        opened.store().commit(Map.of(CHANGELOG, 2L));
        opened.store().close();

        var reopened = StoreHarness.open(EverettStores.persistentKeyValueStore("nolog", noLog), live.toFile());
        try {
            assertArrayEquals(new byte[] {2}, reopened.store().get(key("b")), "a clean close flushes");
            assertEquals(2L, reopened.store().committedOffset(CHANGELOG));
        } finally {
            reopened.store().close();
        }
        var afterCrash = StoreHarness.open(EverettStores.persistentKeyValueStore("nolog", noLog), crashed.toFile());
        try {
            Long offset = afterCrash.store().committedOffset(CHANGELOG);
            byte[] a = afterCrash.store().get(key("a"));
            assertTrue(offset == null || a != null, "a committed offset never runs ahead of its records: offset "
                    + offset + ", record " + Arrays.toString(a));
        } finally {
            afterCrash.store().close();
        }
        assertThrows(TaskCorruptedException.class, () -> StoreHarness.open(
                EverettStores.persistentKeyValueStore("nolog", noLog), crashedExactlyOnce.toFile(),
                Map.of(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2)));
    }

    /**
     * Without the log a commit reaches the memtable lazily, once a 64th of a memtable of records
     * followed the last one written: a memtable flushed at any moment (as when it fills) then holds
     * an offset that never runs ahead of its records and lags the last commit by at most that many
     * records. A crash image taken after such a flush reopens with that offset and every record it
     * covers; a clean close writes the last commit.
     */
    @Test
    void withoutTheLogAFlushPersistsAnOffsetThatLagsItsRecordsByABoundedAmount() throws IOException {
        long memtableBytes = 64 << 10;
        long lagBytes = memtableBytes / 64;
        EverettStoreOptions noLog = EverettStoreOptions.defaults().withDbOptions(db -> db.setWriteBufferSize(memtableBytes));
        Path live = temp.resolve("lagging");
        var opened = StoreHarness.open(EverettStores.persistentKeyValueStore("lagging", noLog), live.toFile());
        EverettKeyValueStore store = (EverettKeyValueStore) opened.store();
        int records = 1_000;
        int recordBytes = 1 + 5 + Long.BYTES;            // the record prefix, the key, the value
        for (int i = 0; i < records; i++) {
            store.put(key(String.format("k%04d", i)), longBytes(i));
            store.commit(Map.of(CHANGELOG, (long) i));
            assertEquals((long) i, store.committedOffset(CHANGELOG), "the store reads back its latest commit");
        }
        assertAFlushedCrashImageHoldsALaggingOffset(store, live, "lagging", noLog, records - 1, records - 1 - lagBytes / recordBytes - 1);
        var reopened = StoreHarness.open(EverettStores.persistentKeyValueStore("lagging", noLog), live.toFile());
        try {
            assertEquals(records - 1L, reopened.store().committedOffset(CHANGELOG), "a clean close writes the last commit");
        } finally {
            reopened.store().close();
        }
    }

    /**
     * The same bound for a store that only restores (a standby): restored records count towards
     * the lag as processed ones do, so a flushed crash image holds an offset behind them, not
     * only the one the last clean close wrote.
     */
    @Test
    void withoutTheLogARestoringStoreAlsoPersistsABoundedLaggingOffset() throws IOException {
        long memtableBytes = 64 << 10;
        long lagBytes = memtableBytes / 64;
        EverettStoreOptions noLog = EverettStoreOptions.defaults().withWriteAheadLog(false)
                .withDbOptions(db -> db.setWriteBufferSize(memtableBytes));
        Path live = temp.resolve("standby");
        var opened = StoreHarness.open(EverettStores.persistentKeyValueStore("standby", noLog), live.toFile());
        EverettKeyValueStore store = (EverettKeyValueStore) opened.store();
        BatchingStateRestoreCallback restore = (BatchingStateRestoreCallback) opened.context().restoreCallback();
        int records = 1_000;
        int recordBytes = 1 + 5 + Long.BYTES;            // the record prefix, the key, the value
        for (int i = 0; i < records; i += 10) {
            List<KeyValue<byte[], byte[]>> batch = new ArrayList<>();
            for (int j = i; j < i + 10; j++) {
                batch.add(KeyValue.pair(String.format("k%04d", j).getBytes(StandardCharsets.UTF_8), longBytes(j)));
            }
            restore.restoreAll(batch);
            store.commit(Map.of(CHANGELOG, (long) i + 9));
        }
        assertAFlushedCrashImageHoldsALaggingOffset(store, live, "standby", noLog, records - 1, records - 1 - lagBytes / recordBytes - 10);
    }

    /**
     * Flushes {@code store}'s memtable, takes a crash image of {@code live} and closes the store;
     * the image reopens with an offset of at least {@code atLeast} (the last commit was
     * {@code last}) and every record {@code k<i>} it covers.
     */
    private void assertAFlushedCrashImageHoldsALaggingOffset(EverettKeyValueStore store, Path live, String name,
                                                             EverettStoreOptions options, long last, long atLeast) throws IOException {
        store.flushMemTable();
        Path crashed = temp.resolve(name + "-crash");
        copyTree(live, crashed);
        store.close();
        var afterCrash = StoreHarness.open(EverettStores.persistentKeyValueStore(name, options), crashed.toFile());
        try {
            Long offset = afterCrash.store().committedOffset(CHANGELOG);
            assertTrue(offset != null && offset >= atLeast,
                    "the flushed offset lags the last commit (" + last + ") by a bounded amount (at least " + atLeast + "): " + offset);
            for (int i = 0; i <= offset; i++) {
                assertArrayEquals(longBytes(i), afterCrash.store().get(key(String.format("k%04d", i))),
                        "record " + i + " is covered by the flushed offset " + offset);
            }
        } finally {
            afterCrash.store().close();
        }
    }

    private static byte[] longBytes(long value) {
        return ByteBuffer.allocate(Long.BYTES).putLong(value).array();
    }

    /**
     * Copies an open store's files as a crash would leave them. The store deletes a log or
     * segment in the background once an edit made it obsolete; a file that vanishes between the
     * listing and its copy means the copy mixes two moments, so it is thrown away and taken again
     * (the deletion has happened by then).
     */
    private static void copyTree(Path from, Path to) throws IOException {
        for (int attempt = 1; ; attempt++) {
            try {
                copyTreeOnce(from, to);
                return;
            } catch (java.nio.file.NoSuchFileException | java.io.UncheckedIOException e) {
                if (attempt == 5) {
                    throw e;
                }
                try (Stream<Path> partial = Files.walk(to)) {
                    for (Path p : partial.sorted(java.util.Comparator.reverseOrder()).toList()) {
                        Files.delete(p);
                    }
                }
            }
        }
    }

    private static void copyTreeOnce(Path from, Path to) throws IOException {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path path : (Iterable<Path>) paths::iterator) {
                Path target = to.resolve(from.relativize(path).toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(target);
                } else if (!path.getFileName().toString().equals("LOCK")) {
                    Files.copy(path, target);
                }
            }
        }
    }

    private static void assertContents(TreeMap<Bytes, byte[]> model, KeyValueStore<Bytes, byte[]> store, String context) {
        List<String> expected = new ArrayList<>();
        model.forEach((k, v) -> expected.add(k + "=" + Arrays.toString(v)));
        List<String> actual = new ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> all = store.all()) {
            all.forEachRemaining(kv -> actual.add(kv.key + "=" + Arrays.toString(kv.value)));
        }
        Lines.assertSameLines(expected, actual, context);
    }

    private static Bytes key(String text) {
        return Bytes.wrap(text.getBytes(StandardCharsets.UTF_8));
    }
}

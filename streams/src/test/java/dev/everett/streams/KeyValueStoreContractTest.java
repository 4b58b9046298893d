package dev.everett.streams;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.query.KeyQuery;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.RangeQuery;
import org.apache.kafka.streams.query.WindowKeyQuery;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;

/**
 * The {@code KeyValueStore<Bytes, byte[]>} contract, checked on seeded random operations applied to
 * Kafka Streams' built-in RocksDB store and to the Everett store side by side: every returned value,
 * every scan (forward, reverse, bounded, open-ended, inverted, prefix), iterators left open across
 * writes and commits, committed offsets, and the contents after close and reopen.
 */
class KeyValueStoreContractTest {
    private static final TopicPartition CHANGELOG = new TopicPartition("contract-store-changelog", 0);
    /** Key bytes chosen to exercise unsigned order (0x00 < 0x7f < 0x80 < 0xff) and shared prefixes. */
    private static final byte[] ALPHABET = {0x00, 0x01, 0x61, 0x62, 0x7f, (byte) 0x80, (byte) 0xfe, (byte) 0xff};

    @TempDir
    Path temp;

    @Test
    void randomOperationsMatchTheRocksDbStore() {
        long seed = Seeds.seed();
        for (StoreFlavor flavor : List.of(StoreFlavor.EVERETT, StoreFlavor.EVERETT_WITH_LOG)) {
            try {
                runModel(seed, 4000, flavor);
            } catch (AssertionFailedError | RuntimeException e) {
                throw new AssertionFailedError(flavor + ", " + Seeds.replay(seed) + ": " + e.getMessage(), e);
            }
        }
    }

    private void runModel(long seed, int steps, StoreFlavor flavor) {
        SplittableRandom random = new SplittableRandom(seed);
        var rocks = StoreHarness.open(StoreFlavor.ROCKSDB.keyValue("contract-store"), temp.resolve("rocks-" + flavor).toFile());
        var everett = StoreHarness.open(flavor.keyValue("contract-store"), temp.resolve("everett-" + flavor).toFile());
        KeyValueStore<Bytes, byte[]> reference = rocks.store();
        KeyValueStore<Bytes, byte[]> subject = everett.store();
        List<KeyValueIterator<Bytes, byte[]>[]> open = new ArrayList<>();
        List<String> openedAs = new ArrayList<>();
        long offset = 0;
        for (int step = 0; step < steps; step++) {
            String at = "step " + step;
            int op = random.nextInt(100);
            if (op < 30) {
                putOnBoth(reference, subject, random, 8);
            } else if (op < 36) {
                Bytes key = key(random);
                byte[] value = value(random);
                assertArrayEquals(reference.putIfAbsent(key, value), subject.putIfAbsent(key, value), at + " putIfAbsent");
            } else if (op < 40) {
                List<KeyValue<Bytes, byte[]>> batch = new ArrayList<>();
                for (int i = random.nextInt(1, 6); i > 0; i--) {
                    batch.add(KeyValue.pair(key(random), random.nextInt(5) == 0 ? null : value(random)));
                }
                reference.putAll(batch);
                subject.putAll(batch);
            } else if (op < 46) {
                deleteOnBoth(reference, subject, random, at);
            } else if (op < 62) {
                getOnBoth(reference, subject, random, at);
            } else if (op < 74) {
                int kind = random.nextInt(6);
                Bytes from = random.nextInt(6) == 0 ? null : key(random);
                Bytes to = random.nextInt(6) == 0 ? null : key(random);
                Bytes prefix = Bytes.wrap(java.util.Arrays.copyOf(key(random).get(), random.nextInt(1, 3)));
                // Kafka's RocksDB store bounds a prefix scan by the prefix incremented with carry, so
                // for a prefix ending in 0xff it also returns keys just past the prefix range (for
                // "a\xff" the key "b"); Everett returns exactly the keys that start with the prefix.
                List<String> expected = kind == 4
                        ? drain(scan(reference, kind, from, to, prefix), prefix)
                        : drain(scan(reference, kind, from, to, prefix));
                Lines.assertSameLines(expected, drain(scan(subject, kind, from, to, prefix)),
                        at + " scan kind " + kind + " from " + from + " to " + to + " prefix " + prefix);
            } else if (op < 80 && open.size() < 4) {
                Bytes from = key(random);
                Bytes to = key(random);
                int kind = random.nextInt(6);
                if (kind == 4 && from.get()[from.get().length - 1] == (byte) 0xff) {
                    kind = 0;   // RocksDB's prefix bound differs there (see the scans above)
                }
                @SuppressWarnings("unchecked")
                KeyValueIterator<Bytes, byte[]>[] pair = new KeyValueIterator[] {
                    scan(reference, kind, from, to, from), scan(subject, kind, from, to, from)};
                open.add(pair);
                openedAs.add("kind " + kind + " from " + from + " to " + to + " opened at step " + step);
            } else if (op < 88 && !open.isEmpty()) {
                // Step an open iterator: it must still show the store as it was when it was opened.
                int which = random.nextInt(open.size());
                KeyValueIterator<Bytes, byte[]>[] pair = open.get(which);
                int n = random.nextInt(1, 5);
                for (int i = 0; i < n; i++) {
                    assertEquals(pair[0].hasNext(), pair[1].hasNext(), at + " open iterator hasNext, " + openedAs.get(which));
                    if (!pair[0].hasNext()) {
                        break;
                    }
                    assertEquals(pair[0].peekNextKey(), pair[1].peekNextKey(), at + " open iterator peekNextKey, " + openedAs.get(which));
                    assertEquals(text(pair[0].next()), text(pair[1].next()), at + " open iterator next, " + openedAs.get(which));
                }
            } else if (op < 91 && !open.isEmpty()) {
                int which = random.nextInt(open.size());
                KeyValueIterator<Bytes, byte[]>[] pair = open.remove(which);
                Lines.assertSameLines(drain(pair[0]), drain(pair[1]), at + " open iterator drained, " + openedAs.remove(which));
            } else if (op < 96) {
                offset += random.nextInt(1, 50);
                commitOnBoth(reference, subject, offset, at);
            } else {
                assertTrue(subject.approximateNumEntries() >= 0, at + " approximateNumEntries");
                Lines.assertSameLines(drain(reference.all()), drain(subject.all()), at + " all");
            }
        }
        for (KeyValueIterator<Bytes, byte[]>[] pair : open) {
            Lines.assertSameLines(drain(pair[0]), drain(pair[1]), "open iterator drained at the end");
        }
        Map<TopicPartition, Long> last = Map.of(CHANGELOG, offset + 1);
        reference.commit(last);
        subject.commit(last);
        List<String> contents = drain(reference.all());
        Lines.assertSameLines(contents, drain(subject.all()), "final contents");
        reference.close();
        subject.close();

        // Close and reopen: the data and the committed offset survive.
        var reopened = StoreHarness.open(flavor.keyValue("contract-store"), temp.resolve("everett-" + flavor).toFile());
        try {
            Lines.assertSameLines(contents, drain(reopened.store().all()), "contents after reopen");
            assertEquals(offset + 1, reopened.store().committedOffset(CHANGELOG), "committed offset after reopen");
        } finally {
            reopened.store().close();
        }
    }

    /**
     * Changelog batches restored through each store's restore callback, interleaved with reads,
     * writes and commits (as a standby task restores continuously while interactive queries read it,
     * and a promoted one then processes): the Everett store buffers restored records and writes the
     * newest value of each key in key order, so every read, write and commit must see them exactly as
     * if written one by one. Run with the default buffer and with one so small that it drains
     * within a batch.
     */
    @Test
    void restorationInterleavedWithOperationsMatchesTheRocksDbStore() {
        long seed = Seeds.seed();
        EverettStoreOptions tinyBuffer = EverettStoreOptions.defaults().withDbOptions(db -> db.setWriteBufferSize(64 << 10));
        Map<String, org.apache.kafka.streams.state.KeyValueBytesStoreSupplier> subjects = new java.util.LinkedHashMap<>();
        subjects.put("default", StoreFlavor.EVERETT.keyValue("restored-store"));
        subjects.put("with log", StoreFlavor.EVERETT_WITH_LOG.keyValue("restored-store"));
        subjects.put("tiny restore buffer", EverettStores.persistentKeyValueStore("restored-store", tinyBuffer));
        for (var subject : subjects.entrySet()) {
            try {
                runRestoreModel(seed, 400, subject.getKey(), subject.getValue());
            } catch (AssertionFailedError | RuntimeException e) {
                throw new AssertionFailedError(subject.getKey() + ", " + Seeds.replay(seed) + ": " + e.getMessage(), e);
            }
        }
    }

    private void runRestoreModel(long seed, int steps, String label,
            org.apache.kafka.streams.state.KeyValueBytesStoreSupplier supplier) {
        SplittableRandom random = new SplittableRandom(seed);
        var rocks = StoreHarness.open(StoreFlavor.ROCKSDB.keyValue("restored-store"), temp.resolve("rocks-restore-" + label).toFile());
        var everett = StoreHarness.open(supplier, temp.resolve("everett-restore-" + label).toFile());
        KeyValueStore<Bytes, byte[]> reference = rocks.store();
        KeyValueStore<Bytes, byte[]> subject = everett.store();
        var referenceRestore = (org.apache.kafka.streams.processor.internals.RecordBatchingStateRestoreCallback) rocks.context().restoreCallback();
        // As the task's state manager hands batches over: whole changelog records, through Kafka's adapter.
        var subjectRestore = org.apache.kafka.streams.processor.internals.StateRestoreCallbackAdapter.adapt(everett.context().restoreCallback());
        long changelogOffset = 0;
        long committed = 0;
        for (int step = 0; step < steps; step++) {
            String at = "step " + step;
            int op = random.nextInt(100);
            if (op < 35) {
                List<org.apache.kafka.clients.consumer.ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
                for (int i = random.nextInt(1, 200); i > 0; i--) {
                    byte[] key = key(random).get();
                    byte[] value = random.nextInt(6) == 0 ? null : value(random);
                    records.add(new org.apache.kafka.clients.consumer.ConsumerRecord<>(CHANGELOG.topic(), CHANGELOG.partition(),
                            changelogOffset++, key, value));
                }
                referenceRestore.restoreBatch(records);
                subjectRestore.restoreBatch(records);
            } else if (op < 45) {
                putOnBoth(reference, subject, random, 6);
            } else if (op < 50) {
                deleteOnBoth(reference, subject, random, at);
            } else if (op < 70) {
                getOnBoth(reference, subject, random, at);
            } else if (op < 90) {
                int kind = random.nextInt(4);     // ranges and full scans (prefix scans differ at 0xff, see above)
                Bytes from = key(random);
                Bytes to = key(random);
                Lines.assertSameLines(drain(scan(reference, kind, from, to, from)), drain(scan(subject, kind, from, to, from)),
                        at + " scan kind " + kind + " from " + from + " to " + to);
            } else if (op < 95) {          // each commit after restored records flushes the memtable
                committed = changelogOffset;
                commitOnBoth(reference, subject, committed, at);
            } else {
                assertTrue(subject.approximateNumEntries() >= 0, at + " approximateNumEntries");
            }
        }
        List<String> contents = drain(reference.all());
        Lines.assertSameLines(contents, drain(subject.all()), "final contents");
        reference.close();
        subject.close();

        // What the store held at close, restored records included, survives reopening.
        var reopened = StoreHarness.open(supplier, temp.resolve("everett-restore-" + label).toFile());
        try {
            Lines.assertSameLines(contents, drain(reopened.store().all()), "contents after reopen");
            assertEquals(committed == 0 ? null : committed, reopened.store().committedOffset(CHANGELOG), "committed offset after reopen");
        } finally {
            reopened.store().close();
        }
    }

    @Test
    void iteratorsOpenAtCloseAreClosedWithTheStore() {
        for (StoreFlavor flavor : StoreFlavor.values()) {
            var opened = StoreHarness.open(flavor.keyValue("closing"), temp.resolve("closing-" + flavor).toFile());
            KeyValueStore<Bytes, byte[]> store = opened.store();
            store.put(Bytes.wrap(new byte[] {1}), new byte[] {1});
            store.put(Bytes.wrap(new byte[] {2}), new byte[] {2});
            KeyValueIterator<Bytes, byte[]> iterator = store.all();
            iterator.next();
            store.close();
            assertThrows(InvalidStateStoreException.class, iterator::hasNext, flavor + ": iterator after close");
            assertThrows(InvalidStateStoreException.class, () -> store.get(Bytes.wrap(new byte[] {1})), flavor + ": get after close");
            store.close(); // idempotent
            assertEquals(false, store.isOpen(), flavor + ": isOpen after close");
            assertTrue(store.persistent(), flavor + ": persistent");
        }
    }

    /**
     * IQv2 on the bare bytes stores: key and range queries in both orders, a query type the store
     * does not answer, position bounds reached and not reached, and execution info on request.
     */
    @Test
    void interactiveQueriesMatchTheRocksDbStore() {
        List<List<String>> answers = new ArrayList<>();
        for (StoreFlavor flavor : StoreFlavor.values()) {
            var opened = StoreHarness.open(flavor.keyValue("queried"), temp.resolve("queried-" + flavor).toFile());
            KeyValueStore<Bytes, byte[]> store = opened.store();
            for (int i = 0; i < 20; i++) {
                opened.context().processing("input", 0, 100 + i);
                store.put(Bytes.wrap(new byte[] {(byte) (i * 7)}), new byte[] {(byte) i});
            }
            QueryConfig plain = new QueryConfig(false);
            List<String> results = new ArrayList<>();
            results.add(describe(store.query(KeyQuery.withKey(Bytes.wrap(new byte[] {14})), PositionBound.unbounded(), plain)));
            results.add(describe(store.query(KeyQuery.withKey(Bytes.wrap(new byte[] {15})), PositionBound.unbounded(), plain)));
            results.add(describe(store.query(RangeQuery.withRange(Bytes.wrap(new byte[] {20}), Bytes.wrap(new byte[] {70})),
                    PositionBound.unbounded(), plain)));
            results.add(describe(store.query(RangeQuery.<Bytes, byte[]>withLowerBound(Bytes.wrap(new byte[] {100})).withDescendingKeys(),
                    PositionBound.unbounded(), plain)));
            results.add(describe(store.query(RangeQuery.<Bytes, byte[]>withNoBounds(), PositionBound.unbounded(), plain)));
            results.add(describe(store.query(WindowKeyQuery.withKeyAndWindowStartRange(Bytes.wrap(new byte[] {1}),
                    java.time.Instant.EPOCH, java.time.Instant.EPOCH), PositionBound.unbounded(), plain)));
            results.add(describe(store.query(KeyQuery.withKey(Bytes.wrap(new byte[] {14})),
                    PositionBound.at(Position.emptyPosition().withComponent("input", 0, 119)), plain)));
            results.add(describe(store.query(KeyQuery.withKey(Bytes.wrap(new byte[] {14})),
                    PositionBound.at(Position.emptyPosition().withComponent("input", 0, 120)), plain)));
            results.add(describe(store.query(KeyQuery.withKey(Bytes.wrap(new byte[] {14})),
                    PositionBound.at(Position.emptyPosition().withComponent("other", 0, 1)), plain)));
            QueryResult<byte[]> explained = store.query(KeyQuery.withKey(Bytes.wrap(new byte[] {14})),
                    PositionBound.unbounded(), new QueryConfig(true));
            results.add("execution info given: " + !explained.getExecutionInfo().isEmpty());
            answers.add(results);
            store.close();
        }
        Lines.assertSameLines(answers.get(0), answers.get(1), "IQv2 answers");
    }

    private static String describe(QueryResult<?> result) {
        if (result.isFailure()) {
            return "failure " + result.getFailureReason() + " position " + result.getPosition();
        }
        Object value = result.getResult();
        if (value instanceof KeyValueIterator<?, ?> iterator) {
            @SuppressWarnings("unchecked")
            KeyValueIterator<Bytes, byte[]> records = (KeyValueIterator<Bytes, byte[]>) iterator;
            value = drain(records);
        } else if (value instanceof byte[] bytes) {
            value = Bytes.wrap(bytes);
        }
        return "result " + value + " position " + result.getPosition();
    }

    @Test
    void emptyCommitClearsCommittedOffsets() {
        for (StoreFlavor flavor : StoreFlavor.values()) {
            var opened = StoreHarness.open(flavor.keyValue("offsets"), temp.resolve("offsets-" + flavor).toFile());
            KeyValueStore<Bytes, byte[]> store = opened.store();
            TopicPartition other = new TopicPartition("other", 3);
            store.commit(Map.of(CHANGELOG, 41L, other, 7L));
            assertEquals(41L, store.committedOffset(CHANGELOG), flavor.name());
            java.util.HashMap<TopicPartition, Long> removeOne = new java.util.HashMap<>();
            removeOne.put(other, null);
            store.commit(removeOne);
            assertEquals(null, store.committedOffset(other), flavor + ": null value removes one offset");
            assertEquals(41L, store.committedOffset(CHANGELOG), flavor + ": other offsets stay");
            store.commit(Map.of());
            assertEquals(null, store.committedOffset(CHANGELOG), flavor + ": empty commit clears all");
            store.close();
        }
    }

    /** Puts one random key on both stores: a random value, or a delete one time in {@code deleteOneIn}. */
    private static void putOnBoth(KeyValueStore<Bytes, byte[]> reference, KeyValueStore<Bytes, byte[]> subject,
            SplittableRandom random, int deleteOneIn) {
        Bytes key = key(random);
        byte[] value = random.nextInt(deleteOneIn) == 0 ? null : value(random);
        reference.put(key, value);
        subject.put(key, value);
    }

    private static void deleteOnBoth(KeyValueStore<Bytes, byte[]> reference, KeyValueStore<Bytes, byte[]> subject,
            SplittableRandom random, String at) {
        Bytes key = key(random);
        assertArrayEquals(reference.delete(key), subject.delete(key), at + " delete");
    }

    private static void getOnBoth(KeyValueStore<Bytes, byte[]> reference, KeyValueStore<Bytes, byte[]> subject,
            SplittableRandom random, String at) {
        Bytes key = key(random);
        assertArrayEquals(reference.get(key), subject.get(key), at + " get " + key);
    }

    private static void commitOnBoth(KeyValueStore<Bytes, byte[]> reference, KeyValueStore<Bytes, byte[]> subject, long offset, String at) {
        Map<TopicPartition, Long> offsets = Map.of(CHANGELOG, offset);
        reference.commit(offsets);
        subject.commit(offsets);
        assertEquals(reference.committedOffset(CHANGELOG), subject.committedOffset(CHANGELOG), at + " committed offset");
    }

    private static KeyValueIterator<Bytes, byte[]> scan(KeyValueStore<Bytes, byte[]> store, int kind, Bytes from, Bytes to, Bytes prefix) {
        return switch (kind) {
            case 0 -> store.range(from, to);
            case 1 -> store.reverseRange(from, to);
            case 2 -> store.all();
            case 3 -> store.reverseAll();
            case 4 -> store.prefixScan(prefix, Serdes.Bytes().serializer());
            default -> store.range(from, from);
        };
    }

    private static Bytes key(SplittableRandom random) {
        byte[] key = new byte[random.nextInt(1, 4)];
        for (int i = 0; i < key.length; i++) {
            key[i] = ALPHABET[random.nextInt(ALPHABET.length)];
        }
        return Bytes.wrap(key);
    }

    private static byte[] value(SplittableRandom random) {
        byte[] value = new byte[random.nextInt(0, 9)];
        random.nextBytes(value);
        return value;
    }

    private static String text(KeyValue<Bytes, byte[]> kv) {
        return kv.key + "=" + Bytes.wrap(kv.value);
    }

    private static List<String> drain(KeyValueIterator<Bytes, byte[]> iterator) {
        return drain(iterator, Bytes.wrap(new byte[0]));
    }

    /** The records of {@code iterator} whose keys start with {@code prefix}, as text. */
    private static List<String> drain(KeyValueIterator<Bytes, byte[]> iterator, Bytes prefix) {
        List<String> lines = new ArrayList<>();
        byte[] p = prefix.get();
        try (iterator) {
            while (iterator.hasNext()) {
                KeyValue<Bytes, byte[]> next = iterator.next();
                byte[] key = next.key.get();
                if (key.length >= p.length && java.util.Arrays.equals(key, 0, p.length, p, 0, p.length)) {
                    lines.add(text(next));
                }
            }
        }
        return lines;
    }
}

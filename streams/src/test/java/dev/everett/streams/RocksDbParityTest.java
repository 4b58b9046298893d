package dev.everett.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.internals.ChangelogRecordDeserializationHelper;
import org.apache.kafka.streams.processor.internals.RecordBatchingStateRestoreCallback;
import org.apache.kafka.streams.processor.internals.StateRestoreCallbackAdapter;
import org.apache.kafka.streams.query.KeyQuery;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.RangeQuery;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.internals.PositionSerde;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Single behaviours of the bare bytes store, each run on Kafka Streams' RocksDB store and on the
 * Everett stores: the answers (or the exception types) must be the same.
 */
class RocksDbParityTest {
    private static final TopicPartition CHANGELOG = new TopicPartition("parity-changelog", 0);

    @TempDir
    Path temp;

    /** Runs {@code scenario} on a fresh store of every flavour and checks they all answer as RocksDB does. */
    private void sameOnEveryFlavor(String what, Function<StoreHarness.Opened, String> scenario) {
        sameOnEveryFlavor(what, Map.of(), (opened, reopen) -> scenario.apply(opened));
    }

    /** A scenario that may also reopen its store (same supplier, directory and configuration) after closing it. */
    private interface Reopening {
        String apply(StoreHarness.Opened opened, Supplier<StoreHarness.Opened> reopen);
    }

    /** As above, under the application configuration {@code config}, for a scenario that may reopen its store. */
    private void sameOnEveryFlavor(String what, Map<String, Object> config, Reopening scenario) {
        List<String> answers = new ArrayList<>();
        for (StoreFlavor flavor : StoreFlavor.values()) {
            var dir = temp.resolve(what + "-" + flavor).toFile();
            var opened = StoreHarness.open(flavor.keyValue("parity"), dir, config);
            String answer;
            try {
                answer = scenario.apply(opened, () -> StoreHarness.open(flavor.keyValue("parity"), dir, config));
            } catch (RuntimeException e) {
                answer = "threw " + e.getClass().getSimpleName();
            } finally {
                opened.store().close();
            }
            answers.add(flavor + ": " + answer);
        }
        for (int i = 1; i < answers.size(); i++) {
            assertEquals(answers.get(0).substring(answers.get(0).indexOf(':')),
                    answers.get(i).substring(answers.get(i).indexOf(':')), what + ": " + answers);
        }
    }

    private static Bytes key(int b) {
        return Bytes.wrap(new byte[] {(byte) b});
    }

    /** A punctuator's writes run with record metadata whose topic is null: no position to record, not a failure. */
    @Test
    void writesFromAPunctuatorLeaveThePositionAlone() {
        sameOnEveryFlavor("punctuator", opened -> {
            KeyValueStore<Bytes, byte[]> store = opened.store();
            opened.context().processing("input", 0, 5);
            store.put(key(1), new byte[] {1});
            opened.context().processing(null, -1, -1L);
            store.put(key(2), new byte[] {2});
            store.putAll(List.of(org.apache.kafka.streams.KeyValue.pair(key(3), new byte[] {3})));
            store.delete(key(1));
            return "position " + store.getPosition();
        });
    }

    /** The estimate counts the store's records only, not the store's own bookkeeping. */
    @Test
    void approximateNumEntriesCountsRecordsOnly() {
        sameOnEveryFlavor("entries", opened -> {
            KeyValueStore<Bytes, byte[]> store = opened.store();
            long empty = store.approximateNumEntries();
            store.put(key(1), new byte[] {1});
            store.put(key(2), new byte[] {2});
            store.put(key(3), new byte[] {3});
            long three = store.approximateNumEntries();
            store.commit(Map.of(CHANGELOG, 10L));
            long committed = store.approximateNumEntries();
            return "empty " + empty + ", three " + three + ", after commit " + committed;
        });
    }

    /** The position handed out is a snapshot: later writes do not change it, and changing it does not change the store's. */
    @Test
    void getPositionHandsOutACopy() {
        sameOnEveryFlavor("position-copy", opened -> {
            KeyValueStore<Bytes, byte[]> store = opened.store();
            opened.context().processing("input", 0, 5);
            store.put(key(1), new byte[] {1});
            Position before = store.getPosition();
            opened.context().processing("input", 0, 6);
            store.put(key(2), new byte[] {2});
            String seen = before.toString();
            before.withComponent("elsewhere", 3, 9);
            return "held " + seen + ", store " + store.getPosition();
        });
    }

    /** putIfAbsent with a null value on an absent key writes nothing (the position does not move). */
    @Test
    void putIfAbsentOfNullOnAnAbsentKeyWritesNothing() {
        sameOnEveryFlavor("put-if-absent-null", opened -> {
            KeyValueStore<Bytes, byte[]> store = opened.store();
            opened.context().processing("input", 0, 5);
            store.put(key(1), new byte[] {1});
            opened.context().processing("input", 0, 6);
            byte[] previous = store.putIfAbsent(key(2), null);
            return "previous " + previous + ", position " + store.getPosition();
        });
    }

    /** An inverted range is empty without looking at the store, so even a closed store answers it. */
    @Test
    void invertedRangeOnAClosedStoreIsEmpty() {
        sameOnEveryFlavor("inverted-closed", opened -> {
            KeyValueStore<Bytes, byte[]> store = opened.store();
            store.put(key(1), new byte[] {1});
            store.close();
            List<String> answers = new ArrayList<>();
            for (boolean reverse : new boolean[] {false, true}) {
                try (KeyValueIterator<Bytes, byte[]> it = reverse ? store.reverseRange(key(5), key(1)) : store.range(key(5), key(1))) {
                    answers.add("hasNext " + it.hasNext());
                } catch (RuntimeException e) {
                    answers.add("threw " + e.getClass().getSimpleName());
                }
            }
            return answers.toString();
        });
    }

    /** An inverted range's empty iterator is not the store's: closing the store leaves it answering. */
    @Test
    void invertedRangeIteratorSurvivesStoreClose() {
        sameOnEveryFlavor("inverted-open", opened -> {
            KeyValueStore<Bytes, byte[]> store = opened.store();
            store.put(key(1), new byte[] {1});
            KeyValueIterator<Bytes, byte[]> it = store.range(key(5), key(1));
            store.close();
            try {
                return "hasNext " + it.hasNext();
            } catch (RuntimeException e) {
                return "threw " + e.getClass().getSimpleName();
            }
        });
    }

    /** A closed store: a prefix scan and a get fail as closed before their arguments are checked, a batch checks its keys first. */
    @Test
    void closedStoreChecksOpenBeforeArguments() {
        sameOnEveryFlavor("closed-arguments", opened -> {
            KeyValueStore<Bytes, byte[]> store = opened.store();
            store.close();
            List<String> answers = new ArrayList<>();
            try {
                store.prefixScan(null, new org.apache.kafka.common.serialization.BytesSerializer());
            } catch (RuntimeException e) {
                answers.add("prefixScan threw " + e.getClass().getSimpleName());
            }
            try {
                store.get(null);
            } catch (RuntimeException e) {
                answers.add("get threw " + e.getClass().getSimpleName());
            }
            try {
                List<org.apache.kafka.streams.KeyValue<Bytes, byte[]>> batch = new ArrayList<>();
                batch.add(org.apache.kafka.streams.KeyValue.pair(null, new byte[] {1}));
                store.putAll(batch);
            } catch (RuntimeException e) {
                answers.add("putAll threw " + e.getClass().getSimpleName());
            }
            return answers.toString();
        });
    }

    /** A closed store's committed offsets are not to be read: the built-in store says it is closed. */
    @Test
    void committedOffsetOfAClosedStoreFailsAsClosed() {
        sameOnEveryFlavor("closed-offset", opened -> {
            KeyValueStore<Bytes, byte[]> store = opened.store();
            store.commit(Map.of(CHANGELOG, 10L));
            store.close();
            store.commit(Map.of(CHANGELOG, 11L));   // a commit after close is ignored by both
            try {
                return "offset " + store.committedOffset(CHANGELOG);
            } catch (RuntimeException e) {
                return "threw " + e.getClass().getSimpleName();
            }
        });
    }

    /** Kafka's internal switch for the offset vector that changelog records carry and restoration reads. */
    private static Map<String, Object> consistency(boolean enabled) {
        return Map.of(StreamsConfig.InternalConfig.IQ_CONSISTENCY_OFFSET_VECTOR_ENABLED, enabled);
    }

    /** A changelog record as a task writes it with consistency on: a version header and the writer's position. */
    private static ConsumerRecord<byte[], byte[]> changelogRecord(long offset, int key, byte[] value, Position position) {
        RecordHeaders headers = new RecordHeaders();
        headers.add(ChangelogRecordDeserializationHelper.CHANGELOG_VERSION_HEADER_RECORD_CONSISTENCY);
        if (position != null) {
            headers.add(new RecordHeader(ChangelogRecordDeserializationHelper.CHANGELOG_POSITION_HEADER_KEY,
                    Utils.toArray(PositionSerde.serialize(position))));
        }
        return changelogRecord(offset, key, value, headers);
    }

    private static ConsumerRecord<byte[], byte[]> changelogRecord(long offset, int key, byte[] value, RecordHeaders headers) {
        return new ConsumerRecord<>(CHANGELOG.topic(), CHANGELOG.partition(), offset, 0L, TimestampType.CREATE_TIME,
                1, value == null ? -1 : value.length, new byte[] {(byte) key}, value, headers, Optional.empty());
    }

    /** Hands a batch to the store's restore callback as the task's state manager does (through Kafka's adapter). */
    private static void restore(StoreHarness.Opened opened, List<ConsumerRecord<byte[], byte[]>> batch) {
        RecordBatchingStateRestoreCallback callback = StateRestoreCallbackAdapter.adapt(opened.context().restoreCallback());
        callback.restoreBatch(batch);
    }

    private static Position input(long offset) {
        return Position.emptyPosition().withComponent("input", 0, offset);
    }

    @SuppressWarnings("unchecked")
    private static String describe(QueryResult<?> result) {
        if (result.isFailure()) {
            return result.getFailureReason() + " at " + result.getPosition();
        }
        Object value = result.getResult();
        if (value instanceof KeyValueIterator<?, ?> iterator) {
            List<String> entries = new ArrayList<>();
            try (var it = (KeyValueIterator<Bytes, byte[]>) iterator) {
                it.forEachRemaining(kv -> entries.add(kv.key + "=" + java.util.Arrays.toString(kv.value)));
            }
            value = entries;
        } else if (value instanceof byte[] bytes) {
            value = java.util.Arrays.toString(bytes);
        }
        return value + " at " + result.getPosition();
    }

    /**
     * Restoration reads the position each changelog record carries (when IQ consistency is on, a
     * Kafka internal configuration): afterwards the store's position, and so what a position-bound
     * query answers, are those of the writer, and the next commit persists that position. With
     * consistency off, the headers are ignored and the position stays empty.
     */
    @ParameterizedTest(name = "consistency {0}")
    @ValueSource(booleans = {true, false})
    void restoredRecordsMoveThePositionTheyCarry(boolean enabled) {
        sameOnEveryFlavor("restore-position-" + enabled, consistency(enabled), (opened, reopen) -> {
            KeyValueStore<Bytes, byte[]> store = opened.store();
            List<String> answers = new ArrayList<>();
            restore(opened, List.of(
                    changelogRecord(0, 1, new byte[] {1}, input(10)),
                    changelogRecord(1, 2, new byte[] {2}, input(11).withComponent("other", 0, 3)),
                    changelogRecord(2, 1, null, input(12))));
            answers.add("after one batch " + store.getPosition());
            restore(opened, List.of(
                    changelogRecord(3, 3, new byte[] {3}, input(13)),
                    changelogRecord(4, 2, new byte[] {4}, input(14))));
            answers.add("after two " + store.getPosition());
            QueryConfig plain = new QueryConfig(false);
            answers.add("key reached " + describe(store.query(KeyQuery.withKey(key(2)), PositionBound.at(input(14)), plain)));
            answers.add("key ahead " + describe(store.query(KeyQuery.withKey(key(2)), PositionBound.at(input(15)), plain)));
            answers.add("range reached " + describe(store.query(RangeQuery.withNoBounds(),
                    PositionBound.at(input(12).withComponent("other", 0, 3)), plain)));
            answers.add("range other ahead " + describe(store.query(RangeQuery.withNoBounds(),
                    PositionBound.at(Position.emptyPosition().withComponent("other", 0, 4)), plain)));
            store.commit(Map.of(CHANGELOG, 5L));
            store.close();
            var reopened = reopen.get();
            try {
                answers.add("reopened " + reopened.store().getPosition());
                answers.add("reopened key reached " + describe(reopened.store().query(KeyQuery.withKey(key(3)),
                        PositionBound.at(input(14)), plain)));
            } finally {
                reopened.store().close();
            }
            return String.join("; ", answers);
        });
    }

    /**
     * Under consistency, a record without headers (written before consistency was turned on) moves
     * nothing, while a versioned record without its position is refused, as on RocksDB.
     */
    @Test
    void restoredRecordsWithoutAPositionUnderConsistency() {
        sameOnEveryFlavor("restore-no-position", consistency(true), (opened, reopen) -> {
            List<String> answers = new ArrayList<>();
            restore(opened, List.of(changelogRecord(0, 1, new byte[] {1}, new RecordHeaders())));
            answers.add("unversioned " + opened.store().getPosition());
            restore(opened, List.of(changelogRecord(1, 2, new byte[] {2}, input(7))));
            answers.add("versioned " + opened.store().getPosition());
            try {
                restore(opened, List.of(changelogRecord(2, 3, new byte[] {3}, (Position) null)));
                answers.add("missing position accepted");
            } catch (RuntimeException e) {
                answers.add("missing position threw " + e.getClass().getSimpleName());
            }
            answers.add("then " + opened.store().getPosition());
            return String.join("; ", answers);
        });
    }
}

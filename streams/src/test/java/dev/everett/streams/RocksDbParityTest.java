package dev.everett.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
        List<String> answers = new ArrayList<>();
        for (StoreFlavor flavor : StoreFlavor.values()) {
            var opened = StoreHarness.open(flavor.keyValue("parity"), temp.resolve(what + "-" + flavor).toFile());
            String answer;
            try {
                answer = scenario.apply(opened);
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
}

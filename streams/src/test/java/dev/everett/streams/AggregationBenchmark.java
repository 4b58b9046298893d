package dev.everett.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.SplittableRandom;
import java.nio.file.FileVisitResult;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.LongSerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyConfig;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.processor.BatchingStateRestoreCallback;
import org.apache.kafka.streams.processor.StateRestoreCallback;
import org.apache.kafka.streams.processor.internals.RecordBatchingStateRestoreCallback;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ValueAndTimestamp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Everett stores (with and without their write-ahead log) against Kafka Streams' built-in RocksDB
 * stores in the same run: an aggregation
 * topology through TopologyTestDriver, the same updates on the bare bytes store (get then put, as
 * an aggregation does), and a changelog restore through the batching callback. Reports records per
 * second, state bytes on disk, heap after a GC and the process RSS, and checks both flavours end
 * with the same state.
 *
 * <p>Not part of the test run (the class name does not match Surefire's patterns); run it with
 * <pre>.ci/with-jdk25 ./mvnw -B -q -pl streams -am test -Dtest=AggregationBenchmark -Dsurefire.failIfNoSpecifiedTests=false -Deverett.bench.records=1000000</pre>
 * Figures on a shared machine are indicative only.
 */
class AggregationBenchmark {
    private static final int RECORDS = Integer.getInteger("everett.bench.records", 1_000_000);
    private static final int KEYS = Integer.getInteger("everett.bench.keys", 100_000);

    @TempDir
    Path temp;

    private final List<String> report = new ArrayList<>() {
        @Override
        public boolean add(String line) {
            System.out.println(line);          // as it comes, so a long run shows progress
            return super.add(line);
        }
    };

    @Test
    void run() throws IOException {
        report.add(String.format(Locale.ROOT, "records=%d keys=%d jdk=%s cores=%d", RECORDS, KEYS,
                System.getProperty("java.version"), Runtime.getRuntime().availableProcessors()));
        String[] topology = new String[StoreFlavor.values().length];
        String[] direct = new String[StoreFlavor.values().length];
        for (int round = 0; round < 2; round++) {          // round 0 warms the JIT; round 1 is reported
            boolean reported = round == 1;
            for (StoreFlavor flavor : StoreFlavor.values()) {
                topology[flavor.ordinal()] = aggregationTopology(flavor, round, reported);
            }
            for (StoreFlavor flavor : StoreFlavor.values()) {
                direct[flavor.ordinal()] = directUpdates(flavor, round, reported);
            }
        }
        for (StoreFlavor flavor : StoreFlavor.values()) {
            assertEquals(topology[0], topology[flavor.ordinal()], flavor + " ends the topology with the same aggregates");
            assertEquals(direct[0], direct[flavor.ordinal()], flavor + " ends the direct updates with the same contents");
        }
        for (StoreFlavor flavor : StoreFlavor.values()) {
            restoration(flavor);
        }
        Path out = Path.of("target", "streams-bench.txt");
        Files.createDirectories(out.getParent());
        Files.write(out, report);
    }

    /** Sums amounts per key through a DSL aggregation; returns a digest of the final store. */
    private String aggregationTopology(StoreFlavor flavor, int round, boolean reported) throws IOException {
        Path stateDir = temp.resolve("topology-" + flavor + "-" + round);
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "bench");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);   // every update reaches the store
        flavor.configure(props);
        StreamsBuilder builder = new StreamsBuilder(new TopologyConfig(new StreamsConfig(props)));
        builder.stream("amounts", Consumed.with(Serdes.String(), Serdes.Long()))
                .groupByKey(Grouped.with(Serdes.String(), Serdes.Long()))
                .aggregate(() -> 0L, (key, amount, total) -> total + amount,
                        Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as("totals")
                                .withKeySerde(Serdes.String()).withValueSerde(Serdes.Long()));
        int records = reported ? RECORDS : Math.max(1, RECORDS / 10);
        String digest;
        try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), props)) {
            TestInputTopic<String, Long> input = driver.createInputTopic("amounts", new StringSerializer(),
                    new LongSerializer(), Instant.ofEpochMilli(0), Duration.ofMillis(1));
            SplittableRandom random = new SplittableRandom(31);
            String[] keys = keys();
            long start = System.nanoTime();
            for (int i = 0; i < records; i++) {
                input.pipeInput(keys[random.nextInt(KEYS)], (long) random.nextInt(1000));
            }
            long nanos = System.nanoTime() - start;
            KeyValueStore<String, ValueAndTimestamp<Long>> totals = driver.getTimestampedKeyValueStore("totals");
            digest = digest(totals);
            if (reported) {
                report.add(line("topology", flavor, records, nanos, stateDir));
            }
        }
        return digest;
    }

    /** The updates an aggregation makes, on the bare bytes store: get, add, put; a commit every 1000. */
    private String directUpdates(StoreFlavor flavor, int round, boolean reported) throws IOException {
        Path stateDir = temp.resolve("direct-" + flavor + "-" + round);
        var opened = StoreHarness.open(flavor.keyValue("direct"), stateDir.toFile());
        KeyValueStore<Bytes, byte[]> store = opened.store();
        int records = reported ? RECORDS : Math.max(1, RECORDS / 10);
        Bytes[] keys = new Bytes[KEYS];
        String[] names = keys();
        for (int i = 0; i < KEYS; i++) {
            keys[i] = Bytes.wrap(names[i].getBytes(StandardCharsets.UTF_8));
        }
        SplittableRandom random = new SplittableRandom(37);
        var changelog = new org.apache.kafka.common.TopicPartition("direct-changelog", 0);
        long start = System.nanoTime();
        for (int i = 0; i < records; i++) {
            Bytes key = keys[random.nextInt(KEYS)];
            byte[] old = store.get(key);
            long total = (old == null ? 0 : java.nio.ByteBuffer.wrap(old).getLong()) + random.nextInt(1000);
            store.put(key, java.nio.ByteBuffer.allocate(8).putLong(total).array());
            if (i % 1000 == 999) {
                store.commit(java.util.Map.of(changelog, (long) i));
            }
        }
        long nanos = System.nanoTime() - start;
        String digest;
        try (KeyValueIterator<Bytes, byte[]> all = store.all()) {
            long sum = 0;
            long count = 0;
            while (all.hasNext()) {
                KeyValue<Bytes, byte[]> kv = all.next();
                sum = sum * 31 + kv.key.hashCode() + java.util.Arrays.hashCode(kv.value);
                count++;
            }
            digest = count + ":" + sum;
        }
        if (reported) {
            report.add(line("direct get+put", flavor, records, nanos, stateDir));
        }
        store.close();
        return digest;
    }

    /** Restores a changelog of RECORDS updates in batches of 1000 through the store's restore callback. */
    private void restoration(StoreFlavor flavor) throws IOException {
        Path stateDir = temp.resolve("restore-" + flavor);
        var opened = StoreHarness.open(flavor.keyValue("restored"), stateDir.toFile());
        StateRestoreCallback callback = opened.context().restoreCallback();
        String[] names = keys();
        SplittableRandom random = new SplittableRandom(41);
        var changelog = new org.apache.kafka.common.TopicPartition("restored-changelog", 0);
        long start = System.nanoTime();
        for (int done = 0; done < RECORDS; ) {
            List<KeyValue<byte[], byte[]>> batch = new ArrayList<>(1000);
            List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>(1000);
            for (int i = 0; i < 1000 && done < RECORDS; i++, done++) {
                byte[] key = names[random.nextInt(KEYS)].getBytes(StandardCharsets.UTF_8);
                byte[] value = java.nio.ByteBuffer.allocate(8).putLong(done).array();
                batch.add(KeyValue.pair(key, value));
                records.add(new ConsumerRecord<>(changelog.topic(), 0, done, key, value));
            }
            if (callback instanceof RecordBatchingStateRestoreCallback rocks) {
                rocks.restoreBatch(records);                  // the built-in store's (internal) callback
            } else {
                ((BatchingStateRestoreCallback) callback).restoreAll(batch);
            }
        }
        opened.store().commit(java.util.Map.of(changelog, (long) RECORDS));
        long nanos = System.nanoTime() - start;
        report.add(line("restore", flavor, RECORDS, nanos, stateDir));
        opened.store().close();
    }

    private static String[] keys() {
        String[] keys = new String[KEYS];
        for (int i = 0; i < KEYS; i++) {
            keys[i] = String.format(Locale.ROOT, "customer-%08d", (i * 2654435761L) % 100_000_000L);
        }
        return keys;
    }

    private static String digest(KeyValueStore<String, ValueAndTimestamp<Long>> store) {
        long count = 0;
        long hash = 0;
        try (KeyValueIterator<String, ValueAndTimestamp<Long>> all = store.all()) {
            while (all.hasNext()) {
                KeyValue<String, ValueAndTimestamp<Long>> kv = all.next();
                hash = hash * 31 + kv.key.hashCode() + kv.value.value().hashCode() + Long.hashCode(kv.value.timestamp());
                count++;
            }
        }
        return count + ":" + hash;
    }

    private static String line(String what, StoreFlavor flavor, int records, long nanos, Path stateDir) throws IOException {
        System.gc();
        long heap = Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory();
        return String.format(Locale.ROOT, "%-15s %-19s %,12.0f records/s  %,8.1f MiB on disk  heap %,7.1f MiB  rss %,7.1f MiB",
                what, flavor, records / (nanos / 1e9), bytesUnder(stateDir) / 1048576.0, heap / 1048576.0, rssBytes() / 1048576.0);
    }

    private static long bytesUnder(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return 0;
        }
        long[] total = {0};
        // The stores' background work deletes files (old logs, compacted segments) while we walk.
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                total[0] += attributes.size();
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
                return FileVisitResult.CONTINUE;
            }
        });
        return total[0];
    }

    private static long rssBytes() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
            }
        }
        return -1;
    }
}

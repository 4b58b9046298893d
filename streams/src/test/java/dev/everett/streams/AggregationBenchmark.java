package dev.everett.streams;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.SplittableRandom;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
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

/**
 * One flavour of store ({@link StoreFlavor}) through the streams benchmark, in this JVM alone, so
 * that its process RSS (RocksDB's native memory included) is its own:
 *
 * <ol>
 *   <li><b>topology</b>: a DSL aggregation (sum per key over {@code records} records on {@code keys}
 *       keys, record cache off so every update reaches the store) through {@link TopologyTestDriver};
 *       heap after a GC, RSS and bytes on disk are read with the store still open;</li>
 *   <li><b>direct</b>: the same get-then-put updates on the bare bytes store, a commit every 1,000;
 *       bytes on disk once it closed;</li>
 *   <li><b>restore</b>: a changelog of {@code records} updates of the {@code keys} keys, handed to the
 *       store's restore callback in batches of 1,000 as Kafka Streams does, then the commit that
 *       follows restoration (for an Everett store with its log, the flush to segments).</li>
 * </ol>
 *
 * Each timed phase follows an untimed warm-up of a tenth of the records in its own directory. The
 * result is one flat JSON object (throughputs, bytes, the digests of every final state so the
 * runner can check that all flavours agree). {@link AggregationBenchmarkRunner} starts one such JVM
 * per flavour and repeat; this class is not a test (Surefire's patterns do not match it).
 *
 * <pre>java -cp TEST_CLASSPATH dev.everett.streams.AggregationBenchmark FLAVOUR RECORDS KEYS WORK_DIR OUT.json</pre>
 */
final class AggregationBenchmark {
    private static final int BATCH = 1_000;

    private final StoreFlavor flavor;
    private final int records;
    private final int keys;
    private final Path work;
    private final String[] keyNames;
    private final Map<String, Object> result = new LinkedHashMap<>();

    AggregationBenchmark(StoreFlavor flavor, int records, int keys, Path work) {
        if (records < 10 || keys < 1) {
            throw new IllegalArgumentException("records must be at least 10 and keys at least 1, got " + records + " and " + keys);
        }
        this.flavor = flavor;
        this.records = records;
        this.keys = keys;
        this.work = work;
        this.keyNames = new String[keys];
        for (int i = 0; i < keys; i++) {
            keyNames[i] = String.format(Locale.ROOT, "customer-%08d", (i * 2654435761L) % 100_000_000L);
        }
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 5) {
            System.err.println("usage: AggregationBenchmark FLAVOUR RECORDS KEYS WORK_DIR OUT.json (FLAVOUR: "
                    + Arrays.toString(StoreFlavor.values()) + ")");
            System.exit(2);
        }
        AggregationBenchmark run = new AggregationBenchmark(StoreFlavor.valueOf(args[0]), Integer.parseInt(args[1]),
                Integer.parseInt(args[2]), Path.of(args[3]));
        Files.writeString(Path.of(args[4]), BenchJson.write(run.run()) + "\n");
    }

    /** Runs the three phases; returns the flat result. */
    Map<String, Object> run() throws IOException {
        result.put("flavour", flavor.name());
        result.put("records", records);
        result.put("keys", keys);
        result.put("jdk", System.getProperty("java.version"));
        result.put("cores", Runtime.getRuntime().availableProcessors());
        result.put("max_heap_bytes", Runtime.getRuntime().maxMemory());
        aggregationTopology("topology-warmup", records / 10, false);
        aggregationTopology("topology", records, true);
        directUpdates("direct-warmup", records / 10, false);
        directUpdates("direct", records, true);
        restoration("restore-warmup", records / 10, false);
        restoration("restore", records, true);
        result.put("rss_end_bytes", procStatusBytes("VmRSS:"));
        result.put("rss_peak_bytes", procStatusBytes("VmHWM:"));
        return result;
    }

    /** Sums amounts per key through a DSL aggregation. */
    private void aggregationTopology(String phase, int count, boolean reported) throws IOException {
        Path stateDir = work.resolve(phase);
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
        try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), props)) {
            TestInputTopic<String, Long> input = driver.createInputTopic("amounts", new StringSerializer(),
                    new LongSerializer(), Instant.ofEpochMilli(0), Duration.ofMillis(1));
            SplittableRandom random = new SplittableRandom(31);
            long start = System.nanoTime();
            for (int i = 0; i < count; i++) {
                input.pipeInput(keyNames[random.nextInt(keys)], (long) random.nextInt(1000));
            }
            long nanos = System.nanoTime() - start;
            if (reported) {
                result.put("topology_records_per_s", count / (nanos / 1e9));
                result.put("topology_digest", digest(driver.getTimestampedKeyValueStore("totals")));
                result.put("topology_heap_after_gc_bytes", heapAfterGc());
                result.put("topology_rss_bytes", procStatusBytes("VmRSS:"));
                // While the stores are open (the driver deletes the state directory as it closes):
                // what they have written to disk by then.
                result.put("topology_disk_bytes", bytesUnder(stateDir));
            }
        }
    }

    /** The updates an aggregation makes, on the bare bytes store: get, add, put; a commit every 1,000. */
    private void directUpdates(String phase, int count, boolean reported) throws IOException {
        Path stateDir = work.resolve(phase);
        var opened = StoreHarness.open(flavor.keyValue("direct"), stateDir.toFile());
        KeyValueStore<Bytes, byte[]> store = opened.store();
        Bytes[] wrapped = new Bytes[keys];
        for (int i = 0; i < keys; i++) {
            wrapped[i] = Bytes.wrap(keyNames[i].getBytes(StandardCharsets.UTF_8));
        }
        SplittableRandom random = new SplittableRandom(37);
        TopicPartition changelog = new TopicPartition("direct-changelog", 0);
        long start = System.nanoTime();
        for (int i = 0; i < count; i++) {
            Bytes key = wrapped[random.nextInt(keys)];
            byte[] old = store.get(key);
            long total = (old == null ? 0 : ByteBuffer.wrap(old).getLong()) + random.nextInt(1000);
            store.put(key, ByteBuffer.allocate(Long.BYTES).putLong(total).array());
            if (i % BATCH == BATCH - 1) {
                store.commit(Map.of(changelog, (long) i));
            }
        }
        long nanos = System.nanoTime() - start;
        if (reported) {
            result.put("direct_records_per_s", count / (nanos / 1e9));
            result.put("direct_digest", digest(store));
        }
        store.close();
        if (reported) {
            result.put("direct_disk_bytes", bytesUnder(stateDir));     // at rest: after the close's flush
        }
    }

    /** Restores a changelog of {@code count} updates in batches of 1,000 through the store's restore callback. */
    private void restoration(String phase, int count, boolean reported) throws IOException {
        Path stateDir = work.resolve(phase);
        var opened = StoreHarness.open(flavor.keyValue("restored"), stateDir.toFile());
        StateRestoreCallback callback = opened.context().restoreCallback();
        TopicPartition changelog = new TopicPartition("restored-changelog", 0);
        // The changelog is built before the clock starts: the phase times the store, not the records.
        SplittableRandom random = new SplittableRandom(41);
        List<List<KeyValue<byte[], byte[]>>> batches = new ArrayList<>();
        List<List<ConsumerRecord<byte[], byte[]>>> consumerBatches = new ArrayList<>();
        for (int done = 0; done < count; ) {
            List<KeyValue<byte[], byte[]>> batch = new ArrayList<>(BATCH);
            List<ConsumerRecord<byte[], byte[]>> consumerBatch = new ArrayList<>(BATCH);
            for (int i = 0; i < BATCH && done < count; i++, done++) {
                byte[] key = keyNames[random.nextInt(keys)].getBytes(StandardCharsets.UTF_8);
                byte[] value = ByteBuffer.allocate(Long.BYTES).putLong(done).array();
                batch.add(KeyValue.pair(key, value));
                consumerBatch.add(new ConsumerRecord<>(changelog.topic(), changelog.partition(), done, key, value));
            }
            batches.add(batch);
            consumerBatches.add(consumerBatch);
        }
        long start = System.nanoTime();
        for (int b = 0; b < batches.size(); b++) {
            if (callback instanceof RecordBatchingStateRestoreCallback rocks) {
                rocks.restoreBatch(consumerBatches.get(b));       // the built-in store's (internal) callback
            } else {
                ((BatchingStateRestoreCallback) callback).restoreAll(batches.get(b));
            }
        }
        opened.store().commit(Map.of(changelog, (long) count));
        long nanos = System.nanoTime() - start;
        if (reported) {
            result.put("restore_records_per_s", count / (nanos / 1e9));
            result.put("restore_digest", digest(opened.store()));
        }
        opened.store().close();
    }

    private static String digest(KeyValueStore<?, ?> store) {
        long count = 0;
        long hash = 0;
        try (KeyValueIterator<?, ?> all = store.all()) {
            while (all.hasNext()) {
                KeyValue<?, ?> kv = all.next();
                Object value = kv.value;
                int valueHash = switch (value) {
                    case byte[] bytes -> Arrays.hashCode(bytes);
                    case ValueAndTimestamp<?> timestamped -> timestamped.value().hashCode() * 31 + Long.hashCode(timestamped.timestamp());
                    default -> value.hashCode();
                };
                hash = hash * 31 + kv.key.hashCode() + valueHash;
                count++;
            }
        }
        return count + ":" + Long.toHexString(hash);
    }

    private static long heapAfterGc() {
        System.gc();
        Runtime runtime = Runtime.getRuntime();
        return runtime.totalMemory() - runtime.freeMemory();
    }

    private static long bytesUnder(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return 0;
        }
        long[] total = {0};
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                total[0] += attributes.size();
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
                return FileVisitResult.CONTINUE;      // background work deletes files while we walk
            }
        });
        return total[0];
    }

    /** A {@code kB} line of /proc/self/status (VmRSS, VmHWM) in bytes, or -1 where there is none. */
    private static long procStatusBytes(String field) throws IOException {
        Path status = Path.of("/proc/self/status");
        if (!Files.exists(status)) {
            return -1;
        }
        for (String line : Files.readAllLines(status)) {
            if (line.startsWith(field)) {
                return Long.parseLong(line.substring(field.length()).replaceAll("[^0-9]", "")) * 1024;
            }
        }
        return -1;
    }
}

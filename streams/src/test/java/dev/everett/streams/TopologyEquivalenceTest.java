package dev.everett.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.SplittableRandom;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.serialization.LongSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyConfig;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.query.KeyQuery;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.RangeQuery;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.TimestampedKeyValueStore;
import org.apache.kafka.streams.state.ValueAndTimestamp;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs each topology with TopologyTestDriver on Kafka Streams' built-in RocksDB stores and on Everett
 * stores, with and without their write-ahead log (switched with the one {@code dsl.store.suppliers.class}
 * line, or per store in the Processor API), and requires every output record and every final store
 * content to be equal.
 */
class TopologyEquivalenceTest {

    @TempDir
    Path temp;

    /** What one run leaves behind: output records per topic and store contents per store, as text. */
    private record Observed(Map<String, List<String>> outputs, Map<String, List<String>> stores) {
        Observed() {
            this(new LinkedHashMap<>(), new LinkedHashMap<>());
        }
    }

    private interface Scenario {
        void build(StreamsBuilder builder, StoreFlavor flavor);

        void drive(TopologyTestDriver driver, Observed observed);
    }

    @Test
    void wordCount() {
        assertSame(new Scenario() {
            @Override
            public void build(StreamsBuilder builder, StoreFlavor flavor) {
                builder.stream("lines", Consumed.with(Serdes.String(), Serdes.String()))
                        .flatMapValues(line -> Arrays.asList(line.split(" ")))
                        .groupBy((key, word) -> word, Grouped.with(Serdes.String(), Serdes.String()))
                        .count(Materialized.as("word-counts"))
                        .toStream()
                        .to("counts", Produced.with(Serdes.String(), Serdes.Long()));
            }

            @Override
            public void drive(TopologyTestDriver driver, Observed observed) {
                TestInputTopic<String, String> lines = driver.createInputTopic("lines",
                        new StringSerializer(), new StringSerializer(), Instant.ofEpochMilli(1_000), java.time.Duration.ofMillis(7));
                SplittableRandom random = new SplittableRandom(7);
                for (int i = 0; i < 1000; i++) {
                    StringBuilder line = new StringBuilder();
                    int words = 1 + random.nextInt(8);
                    for (int w = 0; w < words; w++) {
                        line.append(w == 0 ? "" : " ").append("w").append(random.nextInt(150));
                    }
                    lines.pipeInput("line-" + i, line.toString());
                }
                observed.outputs.put("counts", text(driver.createOutputTopic("counts",
                        new StringDeserializer(), new LongDeserializer()).readRecordsToList()));
                observed.stores.put("word-counts", timestampedContents(driver, "word-counts"));
            }
        });
    }

    /** The same aggregation over stores that keep headers ({@code dsl.store.format=HEADERS}). */
    @Test
    void aggregationInTheHeadersStoreFormat() {
        assertSame(new Scenario() {
            @Override
            public void build(StreamsBuilder builder, StoreFlavor flavor) {
                builder.stream("lines", Consumed.with(Serdes.String(), Serdes.String()))
                        .groupBy((key, line) -> line.substring(0, 2), Grouped.with(Serdes.String(), Serdes.String()))
                        .aggregate(() -> "", (k, line, agg) -> agg.length() > 40 ? line : agg + "|" + line,
                                Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("concatenated")
                                        .withKeySerde(Serdes.String()).withValueSerde(Serdes.String()))
                        .toStream()
                        .to("concatenated-out", Produced.with(Serdes.String(), Serdes.String()));
            }

            @Override
            public void drive(TopologyTestDriver driver, Observed observed) {
                TestInputTopic<String, String> lines = driver.createInputTopic("lines",
                        new StringSerializer(), new StringSerializer(), Instant.ofEpochMilli(2_000), java.time.Duration.ofMillis(5));
                SplittableRandom random = new SplittableRandom(23);
                for (int i = 0; i < 800; i++) {
                    lines.pipeInput("k" + i, "g" + random.nextInt(10) + "-" + i);
                }
                observed.outputs.put("concatenated-out", text(driver.createOutputTopic("concatenated-out",
                        new StringDeserializer(), new StringDeserializer()).readRecordsToList()));
                observed.stores.put("concatenated", timestampedContents(driver, "concatenated"));
            }
        }, Map.of(StreamsConfig.DSL_STORE_FORMAT_CONFIG, StreamsConfig.DSL_STORE_FORMAT_HEADERS));
    }

    @Test
    void aggregationWithTombstonesFromATable() {
        assertSame(new Scenario() {
            @Override
            public void build(StreamsBuilder builder, StoreFlavor flavor) {
                KTable<String, String> accounts = builder.table("accounts",
                        Consumed.with(Serdes.String(), Serdes.String()), Materialized.as("accounts"));
                accounts.groupBy((account, value) -> KeyValue.pair(value.split(":")[0], Long.parseLong(value.split(":")[1])),
                                Grouped.with(Serdes.String(), Serdes.Long()))
                        .aggregate(() -> 0L, (region, amount, total) -> total + amount,
                                (region, amount, total) -> total - amount,
                                Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as("region-totals")
                                        .withKeySerde(Serdes.String()).withValueSerde(Serdes.Long()))
                        .toStream()
                        .to("totals", Produced.with(Serdes.String(), Serdes.Long()));
            }

            @Override
            public void drive(TopologyTestDriver driver, Observed observed) {
                TestInputTopic<String, String> accounts = driver.createInputTopic("accounts",
                        new StringSerializer(), new StringSerializer(), Instant.ofEpochMilli(5_000), java.time.Duration.ofMillis(3));
                SplittableRandom random = new SplittableRandom(11);
                for (int i = 0; i < 2000; i++) {
                    String account = "acct-" + random.nextInt(300);
                    if (random.nextInt(5) == 0) {
                        accounts.pipeInput(account, (String) null);                  // tombstone: the account leaves its region
                    } else {
                        accounts.pipeInput(account, "region-" + random.nextInt(12) + ":" + random.nextInt(1000));
                    }
                }
                observed.outputs.put("totals", text(driver.createOutputTopic("totals",
                        new StringDeserializer(), new LongDeserializer()).readRecordsToList()));
                observed.stores.put("accounts", timestampedContents(driver, "accounts"));
                observed.stores.put("region-totals", timestampedContents(driver, "region-totals"));
            }
        });
    }

    @Test
    void streamTableAndTableTableJoins() {
        assertSame(new Scenario() {
            @Override
            public void build(StreamsBuilder builder, StoreFlavor flavor) {
                KTable<String, String> customers = builder.table("customers",
                        Consumed.with(Serdes.String(), Serdes.String()), Materialized.as("customers"));
                KStream<String, Long> orders = builder.stream("orders", Consumed.with(Serdes.String(), Serdes.Long()));
                orders.join(customers, (amount, name) -> name + ":" + amount)
                        .to("enriched", Produced.with(Serdes.String(), Serdes.String()));
                KTable<String, Long> spend = orders.groupByKey(Grouped.with(Serdes.String(), Serdes.Long()))
                        .reduce(Long::sum, Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as("spend")
                                .withKeySerde(Serdes.String()).withValueSerde(Serdes.Long()));
                spend.leftJoin(customers, (total, name) -> (name == null ? "?" : name) + "=" + total,
                                Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("spend-by-name")
                                        .withKeySerde(Serdes.String()).withValueSerde(Serdes.String()))
                        .toStream()
                        .to("spend-named", Produced.with(Serdes.String(), Serdes.String()));
            }

            @Override
            public void drive(TopologyTestDriver driver, Observed observed) {
                TestInputTopic<String, String> customers = driver.createInputTopic("customers",
                        new StringSerializer(), new StringSerializer(), Instant.ofEpochMilli(9_000), java.time.Duration.ofMillis(2));
                TestInputTopic<String, Long> orders = driver.createInputTopic("orders",
                        new StringSerializer(), new LongSerializer(), Instant.ofEpochMilli(9_001), java.time.Duration.ofMillis(2));
                SplittableRandom random = new SplittableRandom(13);
                for (int i = 0; i < 2000; i++) {
                    String customer = "c" + random.nextInt(120);
                    int dice = random.nextInt(10);
                    if (dice == 0) {
                        customers.pipeInput(customer, (String) null);
                    } else if (dice < 3) {
                        customers.pipeInput(customer, "name-" + random.nextInt(1000));
                    } else {
                        orders.pipeInput(customer, (long) random.nextInt(500));
                    }
                }
                observed.outputs.put("enriched", text(driver.createOutputTopic("enriched",
                        new StringDeserializer(), new StringDeserializer()).readRecordsToList()));
                observed.outputs.put("spend-named", text(driver.createOutputTopic("spend-named",
                        new StringDeserializer(), new StringDeserializer()).readRecordsToList()));
                for (String store : List.of("customers", "spend", "spend-by-name")) {
                    observed.stores.put(store, timestampedContents(driver, store));
                }
            }
        });
    }

    /**
     * Processor API stores (per-store suppliers: a plain one written with puts, putIfAbsent and
     * deletes, read with range, reverse range, prefix and full scans and with IQv2 key and range
     * queries; and a timestamped one through Kafka Streams' timestamped store builder).
     */
    @Test
    void rangeAndPrefixScansThroughInteractiveQueries() {
        assertSame(new Scenario() {
            @Override
            public void build(StreamsBuilder builder, StoreFlavor flavor) {
                builder.addStateStore(Stores.keyValueStoreBuilder(flavor.keyValue("events-by-key"),
                        Serdes.String(), Serdes.String()));
                builder.addStateStore(Stores.timestampedKeyValueStoreBuilder(flavor.timestampedKeyValue("latest-by-key"),
                        Serdes.String(), Serdes.String()));
                builder.stream("events", Consumed.with(Serdes.String(), Serdes.String()))
                        .process(() -> new Processor<String, String, Void, Void>() {
                            private KeyValueStore<String, String> store;
                            private TimestampedKeyValueStore<String, String> latest;

                            @Override
                            public void init(ProcessorContext<Void, Void> context) {
                                store = context.getStateStore("events-by-key");
                                latest = context.getStateStore("latest-by-key");
                            }

                            @Override
                            public void process(Record<String, String> record) {
                                latest.put(record.key(), record.value() == null ? null
                                        : ValueAndTimestamp.make(record.value(), record.timestamp()));
                                if (record.value() == null) {
                                    store.delete(record.key());
                                } else if (record.value().startsWith("keep:")) {
                                    store.putIfAbsent(record.key(), record.value());
                                } else {
                                    store.put(record.key(), record.value());
                                }
                            }
                        }, "events-by-key", "latest-by-key");
            }

            @Override
            public void drive(TopologyTestDriver driver, Observed observed) {
                TestInputTopic<String, String> events = driver.createInputTopic("events",
                        new StringSerializer(), new StringSerializer(), Instant.ofEpochMilli(20_000), java.time.Duration.ofMillis(3));
                SplittableRandom random = new SplittableRandom(17);
                for (int i = 0; i < 2000; i++) {
                    String key = "k" + random.nextInt(3) + "/" + String.format("%03d", random.nextInt(400));
                    int dice = random.nextInt(8);
                    events.pipeInput(key, dice == 0 ? null : (dice == 1 ? "keep:" : "v") + i);
                }
                KeyValueStore<String, String> store = driver.getKeyValueStore("events-by-key");
                Map<String, List<String>> scans = observed.stores;
                scans.put("all", drain(store.all()));
                scans.put("reverseAll", drain(store.reverseAll()));
                scans.put("range", drain(store.range("k1/100", "k1/300")));
                scans.put("reverseRange", drain(store.reverseRange("k1/100", "k1/300")));
                scans.put("range-open-low", drain(store.range(null, "k0/200")));
                scans.put("range-open-high", drain(store.range("k2/350", null)));
                scans.put("range-inverted", drain(store.range("k2/000", "k1/000")));
                scans.put("prefix", drain(store.prefixScan("k2/1", new StringSerializer())));
                scans.put("prefix-none", drain(store.prefixScan("zz", new StringSerializer())));
                scans.put("count", List.of(String.valueOf(drain(store.all()).size())));

                KeyValueStore<String, String> raw = store;
                List<String> queries = new ArrayList<>();
                QueryConfig config = new QueryConfig(false);
                for (String key : List.of("k0/001", "k1/150", "k2/399", "missing")) {
                    queries.add(describe(raw.query(KeyQuery.<String, String>withKey(key), PositionBound.unbounded(), config)));
                }
                queries.add(describe(raw.query(RangeQuery.<String, String>withRange("k0/100", "k0/200"), PositionBound.unbounded(), config)));
                queries.add(describe(raw.query(RangeQuery.<String, String>withUpperBound("k0/050"), PositionBound.unbounded(), config)));
                queries.add(describe(raw.query(RangeQuery.<String, String>withNoBounds().withDescendingKeys(), PositionBound.unbounded(), config)));
                Position reached = Position.emptyPosition().withComponent("events", 0, 1999);
                queries.add(describe(raw.query(KeyQuery.<String, String>withKey("k1/150"), PositionBound.at(reached), config)));
                Position ahead = Position.emptyPosition().withComponent("events", 0, 5000);
                queries.add(describe(raw.query(KeyQuery.<String, String>withKey("k1/150"), PositionBound.at(ahead), config)));
                scans.put("iqv2", queries);
                scans.put("position", List.of(raw.getPosition().toString()));
                scans.put("latest-by-key", timestampedContents(driver, "latest-by-key"));
                assertFalse(observed.stores.get("range").isEmpty(), "the range scan should see records");
            }
        });
    }

    /** Runs a scenario on both flavours and compares everything it observed. */
    private void assertSame(Scenario scenario) {
        assertSame(scenario, Map.of());
    }

    private void assertSame(Scenario scenario, Map<String, Object> extraConfig) {
        Observed reference = run(scenario, StoreFlavor.ROCKSDB, extraConfig);
        for (StoreFlavor flavor : List.of(StoreFlavor.EVERETT, StoreFlavor.EVERETT_WITH_LOG)) {
            Observed everett = run(scenario, flavor, extraConfig);
            assertEquals(reference.outputs.keySet(), everett.outputs.keySet());
            for (String topic : reference.outputs.keySet()) {
                assertFalse(reference.outputs.get(topic).isEmpty(), "topic " + topic + " should have output");
                Lines.assertSameLines(reference.outputs.get(topic), everett.outputs.get(topic), flavor + " output topic " + topic);
            }
            assertEquals(reference.stores.keySet(), everett.stores.keySet());
            for (String store : reference.stores.keySet()) {
                Lines.assertSameLines(reference.stores.get(store), everett.stores.get(store), flavor + " store " + store);
            }
        }
    }

    private Observed run(Scenario scenario, StoreFlavor flavor, Map<String, Object> extraConfig) {
        Properties props = new Properties();
        props.putAll(extraConfig);
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "equivalence");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, temp.resolve(flavor.name()).toString());
        flavor.configure(props);
        StreamsBuilder builder = new StreamsBuilder(new TopologyConfig(new StreamsConfig(props)));
        scenario.build(builder, flavor);
        Observed observed = new Observed();
        try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), props)) {
            scenario.drive(driver, observed);
        }
        return observed;
    }

    private static <K, V> List<String> text(List<TestRecord<K, V>> records) {
        List<String> lines = new ArrayList<>(records.size());
        for (TestRecord<K, V> r : records) {
            lines.add(r.key() + "=" + r.value() + "@" + r.timestamp() + " " + r.headers());
        }
        return lines;
    }

    private static List<String> timestampedContents(TopologyTestDriver driver, String name) {
        KeyValueStore<Object, ValueAndTimestamp<Object>> store = driver.getTimestampedKeyValueStore(name);
        return drain(store.all());
    }

    private static <K, V> List<String> drain(KeyValueIterator<K, V> iterator) {
        List<String> lines = new ArrayList<>();
        try (iterator) {
            iterator.forEachRemaining(kv -> lines.add(kv.key + "=" + kv.value));
        }
        return lines;
    }

    private static String describe(QueryResult<?> result) {
        if (result.isFailure()) {
            return "failure " + result.getFailureReason() + " position " + result.getPosition();
        }
        Object value = result.getResult();
        if (value instanceof KeyValueIterator<?, ?> iterator) {
            value = drain(iterator);
        }
        return "result " + value + " position " + result.getPosition();
    }
}

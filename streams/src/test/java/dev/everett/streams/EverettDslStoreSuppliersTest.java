package dev.everett.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TopologyConfig;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one-line switch: which stores it makes Everett stores, and the options it reads from the configuration. */
class EverettDslStoreSuppliersTest {
    @TempDir
    Path temp;

    @Test
    void keyValueStoresBecomeEverettStoresWithTheConfiguredPolicyAndWindowsStayRocksDb() throws IOException {
        Properties props = props();
        props.put(EverettStoreOptions.POLICY_CONFIG, "string");
        StreamsBuilder builder = new StreamsBuilder(new TopologyConfig(new StreamsConfig(props)));
        var words = builder.stream("words", Consumed.with(Serdes.String(), Serdes.String())).groupByKey();
        words.count(Materialized.as("counts"));
        words.windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMinutes(1))).count(Materialized.as("windowed"));
        try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), props)) {
            driver.createInputTopic("words", new StringSerializer(), new StringSerializer()).pipeInput("a", "a");
            assertEquals(1L, driver.getTimestampedKeyValueStore("counts").get("a").value());
            List<Path> descriptors = find("STORE");
            assertEquals(1, descriptors.size(), "one Everett store: " + descriptors);
            assertTrue(descriptors.getFirst().toString().contains("everett" + java.io.File.separator + "counts"), descriptors.toString());
            assertTrue(Files.readString(descriptors.getFirst()).contains("policy.format=KV03"), "the string policy is KV03");
            assertTrue(find("windowed").stream().noneMatch(p -> p.toString().contains("everett")),
                    "window stores stay RocksDB stores: " + find("windowed"));
        }
    }

    @Test
    void anUnusableOptionValueIsRefusedNamingTheKey() {
        Properties props = props();
        props.put(EverettStoreOptions.SYNC_COMMITS_CONFIG, "sometimes");
        StreamsBuilder builder = new StreamsBuilder(new TopologyConfig(new StreamsConfig(props)));
        builder.stream("words", Consumed.with(Serdes.String(), Serdes.String())).groupByKey().count();
        Throwable refused = assertThrows(RuntimeException.class, () -> new TopologyTestDriver(builder.build(), props).close());
        while (refused.getCause() != null && !(refused instanceof IllegalArgumentException)) {
            refused = refused.getCause();
        }
        assertTrue(refused.getMessage().contains(EverettStoreOptions.SYNC_COMMITS_CONFIG), refused.getMessage());
    }

    private Properties props() {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "dsl");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, temp.toString());
        props.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, EverettDslStoreSuppliers.class);
        return props;
    }

    private List<Path> find(String name) throws IOException {
        try (Stream<Path> paths = Files.walk(temp)) {
            return paths.filter(p -> p.getFileName().toString().equals(name)).toList();
        }
    }
}

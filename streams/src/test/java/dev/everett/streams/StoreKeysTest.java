package dev.everett.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.internals.Topic;
import org.junit.jupiter.api.Test;

/** {@link StoreKeys#partitionOfOffset}: the keys {@link StoreKeys#offset} writes, and only those, with Kafka's topic rule. */
class StoreKeysTest {
    private static byte[] key(String afterPrefix) {
        byte[] prefix = StoreKeys.offset(new TopicPartition("t", 0));
        String s = new String(prefix, StandardCharsets.ISO_8859_1);
        return (s.substring(0, s.length() - "t/0".length()) + afterPrefix).getBytes(StandardCharsets.ISO_8859_1);
    }

    @Test
    void theKeysTheStoreWritesRoundTrip() {
        for (TopicPartition p : new TopicPartition[] {new TopicPartition("orders", 0), new TopicPartition("a.b_c-D9", 7),
                new TopicPartition("...", Integer.MAX_VALUE), new TopicPartition("x".repeat(249), 12)}) {
            assertEquals(p, StoreKeys.partitionOfOffset(StoreKeys.offset(p)));
        }
    }

    @Test
    void topicNamesKafkaRefusesAreRefused() {
        for (String topic : new String[] {".", "..", "", "x".repeat(250), "a b", "a/b", "é"}) {
            byte[] k = key(topic + "/0");
            assertThrows(IllegalArgumentException.class, () -> StoreKeys.partitionOfOffset(k), topic);
            assertThrows(RuntimeException.class, () -> Topic.validate(topic), "Kafka refuses " + topic + " too");
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> StoreKeys.partitionOfOffset(key("../1")));
        assertTrue(e.getMessage().contains("'.' and '..'"), e.getMessage());
    }

    @Test
    void partitionsOtherThanTheStoresSpellingAreRefused() {
        for (String p : new String[] {"01", "+1", "-1", "2147483648", "", "1a"}) {
            assertThrows(IllegalArgumentException.class, () -> StoreKeys.partitionOfOffset(key("t/" + p)), p);
        }
    }
}

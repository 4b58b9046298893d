package dev.everett.streams;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import org.apache.kafka.streams.errors.ProcessorStateException;

/**
 * Fuzz target of the decoder of the committed changelog offsets a state store keeps in its
 * bookkeeping range ({@link CommittedOffsets#decode}: the key {@code offset/<topic>/<partition>}
 * and the 8-byte offset). A damaged record may be refused only with
 * {@link ProcessorStateException} naming the store and its directory; an accepted one is exactly
 * the record the store writes for that partition and offset (one key per partition, so two
 * records can never both claim one).
 *
 * <p>{@link CommittedOffsetFuzzCorpusTest} writes the seeds to
 * {@code src/test/resources/dev/everett/streams/CommittedOffsetFuzzTestInputs/record/}. Fuzz with
 * <pre>
 * JAZZER_FUZZ=1 ./.ci/with-jdk25 ./mvnw -pl streams -am test \
 *     -Dtest='CommittedOffsetFuzzTest#record' -Dsurefire.failIfNoSpecifiedTests=false -Djazzer.max_duration=5m
 * </pre>
 */
class CommittedOffsetFuzzTest {
    static final String STORE = "fuzz-store";
    static final Path DIRECTORY = Path.of("fuzz-state", "fuzz-store");

    /**
     * One record: the first byte is the length n of what follows the key's {@code offset/} prefix
     * in the key, the next n bytes are that, and the rest is the value.
     */
    @FuzzTest(maxDuration = "1m")
    void record(byte[] data) {
        if (data.length == 0) {
            return;
        }
        byte[] key = key(data);
        byte[] value = value(data);
        CommittedOffsets.Stored s;
        try {
            s = CommittedOffsets.decode(key, value, STORE, DIRECTORY);
        } catch (ProcessorStateException e) {
            assertTrue(e.getMessage().contains(STORE + " at " + DIRECTORY), "refusal does not name the store: " + e.getMessage());
            return;
        }
        assertArrayEquals(StoreKeys.offset(s.partition()), key, "accepted key is not the one the store writes for " + s.partition());
        assertArrayEquals(ByteBuffer.allocate(Long.BYTES).putLong(s.offset()).array(), value);
    }

    /** The key a {@link #record} input stands for. */
    static byte[] key(byte[] data) {
        int n = Math.min(data[0] & 0xFF, data.length - 1);
        byte[] key = Arrays.copyOf(StoreKeys.OFFSET_PREFIX, StoreKeys.OFFSET_PREFIX.length + n);
        System.arraycopy(data, 1, key, StoreKeys.OFFSET_PREFIX.length, n);
        return key;
    }

    /** The value a {@link #record} input stands for. */
    static byte[] value(byte[] data) {
        int n = Math.min(data[0] & 0xFF, data.length - 1);
        return Arrays.copyOfRange(data, 1 + n, data.length);
    }
}

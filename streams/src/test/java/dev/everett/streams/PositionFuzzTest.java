package dev.everett.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.query.Position;

/**
 * Fuzz target of the one decoder this module owns, the stored query {@link Position}
 * ({@link PositionCodec#decode}): damage may be refused only with {@link ProcessorStateException}
 * naming the store (never another exception, never an allocation sized by a damaged length), and
 * an accepted record encodes again to one that decodes to the same position.
 *
 * <p>{@link PositionFuzzCorpusTest} writes the seeds to
 * {@code src/test/resources/dev/everett/streams/PositionFuzzTestInputs/decode/}. Fuzz with
 * <pre>
 * JAZZER_FUZZ=1 ./.ci/with-jdk25 ./mvnw -pl streams -am test \
 *     -Dtest='PositionFuzzTest#decode' -Dsurefire.failIfNoSpecifiedTests=false -Djazzer.max_duration=5m
 * </pre>
 */
class PositionFuzzTest {
    static final String STORE = "fuzz-store";

    @FuzzTest(maxDuration = "1m")
    void decode(byte[] data) {
        Position p;
        try {
            p = PositionCodec.decode(data, STORE);
        } catch (ProcessorStateException e) {
            assertTrue(e.getMessage().contains(STORE), "refusal does not name the store: " + e.getMessage());
            return;
        }
        assertEquals(p, PositionCodec.decode(PositionCodec.encode(p), STORE));
    }
}

package dev.everett.streams;

import dev.everett.segment.testing.FuzzCorpusHarness;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.query.Position;
import org.junit.jupiter.api.Test;

/**
 * The seeds of {@link PositionFuzzTest}: positions as the store writes them, and a few damaged
 * records. Regenerate with
 * <pre>
 * ./.ci/with-jdk25 ./mvnw -pl streams -am test -Dtest=PositionFuzzCorpusTest \
 *     -Dsurefire.failIfNoSpecifiedTests=false -Deverett.fuzz.writeCorpus=true
 * </pre>
 */
class PositionFuzzCorpusTest extends FuzzCorpusHarness {
    @Override
    protected String resourceDir() {
        return "src/test/resources/dev/everett/streams/PositionFuzzTestInputs";
    }

    static Map<String, byte[]> seeds() {
        Map<String, byte[]> seeds = new LinkedHashMap<>();
        seeds.put("valid-empty", PositionCodec.encode(Position.emptyPosition()));
        seeds.put("valid-one", PositionCodec.encode(Position.emptyPosition().withComponent("input", 0, 42L)));
        seeds.put("valid-several", PositionCodec.encode(Position.emptyPosition().withComponent("input", 0, 42L)
                .withComponent("input", 3, 7L).withComponent("änderungen", 1, Long.MAX_VALUE)));
        byte[] huge = PositionCodec.encode(Position.emptyPosition().withComponent("t", 0, 1L));
        ByteBuffer.wrap(huge).putInt(5, Integer.MAX_VALUE - 8); // the topic's length
        seeds.put("mut-huge-topic-length", huge);
        byte[] one = seeds.get("valid-one");
        seeds.put("mut-truncated", Arrays.copyOf(one, one.length - 3));
        seeds.put("mut-trailing", Arrays.copyOf(one, one.length + 1));
        return seeds;
    }

    @Override
    protected Map<String, Map<String, byte[]>> corpus(Path scratch) {
        return Map.of("decode", seeds());
    }

    @Test
    void seedsAreWhatTheirNamesSay() throws Exception {
        assertSeedsAsNamed(seeds(), ProcessorStateException.class, d -> PositionCodec.decode(d, PositionFuzzTest.STORE));
    }
}

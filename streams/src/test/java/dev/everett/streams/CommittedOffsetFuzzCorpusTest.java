package dev.everett.streams;

import dev.everett.segment.testing.FuzzCorpusHarness;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.junit.jupiter.api.Test;

/**
 * The seeds of {@link CommittedOffsetFuzzTest}: offset records as the store writes them, and
 * damaged keys and values. Regenerate with
 * <pre>
 * ./.ci/with-jdk25 ./mvnw -pl streams -am test -Dtest=CommittedOffsetFuzzCorpusTest \
 *     -Dsurefire.failIfNoSpecifiedTests=false -Deverett.fuzz.writeCorpus=true
 * </pre>
 */
class CommittedOffsetFuzzCorpusTest extends FuzzCorpusHarness {
    @Override
    protected String resourceDir() {
        return "src/test/resources/dev/everett/streams/CommittedOffsetFuzzTestInputs";
    }

    static Map<String, byte[]> seeds() {
        Map<String, byte[]> s = new LinkedHashMap<>();
        s.put("valid-first", seed("input/0", 0));
        s.put("valid-changelog", seed("app-store-changelog/3", 42));
        s.put("valid-largest", seed("a.b_c-D/2147483647", Long.MAX_VALUE));
        s.put("valid-negative-offset", seed("t/1", -1));
        s.put("mut-partition-plus", seed("t/+1", 5));
        s.put("mut-partition-leading-zero", seed("t/01", 5));
        s.put("mut-partition-negative", seed("t/-1", 5));
        s.put("mut-partition-overflow", seed("t/2147483648", 5));
        s.put("mut-partition-missing", seed("t/", 5));
        s.put("mut-no-slash", seed("t1", 5));
        s.put("mut-topic-empty", seed("/1", 5));
        s.put("mut-topic-slash", seed("a/b/1", 5));
        s.put("mut-topic-space", seed("a b/1", 5));
        s.put("mut-topic-not-ascii", seed("t\u00e9/1", 5));
        s.put("mut-topic-too-long", seed("t".repeat(250) + "/1", 5));
        s.put("mut-empty-name", seed("", 5));
        byte[] shortValue = seed("t/1", 5);
        s.put("mut-value-short", java.util.Arrays.copyOf(shortValue, shortValue.length - 1));
        byte[] longValue = seed("t/1", 5);
        s.put("mut-value-long", java.util.Arrays.copyOf(longValue, longValue.length + 1));
        return s;
    }

    /** The input for the key {@code offset/<name>} and the offset {@code offset}. */
    private static byte[] seed(String name, long offset) {
        byte[] n = name.getBytes(StandardCharsets.ISO_8859_1);
        return ByteBuffer.allocate(1 + n.length + Long.BYTES).put((byte) n.length).put(n).putLong(offset).array();
    }

    @Override
    protected Map<String, Map<String, byte[]>> corpus(Path scratch) {
        return Map.of("record", seeds());
    }

    @Test
    void seedsAreWhatTheirNamesSay() throws Exception {
        assertSeedsAsNamed(seeds(), ProcessorStateException.class, d -> CommittedOffsets.decode(CommittedOffsetFuzzTest.key(d),
                CommittedOffsetFuzzTest.value(d), CommittedOffsetFuzzTest.STORE, CommittedOffsetFuzzTest.DIRECTORY));
    }
}

package dev.everett.segment.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one harness of every committed fuzz seed corpus. A subclass generates its seeds
 * deterministically ({@link #corpus}); the generated files are named {@code valid-*} and
 * {@code mut-*} and live, per fuzz target method, in the Jazzer inputs directory
 * {@link #resourceDir} (crash inputs found by fuzzing sit beside them as {@code crash-*} and are
 * never touched here).
 *
 * <p>{@link #committedCorpusIsUpToDate} runs in every build; with
 * {@code -Deverett.fuzz.writeCorpus=true} {@link #writeCorpus} rewrites the committed seeds, for
 * example (replace the class name):
 * <pre>
 * ./.ci/with-jdk25 ./mvnw -pl segment -am test -Dtest=NativeFuzzCorpusTest \
 *     -Dsurefire.failIfNoSpecifiedTests=false -Deverett.fuzz.writeCorpus=true
 * </pre>
 */
public abstract class FuzzCorpusHarness {
    /** The inputs directory, relative to the module: {@code src/test/resources/<package>/<FuzzTest>Inputs}. */
    protected abstract String resourceDir();

    /**
     * Target method (a subdirectory of {@link #resourceDir}) → file name → bytes.
     *
     * @param scratch a temporary directory the generator may write files in
     */
    protected abstract Map<String, Map<String, byte[]>> corpus(Path scratch) throws IOException;

    private Path base() {
        return Path.of(System.getProperty("basedir", ".")).resolve(resourceDir());
    }

    private static boolean generated(String name) {
        return name.startsWith("valid-") || name.startsWith("mut-");
    }

    @Test
    @EnabledIfSystemProperty(named = "everett.fuzz.writeCorpus", matches = "true")
    public void writeCorpus(@TempDir Path scratch) throws IOException {
        for (Map.Entry<String, Map<String, byte[]>> target : corpus(scratch).entrySet()) {
            Path dir = base().resolve(target.getKey());
            Files.createDirectories(dir);
            try (Stream<Path> old = Files.list(dir)) {
                for (Path f : old.toList()) {
                    if (generated(f.getFileName().toString())) {
                        Files.delete(f);
                    }
                }
            }
            for (Map.Entry<String, byte[]> e : target.getValue().entrySet()) {
                Files.write(dir.resolve(e.getKey()), e.getValue());
            }
            System.out.println("wrote " + target.getValue().size() + " seeds to " + dir);
        }
    }

    /** The committed generated seeds are exactly what the generator makes today. */
    @Test
    public void committedCorpusIsUpToDate(@TempDir Path scratch) throws IOException {
        String regenerate = " (regenerate: see " + getClass().getSimpleName() + ")";
        for (Map.Entry<String, Map<String, byte[]>> target : corpus(scratch).entrySet()) {
            Path dir = base().resolve(target.getKey());
            List<String> committed;
            try (Stream<Path> files = Files.list(dir)) {
                committed = files.map(f -> f.getFileName().toString()).filter(FuzzCorpusHarness::generated).sorted().toList();
            }
            assertEquals(target.getValue().keySet().stream().sorted().toList(), committed, "generated seed names in " + dir + regenerate);
            for (Map.Entry<String, byte[]> e : target.getValue().entrySet()) {
                assertArrayEquals(e.getValue(), Files.readAllBytes(dir.resolve(e.getKey())), e.getKey() + " differs from the generator" + regenerate);
            }
        }
    }

    /** A decoder a seed is given to. */
    @FunctionalInterface
    public interface Decoder {
        void decode(byte[] seed) throws Exception;
    }

    /**
     * The seeds are what their names say: every {@code valid-*} one decodes, every other one is
     * refused with {@code refusal}.
     */
    public static void assertSeedsAsNamed(Map<String, byte[]> seeds, Class<? extends Throwable> refusal, Decoder decoder) throws Exception {
        for (Map.Entry<String, byte[]> e : seeds.entrySet()) {
            if (e.getKey().startsWith("valid-")) {
                decoder.decode(e.getValue());
            } else {
                assertThrows(refusal, () -> decoder.decode(e.getValue()), e.getKey());
            }
        }
    }
}

package dev.everett.merge;

import dev.everett.segment.testing.FuzzCorpusHarness;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The seed corpus of {@link MergeFuzzTest}: the generated checksum-repaired seeds of the native
 * fuzz test (valid files of every profile and targeted damage to them, {@code valid-*} and
 * {@code mut-*}), since the merger decodes the same files. They are copied from the segment
 * module's committed corpus, {@link #NATIVE_SEEDS} (their generator reads that module's golden
 * files), so regenerate the native corpus first when it changes. Committed under
 * {@code src/test/resources/dev/everett/merge/MergeFuzzTestInputs/crcRepaired/} and, for the
 * target that leaves the body CRC as given, {@code bodyCrcAsGiven/} (the valid seeds with one body
 * byte flipped); crash inputs
 * found by fuzzing sit beside them as {@code crash-*} and are never touched here. Regenerate
 * (after the native seeds change) with
 * <pre>
 * ./.ci/with-jdk25 ./mvnw -pl merge -am test -Dtest=MergeFuzzCorpusTest \
 *     -Dsurefire.failIfNoSpecifiedTests=false -Deverett.fuzz.writeCorpus=true
 * </pre>
 */
class MergeFuzzCorpusTest extends FuzzCorpusHarness {
    /** The native fuzz test's committed seeds, relative to this module. */
    /** A native's envelope: the body starts after it. */
    private static final int HEADER_BYTES = 96;
    static final String NATIVE_SEEDS = "../segment/src/test/resources/dev/everett/segment/natives/NativeFuzzTestInputs/crcRepaired";

    @Override
    protected String resourceDir() {
        return "src/test/resources/dev/everett/merge/MergeFuzzTestInputs";
    }

    @Override
    protected Map<String, Map<String, byte[]>> corpus(Path scratch) throws IOException {
        Path dir = Path.of(System.getProperty("basedir", ".")).resolve(NATIVE_SEEDS);
        Map<String, byte[]> seeds = new LinkedHashMap<>();
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.sorted().toList();
        }
        for (Path f : files) {
            String name = f.getFileName().toString();
            if (name.startsWith("valid-") || name.startsWith("mut-")) {
                seeds.put(name, Files.readAllBytes(f));
            }
        }
        if (seeds.isEmpty()) {
            throw new IOException("no native fuzz seeds in " + dir);
        }
        // bodyCrcAsGiven repairs only the header CRC, so its seeds are the valid files with one
        // body byte flipped (their body CRC then fails): the checked merge must refuse each.
        Map<String, byte[]> flipped = new LinkedHashMap<>();
        for (Map.Entry<String, byte[]> e : seeds.entrySet()) {
            byte[] b = e.getValue();
            if (e.getKey().startsWith("valid-") && b.length > HEADER_BYTES) {
                byte[] f = b.clone();
                f[HEADER_BYTES + (b.length - HEADER_BYTES) / 2] ^= 0x01;
                flipped.put("mut-body-flip-" + e.getKey().substring("valid-".length()), f);
            }
        }
        return Map.of("crcRepaired", seeds, "bodyCrcAsGiven", flipped);
    }
}

package dev.everett.segment.natives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.api.OpenMode;
import dev.everett.api.Policy;
import dev.everett.api.ValueGrammar;
import dev.everett.segment.testing.FuzzCorpusHarness;
import dev.everett.segment.testing.Profile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The seed corpus of {@link NativeFuzzTest}: the byte-unit seeds of {@link ByteFuzzSeeds} and the
 * bit-unit seeds of {@link BitFuzzSeeds} side by side (their names do not collide: bit-unit ones
 * start with {@code kv02bit-} or {@code kv03-}), so every input reaches the readers of every
 * {@link Profile}.
 *
 * <p>Committed under {@code src/test/resources/dev/everett/segment/natives/NativeFuzzTestInputs/<method>/}
 * as {@code valid-*.kv} and {@code mut-*.kv}; crash inputs found by fuzzing sit beside them as
 * {@code crash-*} and are never touched here. Regenerate with
 * <pre>
 * ./.ci/with-jdk25 ./mvnw -pl segment -am test -Dtest=NativeFuzzCorpusTest \
 *     -Dsurefire.failIfNoSpecifiedTests=false -Deverett.fuzz.writeCorpus=true
 * </pre>
 * Generation is deterministic; {@link #committedCorpusIsUpToDate} checks that in every build.
 */
class NativeFuzzCorpusTest extends FuzzCorpusHarness {
    @Override
    protected String resourceDir() {
        return "src/test/resources/dev/everett/segment/natives/NativeFuzzTestInputs";
    }

    @Override
    protected Map<String, Map<String, byte[]>> corpus(Path scratch) throws IOException {
        Map<String, Map<String, byte[]>> out = new LinkedHashMap<>();
        for (Map<String, Map<String, byte[]>> family : java.util.List.of(ByteFuzzSeeds.corpus(scratch), BitFuzzSeeds.corpus())) {
            family.forEach((method, seeds) -> seeds.forEach((name, bytes) -> {
                byte[] earlier = out.computeIfAbsent(method, m -> new LinkedHashMap<>()).put(name, bytes);
                if (earlier != null) {
                    throw new IllegalStateException("two seed families name " + method + "/" + name);
                }
            }));
        }
        return out;
    }

    /** The byte-unit generator's valid files verify under the policy the harness derives, and the non-canonical one is reported as such. */
    @Test
    void byteSeedsVerifyUnderTheDerivedPolicy(@TempDir Path scratch) throws IOException {
        Map<String, byte[]> valid = ByteFuzzSeeds.validFiles(scratch);
        assertTrue(valid.size() > 15);
        for (Map.Entry<String, byte[]> e : valid.entrySet()) {
            ValueGrammar grammar = e.getKey().contains("optional") ? ValueGrammar.OPTIONAL : ValueGrammar.RAW;
            try (NativeReader r = openDerived(scratch, Profile.BYTES, e, grammar)) {
                assertEquals(!e.getKey().startsWith("conservative"), r.verify().canonical(), e.getKey());
            }
        }
        Path sparse = scratch.resolve("sparse.kv");
        Files.write(sparse, valid.get("sparse-w1-raw"));
        try (NativeReader r = NativeReader.open(sparse, Policy.defaultBytes().withBlockWidth(1).withGrammar(ValueGrammar.RAW), OpenMode.TYPED)) {
            assertTrue(r.typed().directory().lengths()[Kv02Directory.SPARSE] > 0, "the sparse seed has a sparse group");
        }
    }

    /** The bit-unit seeds verify under the policy the harness derives for their format's profile. */
    @Test
    void bitSeedsVerifyUnderTheDerivedPolicy(@TempDir Path scratch) throws IOException {
        for (Map.Entry<String, byte[]> e : BitFuzzSeeds.valid().entrySet()) {
            Profile profile = e.getKey().startsWith("kv03") ? Profile.KV03 : Profile.KV02_BITS;
            String name = e.getKey();
            ValueGrammar grammar = name.contains("raw") || name.contains("fixed") || name.contains("promised") ? ValueGrammar.RAW : ValueGrammar.OPTIONAL;
            try (NativeReader r = openDerived(scratch, profile, e, grammar)) {
                r.verify();
            }
        }
    }

    /** Opens a seed under the policy {@link NativeFuzzTest} derives for {@code profile}, which must be exact. */
    private static NativeReader openDerived(Path scratch, Profile profile, Map.Entry<String, byte[]> seed, ValueGrammar grammar) throws IOException {
        Path f = scratch.resolve("check.kv");
        Files.write(f, seed.getValue());
        NativeFuzzTest.Derived d = NativeFuzzTest.Derived.from(profile, seed.getValue());
        assertTrue(d.exact(), seed.getKey());
        return NativeReader.open(f, d.policy().withGrammar(grammar), OpenMode.TYPED);
    }
}

package dev.everett.segment.index;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.everett.segment.cascade.Cascade;
import dev.everett.segment.io.Envelope;
import dev.everett.segment.natives.CorruptionTest;
import dev.everett.segment.natives.NativeFuzzTest;
import dev.everett.segment.testing.FuzzInputs;
import dev.everett.segment.testing.Seeds;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Fuzz test of the IX03 index reader in its chain (the pattern of {@link NativeFuzzTest}; see
 * docs/fuzzing.md for regression and fuzzing mode).
 *
 * <p>An input is one selector byte and the bytes of an index file. The selector picks one of the
 * golden index files ({@link #TARGETS}, by {@code (data[0] & 0xFF) % TARGETS.size()}); the rest,
 * with both CRC32C checksums recomputed (so mutations reach the directory, route and rank
 * decoders behind them), replaces that file inside its golden chain, whose natives and other
 * indexes stay valid. {@link IndexProbe} then opens the chain from its head
 * ({@link IndexReader#open} of every index, binding of every catalog), builds the
 * {@link Cascade}, asks up to {@value #QUERIES} lookups (hits and misses) and runs
 * {@link Catalog#verify()} over the whole chain, which also runs {@link IndexReader#verify()}.
 *
 * <p>Only {@code CorruptSegmentException} may escape, or {@code PolicyMismatchException} when the
 * input's envelope names another policy than the chain's. Anything else is a finding, and so is
 * a broken oracle: a chain that passes {@code verify()} must hold exactly the committed index
 * (verify rebuilds every index from its native and targets and compares bytes), must have
 * answered every lookup like the model, and no lookup may have refused it.
 *
 * <p>Seeds: {@code src/test/resources/dev/everett/segment/index/IndexFuzzTestInputs/crcRepaired/},
 * written by {@link IndexFuzzCorpusTest} ({@code valid-*}: each golden index as it is;
 * {@code mut-*}: targeted damage to its directory and sections); {@code crash-*} files found by
 * fuzzing sit beside them. Fuzz with
 * <pre>
 * JAZZER_FUZZ=1 ./.ci/with-jdk25 ./mvnw -pl segment -am test \
 *     -Dtest='IndexFuzzTest#crcRepaired' -Dsurefire.failIfNoSpecifiedTests=false -Djazzer.max_duration=5m
 * </pre>
 */
class IndexFuzzTest {
    /**
     * The golden index files an input can stand for, by selector. Append new names at the end
     * only: the committed seeds start with their target's position in this list.
     */
    static final List<String> TARGETS = List.of(
            "worked-example-T.index", "worked-example-H.index", "worked-example-R1.index",
            "terminal-N.index", "empty-R1.index",
            "main-target-B.index", "main-target-A.index", "main-target-R1.index",
            "main-secondary-B.index", "main-secondary-A.index", "main-secondary-R1.index", "main-secondary-R2.index",
            "routing-B.index", "routing-R1.index", "routing-R2.index", "routing-R3.index",
            "k7-partial-B.index", "k7-partial-A.index", "k7-partial-R1.index", "k7-partial-R2.index", "k7-partial-R3.index");

    /** Lookups per input: an even sample of the chain's hits and misses. */
    private static final int QUERIES = 150;

    private static final Path DIR = FuzzInputs.scratchDirectory("everett-index-fuzz-");
    private static final Map<String, IndexProbe> PROBES = new HashMap<>();
    private static final Map<String, Target> BY_FILE = targets();

    /** One fuzz target: the chain it lives in, the object, and its committed bytes. */
    record Target(GoldenIndexFiles.Chain chain, GoldenIndexFiles.Obj object, byte[] original) {
    }

    @FuzzTest(maxDuration = "2m")
    void crcRepaired(byte[] data) throws IOException {
        if (data.length == 0) {
            return;
        }
        Target t = BY_FILE.get(TARGETS.get((data[0] & 0xFF) % TARGETS.size()));
        byte[] index = CorruptionTest.withCrcs(Arrays.copyOfRange(data, 1, data.length));
        IndexProbe probe = probe(t.chain());
        IndexProbe.Result res = probe.run(t.object(), index);
        if (res.unexpected() != null) {
            rethrow(res.unexpected());
        }
        if (res.mismatch() && sameHeaderFields(index, t.original())) {
            throw new AssertionError("PolicyMismatchException although the envelope's policy fields are the committed ones");
        }
        if (res.verified()) {
            if (!Arrays.equals(index, t.original())) {
                throw new AssertionError("verify() accepted an index that differs from " + t.object() + " at byte "
                        + Arrays.mismatch(index, t.original()));
            }
            if (!res.wrong().isEmpty()) {
                throw new AssertionError("a verified chain answered " + res.wrong().size() + " lookups wrongly, e.g. " + res.wrong().get(0));
            }
        }
    }

    /** True if bytes 12–47 and 88–95 (flags, unit, codes, W, K, widths, backspace parameter) are unchanged. */
    private static boolean sameHeaderFields(byte[] a, byte[] b) {
        if (a.length < Envelope.BYTES) {
            return false;
        }
        return Arrays.equals(a, 12, 48, b, 12, 48) && Arrays.equals(a, 88, 96, b, 88, 96);
    }

    private static void rethrow(Throwable t) throws IOException {
        if (t instanceof RuntimeException e) {
            throw e;
        }
        if (t instanceof Error e) {
            throw e;
        }
        if (t instanceof IOException e) {
            throw e;
        }
        throw new AssertionError(t);
    }

    private static synchronized IndexProbe probe(GoldenIndexFiles.Chain chain) throws IOException {
        IndexProbe p = PROBES.get(chain.name());
        if (p == null) {
            p = new IndexProbe(chain, Files.createDirectories(DIR.resolve(chain.name())), QUERIES);
            PROBES.put(chain.name(), p);
        }
        return p;
    }

    static Map<String, Target> targets() {
        Path dir = GoldenIndexFiles.dir();
        Map<String, Target> out = new HashMap<>();
        for (GoldenIndexFiles.Chain c : GoldenIndexFiles.chains(dir)) {
            for (GoldenIndexFiles.Obj o : c.indexes()) {
                try {
                    out.put(o.file(), new Target(c, o, Files.readAllBytes(dir.resolve(o.file()))));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        for (String name : TARGETS) {
            if (!out.containsKey(name)) {
                throw new IllegalStateException("fuzz target " + name + " is not a golden index file");
            }
        }
        return out;
    }
}

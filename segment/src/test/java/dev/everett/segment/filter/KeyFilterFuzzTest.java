package dev.everett.segment.filter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.everett.api.CommonWidthRule;
import dev.everett.api.CorruptSegmentException;
import dev.everett.api.FilterPolicy;
import dev.everett.api.ObjectId;
import dev.everett.api.OpenMode;
import dev.everett.api.Policy;
import dev.everett.segment.cascade.CascadeTest;
import dev.everett.segment.natives.NativeReader;
import dev.everett.segment.natives.NativeWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Fuzz test of the key filter reader ({@link KeyFilter#open}, {@link KeyFilter#mayContain},
 * {@link KeyFilter#verify}) against one fixed native of 300 structured keys.
 *
 * <p>An input is a whole {@code .filter} file; its CRC32C is recomputed first so mutations reach
 * the header checks and the blocks behind them. Only {@code CorruptSegmentException} may escape
 * open or verify; {@code mayContain} must never throw on an opened filter; and a filter that
 * {@code verify()} accepts must answer "may contain" for every key of the native (no false
 * negative can survive verification) and hold exactly the committed blocks.
 *
 * <p>{@link #regressionMutants} runs the harness over the valid file and targeted damage to
 * every header field, truncations and extensions in every build. The committed seed is
 * {@code src/test/resources/dev/everett/segment/filter/KeyFilterFuzzTestInputs/crcRepaired/valid-300}
 * (the valid file; {@link #committedSeedIsCurrent} checks it). Fuzz with
 * <pre>
 * JAZZER_FUZZ=1 ./.ci/with-jdk25 ./mvnw -pl segment -am test \
 *     -Dtest='KeyFilterFuzzTest#crcRepaired' -Dsurefire.failIfNoSpecifiedTests=false -Djazzer.max_duration=5m
 * </pre>
 */
class KeyFilterFuzzTest {
    static final String SEED = "src/test/resources/dev/everett/segment/filter/KeyFilterFuzzTestInputs/crcRepaired/valid-300";
    private static final ObjectId ID = new ObjectId(0x0123456789ABCDEFL, 0x0FEDCBA987654321L);
    private static final Fixture FIXTURE = fixture();

    /** The native, its keys and its valid filter's bytes. */
    record Fixture(Path dir, NativeReader natives, List<byte[]> keys, byte[] valid) {
    }

    private static Fixture fixture() {
        try {
            Path shm = Path.of("/dev/shm");
            Path dir = Files.isDirectory(shm) && Files.isWritable(shm) ? Files.createTempDirectory(shm, "everett-filter-fuzz")
                    : Files.createTempDirectory("everett-filter-fuzz");
            dir.toFile().deleteOnExit();
            List<byte[]> keys = new ArrayList<>();
            Path nat = dir.resolve("native.kv");
            try (NativeWriter w = new NativeWriter(nat, Policy.defaultBytes(), CommonWidthRule.policy())) {
                for (int i = 0; i < 300; i++) {
                    byte[] k = CascadeTest.structured(3L * i);
                    keys.add(k);
                    w.put(k, new byte[] {(byte) i});
                }
                w.finish();
            }
            nat.toFile().deleteOnExit();
            NativeReader natives = NativeReader.open(nat, Policy.defaultBytes(), OpenMode.TYPED);
            Path f = dir.resolve("valid.filter");
            KeyFilter.write(f, ID, natives, FilterPolicy.bloom(10));
            byte[] valid = Files.readAllBytes(f);
            Files.delete(f);
            return new Fixture(dir, natives, keys, valid);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @FuzzTest(maxDuration = "1m")
    void crcRepaired(byte[] data) throws IOException {
        check(KeyFilterTest.withCrc(data.clone()));
    }

    /** The harness: refuse with CorruptSegmentException, or open, answer, and verify only the committed filter. */
    static void check(byte[] file) throws IOException {
        Path p = Files.createTempFile(FIXTURE.dir(), "input", ".filter");
        try {
            Files.write(p, file);
            KeyFilter f;
            try {
                f = KeyFilter.open(p, ID, FIXTURE.natives());
            } catch (CorruptSegmentException e) {
                return;
            }
            try (f) {
                boolean allPresent = true;
                for (byte[] k : FIXTURE.keys()) {
                    allPresent &= f.mayContain(KeyHash.of(k, k.length));
                    byte[] absent = Arrays.copyOf(k, k.length + 1);
                    f.mayContain(KeyHash.of(absent, absent.length));
                }
                try {
                    f.verify(FIXTURE.natives());
                } catch (CorruptSegmentException e) {
                    return;
                }
                if (!allPresent) {
                    throw new AssertionError("verify() accepted a filter that denies a key of its native");
                }
                if (!Arrays.equals(file, KeyFilter.HEADER, file.length, FIXTURE.valid(), KeyFilter.HEADER, FIXTURE.valid().length)) {
                    throw new AssertionError("verify() accepted blocks that differ from the committed filter's");
                }
            }
        } finally {
            Files.deleteIfExists(p);
        }
    }

    @Test
    void regressionMutants() throws IOException {
        byte[] valid = FIXTURE.valid();
        check(valid.clone());
        check(new byte[0]);
        // Every header field: each byte of it set to several values, checksum repaired.
        for (int at = 0; at < KeyFilter.HEADER; at++) {
            for (int v : new int[] {0, 1, 0x7F, 0x80, 0xFF}) {
                byte[] m = valid.clone();
                m[at] = (byte) v;
                check(KeyFilterTest.withCrc(m));
                check(m);
            }
        }
        // Consistent but different shapes: more bits per key, other probe counts, other key counts.
        for (int bits = 1; bits <= FilterPolicy.MAX_BITS_PER_KEY + 1; bits++) {
            byte[] m = valid.clone();
            ByteBuffer.wrap(m).order(ByteOrder.LITTLE_ENDIAN).putInt(12, bits);
            check(KeyFilterTest.withCrc(m));
        }
        for (int probes = 0; probes <= KeyFilter.MAX_PROBES + 1; probes++) {
            byte[] m = valid.clone();
            ByteBuffer.wrap(m).order(ByteOrder.LITTLE_ENDIAN).putInt(8, probes);
            check(KeyFilterTest.withCrc(m));
        }
        for (long blocks : new long[] {0, 1, 5, 7, Long.MAX_VALUE, -1}) {
            byte[] m = valid.clone();
            ByteBuffer.wrap(m).order(ByteOrder.LITTLE_ENDIAN).putLong(24, blocks);
            check(KeyFilterTest.withCrc(m));
        }
        for (int len = 0; len <= valid.length + 128; len += 8) {
            check(KeyFilterTest.withCrc(Arrays.copyOf(valid, len)));
        }
        // Every block word cleared and set, checksum repaired: open accepts, verify refuses.
        for (int at = KeyFilter.HEADER; at < valid.length; at += 8) {
            for (long w : new long[] {0, -1}) {
                byte[] m = valid.clone();
                ByteBuffer.wrap(m).order(ByteOrder.LITTLE_ENDIAN).putLong(at, w);
                check(KeyFilterTest.withCrc(m));
            }
        }
    }

    @Test
    void committedSeedIsCurrent() throws IOException {
        Path seed = Path.of(System.getProperty("basedir", ".")).resolve(SEED);
        if (Boolean.getBoolean("everett.fuzz.writeCorpus")) {
            Files.createDirectories(seed.getParent());
            Files.write(seed, FIXTURE.valid());
        }
        assertArrayEquals(FIXTURE.valid(), Files.readAllBytes(seed),
                "regenerate with -Deverett.fuzz.writeCorpus=true (the native or the filter layout changed)");
    }
}

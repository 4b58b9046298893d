package dev.everett.segment.cascade;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.everett.api.CommonWidthRule;
import dev.everett.api.Lookup;
import dev.everett.api.ObjectId;
import dev.everett.api.Policy;
import dev.everett.segment.index.Catalog;
import dev.everett.segment.io.Envelope;
import dev.everett.segment.natives.NativeWriter;
import dev.everett.segment.objects.OpenObjects;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Everett's lookup fixture (docs/benchmarks/lookup.md, "Fixture and settings") at N = 131,072 in both profiles: byte
 * ({@link Policy#defaultBytes()}, KV02 + IX03) and bit ({@link Policy#stringPolicy()}, KV03 +
 * IX03), structured 16-byte and hash 128-byte keys. Everett publishes the whole-fixture totals of
 * all four; they are the totals of every {@code .kv} and {@code .index} file of the chain, the
 * routing head's empty native included. All four equal Everett's.
 *
 * <p>The bit totals pin KV03's common value width: Everett's KV03 encoder records the width its
 * values have whatever the writer was asked (every value here is the optional grammar's
 * 1 + EG0(32) + 256 = 268 bits), so the Elias–Fano residuals lose the stride ordinal × 268 and
 * need fewer low bits. Without it the five KV03 natives are 6,560 bytes (structured) and 408
 * bytes (hash) larger; the index files do not change (docs/format.md, "KV03 common width").
 */
class LookupFixtureBitSizesTest {
    private static final long GOLDEN = 0x9e3779b97f4a7c15L;
    private static final long CHUNK = 0xa0761d6478bd642fL;
    private static final int N = 131_072;

    /** The fixture's {@code mix}: add the golden gamma, then the SplitMix64 finaliser. */
    static long mix(long x) {
        long z = x + GOLDEN;
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    /** The fixture's {@code key(o, width, hash)}; hash-like exactly when 128 bytes wide, as in the fixture. */
    static byte[] key(long o, int width) {
        byte[] k = new byte[width];
        Arrays.fill(k, (byte) 'p');
        if (width == 128) {
            for (int c = 0; c < width; c += 8) {
                long w = mix(o + c * CHUNK);
                for (int b = 0; b < 8; b++) {
                    k[c + b] = (byte) (w >>> (8 * b));
                }
            }
        }
        for (int b = 0; b < 8; b++) {
            k[width - 8 + b] = (byte) (o >>> (56 - 8 * b));
        }
        return k;
    }

    /** The records of run {@code stride} (ordinals {@code i % stride == 0}) in key order. */
    static ObjectId run(OpenObjects store, byte[][] keys, int[] sorted, int stride) throws IOException {
        ObjectId id = ObjectId.random();
        try (NativeWriter w = store.newNative(id, CommonWidthRule.policy())) {
            for (int i : sorted) {
                if (i % stride == 0) {
                    w.put(keys[i], LookupFixtureSizesTest.value(i));
                }
            }
            w.finish();
        }
        return id;
    }

    @ParameterizedTest(name = "{0} {1}-byte keys: {2} bytes (published {3})")
    @CsvSource({
            "byte, 16, 6762352, 6762352",
            "byte, 128, 30321360, 30321360",
            "bit, 16, 6422208, 6422208",
            "bit, 128, 30651952, 30651952"})
    void theWholeFixtureHasItsPinnedSize(String profile, int width, long ours, long published, @TempDir Path dir) throws IOException {
        Policy policy = profile.equals("bit") ? Policy.stringPolicy() : Policy.defaultBytes();
        byte[][] keys = new byte[N][];
        for (int i = 0; i < N; i++) {
            keys[i] = key(2L * i, width);
        }
        int[] sorted = IntStream.range(0, N).boxed().sorted((a, b) -> Arrays.compareUnsigned(keys[a], keys[b]))
                .mapToInt(Integer::intValue).toArray();
        try (OpenObjects store = new OpenObjects(dir, policy)) {
            ObjectId run1 = run(store, keys, sorted, 1);
            Catalog c = store.index(run1, null, null);
            ObjectId run4 = run(store, keys, sorted, 4);
            c = store.index(run4, c, null);
            ObjectId run16 = run(store, keys, sorted, 16);
            ObjectId run128 = run(store, keys, sorted, 128);
            c = store.index(run16, c, run128);
            ObjectId run64 = run(store, keys, sorted, 64);
            c = store.index(run64, c, null);
            Catalog head = store.prepareHead(c, null);
            assertEquals(13, head.virtualCount(), "two routing nodes (186, then 13)");
            assertEquals(186, head.main.virtualCount());

            long total;
            try (Stream<Path> files = Files.walk(dir)) {
                total = files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
            }
            assertEquals(ours, total, profile + " " + width + "-byte keys; Everett published " + published);
            assertEquals(published, total);
            if (profile.equals("bit")) {
                // Every value of every run is 268 bits, so each KV03 native records that width.
                for (ObjectId run : List.of(run1, run4, run16, run128, run64)) {
                    try (Arena arena = Arena.ofConfined(); FileChannel ch = FileChannel.open(store.nativePath(run))) {
                        Envelope env = Envelope.parse(store.nativePath(run), ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena));
                        assertEquals(List.of(true, 268L), List.of(env.hasCommonWidth(), env.commonWidth()), run.toString());
                    }
                }
            }

            // The sizes only count if the chain answers: every 97th record and the key after it.
            Cascade cascade = new Cascade(head);
            for (int i = 0; i < N; i += 97) {
                Lookup hit = cascade.get(keys[i], width);
                assertEquals(Lookup.Status.VALUE, hit.status(), "ordinal " + i);
                assertEquals(Arrays.toString(LookupFixtureSizesTest.value(i)), Arrays.toString(hit.valueBytes()));
                assertEquals(Lookup.Status.ABSENT, cascade.get(key(2L * i + 1, width), width).status(), "miss " + i);
            }
        }
    }
}

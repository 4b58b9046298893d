package dev.everett.segment.objects;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.api.BackspaceCode;
import dev.everett.api.CommonWidthRule;
import dev.everett.api.ObjectId;
import dev.everett.api.Policy;
import dev.everett.api.SegmentFormat;
import dev.everett.api.Unit;
import dev.everett.api.ValueGrammar;
import dev.everett.api.ValueWidth;
import dev.everett.segment.encoded.EncodedOutput;
import dev.everett.segment.fc.KeySamples;
import dev.everett.segment.index.Catalog;
import dev.everett.segment.index.IndexBuilder;
import dev.everett.segment.io.WrittenFiles;
import dev.everett.segment.natives.NativeWriter;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The routing catalog above a just-written native samples the keys its writer kept instead of
 * walking every record: the index it builds is byte for byte the walked one, for natives written
 * from host keys ({@code put}) and from encoded records (the merger's path), and a file changed
 * since it was sealed gives no samples.
 */
class WriterKeySamplesTest {
    @TempDir
    Path root;

    private static Policy policy(long k, int w, ValueGrammar grammar) {
        return new Policy(Unit.BYTE, w, k, ValueWidth.variable(), BackspaceCode.VARINT, grammar, SegmentFormat.KV02);
    }

    /** Distinct keys in order: long shared prefixes, short ones, sometimes the empty key. */
    private static byte[][] keys(Random rnd, int n) {
        TreeSet<byte[]> set = new TreeSet<>(Arrays::compareUnsigned);
        if (rnd.nextInt(4) == 0) {
            set.add(new byte[0]);
        }
        byte[] prefix = new byte[rnd.nextInt(40)];
        rnd.nextBytes(prefix);
        while (set.size() < n) {
            int shared = rnd.nextInt(3) == 0 ? 0 : prefix.length;
            byte[] k = Arrays.copyOf(prefix, shared + 1 + rnd.nextInt(12));
            for (int i = shared; i < k.length; i++) {
                k[i] = (byte) rnd.nextInt(rnd.nextBoolean() ? 4 : 256);
            }
            set.add(k);
        }
        return set.toArray(new byte[0][]);
    }

    @Test
    void theSampledHeadIsTheWalkedHead() throws IOException {
        Random rnd = new Random(0x5A3B1E5L);
        int cases = 0;
        for (long k : new long[] {3, 7, 15, 31}) {
            for (int round = 0; round < 6; round++) {
                boolean encoded = round % 2 == 1;
                int n = switch (round) {
                    case 0 -> 1;
                    case 1 -> (int) k + 1;
                    default -> 1 + rnd.nextInt(3000);
                };
                Policy p = policy(k, 1 + rnd.nextInt(20), encoded ? ValueGrammar.RAW : ValueGrammar.OPTIONAL);
                Path dir = root.resolve("s" + cases++);
                try (OpenObjects store = storeAt(dir, p)) {
                    ObjectId id = ObjectId.random();
                    byte[][] keys = keys(rnd, n);
                    write(store, p, id, keys, encoded, rnd);
                    KeySamples samples = WrittenFiles.takeSamples(store.nativePath(id));
                    assertNotNull(samples, "k=" + k + " n=" + n);
                    assertEquals((n + k - 1) / k, samples.count());
                    Catalog bottom = store.index(id, null, null);
                    ObjectId empty = store.emptyNative(id);
                    Path sampled = dir.resolve("sampled.ix");
                    Path walked = dir.resolve("walked.ix");
                    new IndexBuilder(p).build(sampled, empty, store.openNative(empty), bottom, samples.source(), null, null);
                    new IndexBuilder(p).build(walked, empty, store.openNative(empty), bottom, null, null, null);
                    assertArrayEquals(Files.readAllBytes(walked), Files.readAllBytes(sampled),
                            "k=" + k + " n=" + n + (encoded ? " encoded" : " put"));
                }
            }
        }
    }

    /**
     * Every routing level that {@code prepareHead} builds above a just-written native (the first
     * from the kept samples, each one above from the same samples at K times the stride) is byte
     * for byte the level built by walking the one below, with up to four levels and sample counts
     * on and off the powers of K.
     */
    @Test
    void everyRoutingLevelFromTheSamplesIsTheWalkedOne() throws IOException {
        Random rnd = new Random(0x4EAD5L);
        int deepest = 0;
        for (long k : new long[] {3, 7, 15}) {
            for (int round = 0; round < 5; round++) {
                boolean encoded = round % 2 == 1;
                int n = switch (round) {
                    case 0 -> (int) (k * k * k);
                    case 1 -> (int) (k * k * k + 1);
                    case 2 -> (int) (k * k + 1);
                    default -> 1 + rnd.nextInt(5000);
                };
                Policy p = policy(k, 1 + rnd.nextInt(20), encoded ? ValueGrammar.RAW : ValueGrammar.OPTIONAL);
                byte[][] keys = keys(rnd, n);
                long valueSeed = rnd.nextLong();
                ObjectId id = ObjectId.random();
                List<List<byte[]>> chains = new ArrayList<>();
                for (boolean sampled : new boolean[] {true, false}) {
                    Path dir = root.resolve("levels-k" + k + "-" + round + (sampled ? "-sampled" : "-walked"));
                    try (OpenObjects store = storeAt(dir, p)) {
                        long[] serial = {1};
                        store.identities(() -> new ObjectId(0, serial[0]++));
                        write(store, p, id, keys, encoded, new Random(valueSeed));
                        if (!sampled) {
                            assertNotNull(WrittenFiles.takeSamples(store.nativePath(id)), "samples to take away");
                        }
                        Catalog head = store.prepareHead(store.index(id, null, null), null);
                        List<byte[]> levels = new ArrayList<>();
                        for (Catalog c = head; c != null; c = c.main) {
                            levels.add(Files.readAllBytes(store.indexPath(c.indexId)));
                        }
                        chains.add(levels);
                    }
                }
                String what = "k=" + k + " n=" + n + (encoded ? " encoded" : " put");
                assertEquals(chains.get(1).size(), chains.get(0).size(), what + ": levels");
                for (int level = 0; level < chains.get(0).size(); level++) {
                    assertArrayEquals(chains.get(1).get(level), chains.get(0).get(level), what + ": level " + level + " from the head");
                }
                deepest = Math.max(deepest, chains.get(0).size());
            }
        }
        assertTrue(deepest >= 4, "a chain of at least three routing levels above the bottom, got " + deepest + " levels");
    }

    @Test
    void aNativeChangedSinceItWasSealedGivesNoSamples() throws IOException {
        Policy p = policy(7, 7, ValueGrammar.OPTIONAL);
        Random rnd = new Random(77);
        try (OpenObjects store = storeAt(root, p)) {
            ObjectId id = ObjectId.random();
            write(store, p, id, keys(rnd, 500), false, rnd);
            Path kv = store.nativePath(id);
            Path copy = kv.resolveSibling("copy");
            Files.copy(kv, copy);
            Files.move(copy, kv, StandardCopyOption.REPLACE_EXISTING);
            assertNull(WrittenFiles.takeSamples(kv), "another file now");
        }
    }

    /** Objects under {@code dir} with the store's descriptor, as an object store opens them (writers keep samples only there). */
    private static OpenObjects storeAt(Path dir, Policy p) throws IOException {
        Files.createDirectories(dir);
        StoreDescriptor.check(dir, p);
        return new OpenObjects(dir, p);
    }

    /** A native written outside any object store is never indexed by one: its writer keeps no samples. */
    @Test
    void aNativeOutsideAnObjectStoreKeepsNoSamples() throws IOException {
        Policy p = policy(7, 7, ValueGrammar.OPTIONAL);
        Random rnd = new Random(78);
        byte[][] keys = keys(rnd, 200);
        Path plain = root.resolve("plain.kv");
        Path lookalike = root.resolve("no-store").resolve("ab").resolve("cd").resolve("0123456789abcdef0123456789ab.kv");
        Files.createDirectories(lookalike.getParent());
        for (Path target : new Path[] {plain, lookalike}) {
            try (EncodedOutput out = EncodedOutput.create(target, p, CommonWidthRule.policy())) {
                byte[] previous = null;
                for (byte[] key : keys) {
                    int lcp = previous == null ? 0 : Arrays.mismatch(previous, key);
                    out.append(lcp, MemorySegment.ofArray(key), lcp, key.length - lcp, MemorySegment.ofArray(new byte[] {1}), 0, 1);
                    previous = key;
                }
                out.finish();
            }
            assertTrue(Files.size(target) > 0);
            assertNull(WrittenFiles.takeSamples(target), "samples kept for " + target);
        }
    }

    /**
     * A writer given host keys and then encoded records (each keeping a prefix of the key before
     * it) keeps the samples and filter hashes of the keys it wrote, across the switch.
     */
    @Test
    void hostKeysThenEncodedRecordsKeepTheirSamplesAndHashes() throws IOException {
        Random rnd = new Random(0xC0FFEEL);
        long k = 3;
        Policy p = policy(k, 5, ValueGrammar.RAW);
        Path dir = root.resolve("mixed");
        Files.createDirectories(dir);
        StoreDescriptor.check(dir, p);
        try (OpenObjects store = new OpenObjects(dir, p, dev.everett.api.FilterPolicy.bloom(10))) {
            ObjectId id = ObjectId.random();
            byte[][] keys = keys(rnd, 100);
            int hostKeys = 1 + rnd.nextInt(keys.length - 1);
            try (NativeWriter w = store.newNative(id, CommonWidthRule.policy())) {
                for (int i = 0; i < hostKeys; i++) {
                    w.put(keys[i], new byte[] {1});
                }
                for (int i = hostKeys; i < keys.length; i++) {
                    int lcp = Arrays.mismatch(keys[i - 1], keys[i]);
                    w.appendEncoded(lcp, MemorySegment.ofArray(keys[i]), lcp, keys[i].length - lcp, MemorySegment.ofArray(new byte[] {1}), 0, 1);
                }
                w.finish();
            }
            KeySamples samples = WrittenFiles.takeSamples(store.nativePath(id));
            assertNotNull(samples);
            var source = samples.source();
            for (int i = 0; i < keys.length; i += (int) k) {
                assertTrue(source.next(), "sample of key " + i);
                assertArrayEquals(keys[i], Arrays.copyOf(source.keyBuffer(), (int) source.keyUnits()), "sample of key " + i + " of " + hostKeys + " host keys");
            }
            var natives = store.openNative(id);
            long[] hashes = WrittenFiles.takeHashes(store.nativePath(id), natives.fileBytes(), dev.everett.segment.filter.KeyFilter.nativeCrc(natives));
            assertNotNull(hashes);
            for (int i = 0; i < keys.length; i++) {
                assertEquals(dev.everett.segment.filter.KeyHash.of(keys[i], keys[i].length), hashes[i], "hash of key " + i);
            }
        }
    }

    private static void write(OpenObjects store, Policy p, ObjectId id, byte[][] keys, boolean encoded, Random rnd) throws IOException {
        if (!encoded) {
            try (NativeWriter w = store.newNative(id, CommonWidthRule.policy())) {
                for (byte[] key : keys) {
                    byte[] value = new byte[rnd.nextInt(5)];
                    rnd.nextBytes(value);
                    w.put(key, value);
                }
                w.finish();
            }
            return;
        }
        Files.createDirectories(store.nativePath(id).getParent());
        try (EncodedOutput out = EncodedOutput.create(store.nativePath(id), p, CommonWidthRule.policy())) {
            byte[] previous = null;
            for (byte[] key : keys) {
                int lcp = previous == null ? 0 : Arrays.mismatch(previous, key); // distinct keys: never -1
                byte[] value = new byte[rnd.nextInt(5)];
                rnd.nextBytes(value);
                out.append(lcp, MemorySegment.ofArray(key), lcp, key.length - lcp, MemorySegment.ofArray(value), 0, value.length);
                previous = key;
            }
            out.finish();
        }
    }
}

package dev.everett.segment.filter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.api.CatalogRef;
import dev.everett.api.Chain;
import dev.everett.api.CommonWidthRule;
import dev.everett.api.CorruptSegmentException;
import dev.everett.api.FilterPolicy;
import dev.everett.api.IndexedSegment;
import dev.everett.api.Lookup;
import dev.everett.api.ObjectId;
import dev.everett.api.ObjectStore;
import dev.everett.api.Policy;
import dev.everett.api.SegmentWriter;
import dev.everett.segment.EverettSegmentEngine;
import dev.everett.segment.cascade.CascadeTest;
import dev.everett.segment.natives.NativeReader;
import dev.everett.segment.testing.Profile;
import dev.everett.segment.testing.RecordGen;
import dev.everett.segment.testing.Seeds;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Key filters ({@link FilterPolicy}, {@link KeyFilter}): the hash agrees between its two inputs,
 * the false-positive rate is what ten bits per key promise, a filtered chain answers every query
 * as the unfiltered cascade and a newest-first model do, and a damaged filter is refused at open
 * (or by {@code verify()} when its checksum was repaired), never trusted.
 */
@ExtendWith(Seeds.class)
class KeyFilterTest {
    @TempDir
    Path dir;

    private static final EverettSegmentEngine ENGINE = new EverettSegmentEngine();

    @Test
    void hashOfAnArrayEqualsHashOfASegment(Random rnd) {
        for (int i = 0; i < 5_000; i++) {
            byte[] key = new byte[rnd.nextInt(70)];
            rnd.nextBytes(key);
            int off = rnd.nextInt(9);
            byte[] padded = new byte[off + key.length + rnd.nextInt(9)];
            System.arraycopy(key, 0, padded, off, key.length);
            assertEquals(KeyHash.of(key, key.length), KeyHash.of(MemorySegment.ofArray(padded), off, key.length), HexFormat.of().formatHex(key));
        }
        assertFalse(KeyHash.of(new byte[] {0}, 1) == KeyHash.of(new byte[0], 0), "a zero byte and the empty key differ");
        assertFalse(KeyHash.of(new byte[] {0, 0}, 2) == KeyHash.of(new byte[] {0}, 1), "trailing zero bytes count");
    }

    /** Writes {@code keys} (in order) as one native of {@code store}. */
    private static ObjectId writeKeys(ObjectStore store, List<byte[]> keys) throws Exception {
        ObjectId id = ObjectId.random();
        try (SegmentWriter w = store.newSegment(id, CommonWidthRule.policy())) {
            for (byte[] k : keys) {
                w.put(k, new byte[] {1});
            }
            w.finish();
        }
        return id;
    }

    private static IndexedSegment segment(ObjectStore store, List<byte[]> keys) throws Exception {
        return store.indexSegment(writeKeys(store, keys));
    }

    private static byte[] structured(long i) {
        return CascadeTest.structured(i);
    }

    private static byte[] hashLike(Random rnd) {
        byte[] k = new byte[128];
        rnd.nextBytes(k);
        return k;
    }

    @Test
    void tenBitsPerKeyGiveAboutOnePercentFalsePositives(Random rnd) throws Exception {
        int n = 50_000;
        for (String shape : List.of("structured", "hash")) {
            TreeMap<byte[], Boolean> present = new TreeMap<>(Arrays::compareUnsigned);
            for (int i = 0; i < n; i++) {
                present.put(shape.equals("structured") ? structured(2L * i) : hashLike(rnd), true);
            }
            Path root = dir.resolve(shape);
            try (ObjectStore store = ENGINE.openObjectStore(root, Policy.defaultBytes(), FilterPolicy.bloom(10))) {
                ObjectId id = writeKeys(store, new ArrayList<>(present.keySet()));
                IndexedSegment seg = store.indexSegment(id);
                assertTrue(seg.filtered());
                KeyFilter f = KeyFilter.open(id.path(root, ".filter"), id, ((dev.everett.segment.objects.ReaderHandle) store.openNative(id)).nativeReader());
                for (byte[] k : present.keySet()) {
                    assertTrue(f.mayContain(KeyHash.of(k, k.length)), "no false negatives");
                }
                int probes = 200_000;
                int positives = 0;
                for (int i = 0; i < probes; i++) {
                    byte[] q = shape.equals("structured") ? structured(2L * rnd.nextInt(4 * n) + 1) : hashLike(rnd);
                    if (f.mayContain(KeyHash.of(q, q.length))) {
                        positives++;
                    }
                }
                double rate = positives / (double) probes;
                assertTrue(rate < 0.016, shape + ": false-positive rate " + rate);
                assertEquals(KeyFilter.HEADER + KeyFilter.blocksFor(n, 10) * KeyFilter.BLOCK_BYTES, f.fileBytes());
                f.close();
            }
        }
    }

    /** One run of a chain: its records (value null = tombstone). */
    private static TreeMap<byte[], byte[]> run(Random rnd, List<byte[]> universe, double p) {
        TreeMap<byte[], byte[]> m = new TreeMap<>(Arrays::compareUnsigned);
        for (byte[] k : universe) {
            if (rnd.nextDouble() < p) {
                m.put(k, rnd.nextInt(5) == 0 ? null : new byte[] {(byte) rnd.nextInt(), (byte) m.size()});
            }
        }
        return m;
    }

    private static ObjectId write(ObjectStore store, TreeMap<byte[], byte[]> run) throws Exception {
        ObjectId id = ObjectId.random();
        try (SegmentWriter w = store.newSegment(id, CommonWidthRule.policy())) {
            for (var e : run.entrySet()) {
                if (e.getValue() == null) {
                    w.delete(e.getKey());
                } else {
                    w.put(e.getKey(), e.getValue());
                }
            }
            w.finish();
        }
        return id;
    }

    /** Runs (oldest first, a secondary beside the second) as one chain under {@code store}. */
    private static CatalogRef chain(ObjectStore store, List<TreeMap<byte[], byte[]>> runs, TreeMap<byte[], byte[]> secondary) throws Exception {
        CatalogRef below = null;
        for (int i = 0; i < runs.size(); i++) {
            ObjectId s = i == 1 && secondary != null ? write(store, secondary) : null;
            below = store.index(write(store, runs.get(i)), below, s);
        }
        return store.prepareHead(below, null);
    }

    @ParameterizedTest
    @EnumSource(Profile.class)
    void filteredChainsAnswerAsTheCascadeAndTheModel(Profile profile, Random rnd) throws Exception {
        for (int round = 0; round < 6; round++) {
            Policy policy = profile.withRandomBackspace(profile.base(), rnd).withGroupSize(new long[] {3, 7, 15, 31}[rnd.nextInt(4)]).withBlockWidth(1 + rnd.nextInt(16));
            List<byte[]> universe = new RecordGen(rnd).keys(400 + rnd.nextInt(400));
            List<TreeMap<byte[], byte[]>> runs = new ArrayList<>();
            int depth = 1 + rnd.nextInt(4);
            for (int i = 0; i < depth; i++) {
                runs.add(run(rnd, universe, i == 0 ? 0.5 : 0.15));
            }
            TreeMap<byte[], byte[]> secondary = depth > 1 ? run(rnd, universe, 0.1) : null;
            Path root = dir.resolve(profile + "-" + round);
            CatalogRef head;
            try (ObjectStore plain = ENGINE.openObjectStore(root, policy)) {
                head = chain(plain, runs, secondary);
            }
            try (Stream<Path> files = Files.walk(root)) {
                assertFalse(files.anyMatch(p -> p.toString().endsWith(".filter")), "no filters without a filter policy");
            }
            int bits = 1 + rnd.nextInt(16);
            try (ObjectStore plain = ENGINE.openObjectStore(root, policy);
                 ObjectStore filtered = ENGINE.openObjectStore(root, policy, FilterPolicy.bloom(bits))) {
                Chain cascade = plain.openChain(head);
                Chain viaFilters = filtered.openChain(head);
                assertFalse(cascade.filtered());
                assertTrue(viaFilters.filtered(), "filters are built for a chain opened under a filter policy");
                viaFilters.verify();
                int skipped = 0;
                for (byte[] q : queries(rnd, universe)) {
                    String what = profile + " round " + round + " bits " + bits + " key " + HexFormat.of().formatHex(q);
                    byte[] expected = null;
                    Lookup.Status status = Lookup.Status.ABSENT;
                    for (int i = runs.size() - 1; i >= 0 && status == Lookup.Status.ABSENT; i--) {
                        for (TreeMap<byte[], byte[]> r : i == 1 && secondary != null ? List.of(runs.get(i), secondary) : List.of(runs.get(i))) {
                            if (r.containsKey(q)) {
                                expected = r.get(q);
                                status = expected == null ? Lookup.Status.TOMBSTONE : Lookup.Status.VALUE;
                                break;
                            }
                        }
                    }
                    Lookup a = cascade.get(q);
                    Lookup b = viaFilters.get(q);
                    assertEquals(status, a.status(), what);
                    assertEquals(status, b.status(), what);
                    if (status == Lookup.Status.VALUE) {
                        assertArrayEquals(expected, b.valueBytes(), what);
                    }
                }
            }
        }
    }

    private static List<byte[]> queries(Random rnd, List<byte[]> universe) {
        List<byte[]> q = new ArrayList<>();
        q.add(new byte[0]);
        for (byte[] k : universe) {
            q.add(k);
            q.add(Arrays.copyOf(k, k.length + 1));
            if (k.length > 0) {
                q.add(Arrays.copyOf(k, k.length - 1));
            }
        }
        for (int i = 0; i < 200; i++) {
            byte[] r = new byte[rnd.nextInt(12)];
            rnd.nextBytes(r);
            q.add(r);
        }
        return q;
    }

    /** A store with one small filtered segment; returns the filter's path. */
    private Path filteredSegment(Path root) throws Exception {
        List<byte[]> keys = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            keys.add(structured(3L * i));
        }
        try (ObjectStore store = ENGINE.openObjectStore(root, Policy.defaultBytes(), FilterPolicy.bloom(10))) {
            ObjectId id = writeKeys(store, keys);
            IndexedSegment seg = store.indexSegment(id);
            Files.writeString(root.resolve("head"), seg.head().nativeId().hex() + " " + seg.head().indexId().hex());
            return id.path(root, ".filter");
        }
    }

    /** A filtered segment under {@code dir/name}: its root, its filter file, that file's bytes and the chain's head. */
    private record Filtered(Path root, Path filter, byte[] original, CatalogRef head) {
    }

    private Filtered filtered(String name) throws Exception {
        Path root = dir.resolve(name);
        Path filter = filteredSegment(root);
        return new Filtered(root, filter, Files.readAllBytes(filter), head(root));
    }

    private static CatalogRef head(Path root) throws Exception {
        String[] ids = Files.readString(root.resolve("head")).split(" ");
        return new CatalogRef(ObjectId.parse(ids[0]), ObjectId.parse(ids[1]));
    }

    @Test
    void everyBitFlipAndTruncationIsRefusedAtOpen() throws Exception {
        Filtered f = filtered("flips");
        for (long bit = 0; bit < f.original().length * 8L; bit++) {
            byte[] damaged = f.original().clone();
            damaged[(int) (bit >>> 3)] ^= (byte) (1 << (bit & 7));
            Files.write(f.filter(), damaged);
            CorruptSegmentException e = refusedAtOpen(f.root(), f.head(), "bit " + bit);
            assertTrue(e.getMessage().contains(f.filter().getFileName().toString()), e.getMessage());
        }
        for (int len : new int[] {0, 1, 63, 64, 65, f.original().length - 64, f.original().length - 1}) {
            Files.write(f.filter(), Arrays.copyOf(f.original(), len));
            refusedAtOpen(f.root(), f.head(), "truncated to " + len);
        }
        byte[] longer = Arrays.copyOf(f.original(), f.original().length + 64);
        Files.write(f.filter(), longer);
        refusedAtOpen(f.root(), f.head(), "64 bytes longer");
        Files.write(f.filter(), f.original());
        try (ObjectStore store = ENGINE.openObjectStore(f.root(), Policy.defaultBytes(), FilterPolicy.bloom(10))) {
            store.openChain(f.head()).verify();
        }
    }

    private static CorruptSegmentException refusedAtOpen(Path root, CatalogRef head, String what) throws Exception {
        try (ObjectStore store = ENGINE.openObjectStore(root, Policy.defaultBytes(), FilterPolicy.bloom(10))) {
            return assertThrows(CorruptSegmentException.class, () -> store.openChain(head), what);
        }
    }

    /** Recomputes a filter file's CRC32C after a change, as a deliberate forger would. */
    static byte[] withCrc(byte[] f) {
        if (f.length < KeyFilter.HEADER) {
            return f;
        }
        CRC32C crc = new CRC32C();
        crc.update(f, 0, 60);
        crc.update(f, KeyFilter.HEADER, f.length - KeyFilter.HEADER);
        ByteBuffer.wrap(f).order(ByteOrder.LITTLE_ENDIAN).putInt(60, (int) crc.getValue());
        return f;
    }

    @Test
    void aForgedFilterThatPassesItsChecksumIsCaughtByVerify() throws Exception {
        Filtered f = filtered("forged");
        Random rnd = new Random(7);
        for (int t = 0; t < 40; t++) {
            byte[] forged = f.original().clone();
            int at = KeyFilter.HEADER + rnd.nextInt(f.original().length - KeyFilter.HEADER);
            forged[at] ^= (byte) (1 << rnd.nextInt(8));
            Files.write(f.filter(), withCrc(forged));
            try (ObjectStore store = ENGINE.openObjectStore(f.root(), Policy.defaultBytes(), FilterPolicy.bloom(10))) {
                Chain c = store.openChain(f.head());
                CorruptSegmentException e = assertThrows(CorruptSegmentException.class, c::verify, "byte " + at);
                assertEquals(at & ~7, e.offset(), "the first word that differs");
            }
        }
    }

    @Test
    void storesWithoutFiltersWriteNoneAndIgnoreExistingOnes() throws Exception {
        Path root = dir.resolve("plain");
        Path filter = filteredSegment(root);
        assertTrue(Files.exists(filter));
        Files.write(filter, new byte[] {1, 2, 3});
        try (ObjectStore store = ENGINE.openObjectStore(root, Policy.defaultBytes())) {
            Chain c = store.openChain(head(root));
            assertFalse(c.filtered());
            assertEquals(Lookup.Status.VALUE, c.get(structured(3)).status());
            assertEquals(Lookup.Status.ABSENT, c.get(structured(4)).status());
        }
    }

    /**
     * A native published again under the same identity with the same size and record count (as
     * a host may do through {@code newSegment} or {@code nativePath}): the old filter is intact but
     * describes other keys. It must be rebuilt, never trusted.
     */
    @Test
    void aFilterOfEarlierBytesUnderTheSameIdentityIsRebuilt() throws Exception {
        Path root = dir.resolve("stale");
        ObjectId id = ObjectId.random();
        List<byte[]> even = new ArrayList<>();
        List<byte[]> odd = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            even.add(structured(2L * i));
            odd.add(structured(2L * i + 1));
        }
        CatalogRef head;
        try (ObjectStore store = ENGINE.openObjectStore(root, Policy.defaultBytes(), FilterPolicy.bloom(10))) {
            try (SegmentWriter w = store.newSegment(id, CommonWidthRule.policy())) {
                for (byte[] k : even) {
                    w.put(k, new byte[] {1});
                }
                w.finish();
            }
            head = store.indexSegment(id).head();
        }
        byte[] before = Files.readAllBytes(id.path(root, ".filter"));
        // Objects are immutable once published: new bytes under the same identity need the old
        // native gone first. Removed by hand (not through the store, which would delete the
        // filter with it), the filter of the earlier bytes stays behind.
        Files.delete(id.path(root, ".kv"));
        try (ObjectStore store = ENGINE.openObjectStore(root, Policy.defaultBytes(), FilterPolicy.bloom(10))) {
            try (SegmentWriter w = store.newSegment(id, CommonWidthRule.policy())) {
                for (byte[] k : odd) {
                    w.put(k, new byte[] {1});
                }
                w.finish();
            }
        }
        try (ObjectStore store = ENGINE.openObjectStore(root, Policy.defaultBytes(), FilterPolicy.bloom(10))) {
            IndexedSegment seg = store.indexSegment(id);
            assertTrue(seg.filtered());
            for (byte[] k : odd) {
                assertEquals(Lookup.Status.VALUE, seg.get(k).status(), "a key of the new native");
            }
            seg.verify();
        }
        assertFalse(Arrays.equals(before, Files.readAllBytes(id.path(root, ".filter"))), "the filter was rebuilt");
    }

    /**
     * A native written in a store that keeps filters keeps its keys' hashes, and the filter built
     * from them is byte for byte the one built by walking the native: random keys with the empty
     * key, long shared prefixes, and more keys than the hashes' first array holds. A store without
     * filters keeps none.
     */
    @Test
    void aFilterFromTheWritersHashesIsTheWalkedOne(Random rnd) throws Exception {
        for (int round = 0; round < 6; round++) {
            TreeMap<byte[], Boolean> keys = new TreeMap<>(Arrays::compareUnsigned);
            keys.put(new byte[0], true);
            int n = 1 + rnd.nextInt(3_000);
            byte[] prefix = new byte[rnd.nextInt(300)];
            rnd.nextBytes(prefix);
            while (keys.size() < n) {
                byte[] tail = new byte[rnd.nextInt(20)];
                rnd.nextBytes(tail);
                byte[] k = rnd.nextBoolean() ? tail : concat(prefix, tail);
                keys.put(k, true);
            }
            Path root = dir.resolve("hashes" + round);
            try (ObjectStore store = ENGINE.openObjectStore(root, Policy.defaultBytes(), FilterPolicy.bloom(1 + rnd.nextInt(20)))) {
                ObjectId id = writeKeys(store, new ArrayList<>(keys.keySet()));
                NativeReader natives = ((dev.everett.segment.objects.ReaderHandle) store.openNative(id)).nativeReader();
                Path kv = id.path(root, ".kv");
                if (round < 2) {
                    // Kept for a reader of these bytes only: another header CRC or size gets none (and takes them).
                    long bytes = natives.fileBytes() + (round == 0 ? 1 : 0);
                    int crc = KeyFilter.nativeCrc(natives) ^ (round == 1 ? 1 : 0);
                    assertEquals(null, dev.everett.segment.io.WrittenFiles.takeHashes(kv, bytes, crc));
                    assertEquals(null, dev.everett.segment.io.WrittenFiles.takeHashes(kv, natives.fileBytes(), KeyFilter.nativeCrc(natives)),
                            "taken by the refused call");
                    continue;
                }
                long[] hashes = dev.everett.segment.io.WrittenFiles.takeHashes(kv, natives.fileBytes(), KeyFilter.nativeCrc(natives));
                assertTrue(hashes != null && hashes.length == keys.size(), "one hash per key was kept");
                FilterPolicy policy = FilterPolicy.bloom(1 + rnd.nextInt(20));
                KeyFilter.write(dir.resolve("fromHashes"), id, natives, policy, hashes);
                KeyFilter.write(dir.resolve("walked"), id, natives, policy);
                assertArrayEquals(Files.readAllBytes(dir.resolve("walked")), Files.readAllBytes(dir.resolve("fromHashes")), "round " + round);
                assertThrows(IllegalArgumentException.class,
                        () -> KeyFilter.write(dir.resolve("short"), id, natives, policy, Arrays.copyOf(hashes, hashes.length - 1)));
            }
        }
        Path plain = dir.resolve("plain");
        try (ObjectStore store = ENGINE.openObjectStore(plain, Policy.defaultBytes())) {
            ObjectId id = writeKeys(store, List.of(new byte[] {1}, new byte[] {2}));
            NativeReader natives = ((dev.everett.segment.objects.ReaderHandle) store.openNative(id)).nativeReader();
            assertEquals(null, dev.everett.segment.io.WrittenFiles.takeHashes(id.path(plain, ".kv"), natives.fileBytes(), KeyFilter.nativeCrc(natives)),
                    "no filters, no hashes");
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] c = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }

    @Test
    void anEmptyChainNeedsNoFilterFile() throws Exception {
        try (ObjectStore store = ENGINE.openObjectStore(dir, Policy.defaultBytes(), FilterPolicy.bloom(10))) {
            IndexedSegment seg = segment(store, List.of());
            assertTrue(seg.filtered());
            assertEquals(Lookup.Status.ABSENT, seg.get(new byte[0]).status());
            try (Stream<Path> files = Files.walk(dir)) {
                assertFalse(files.anyMatch(p -> p.toString().endsWith(".filter")));
            }
        }
    }

    @Test
    void filterPolicyBounds() {
        assertThrows(IllegalArgumentException.class, () -> FilterPolicy.bloom(0));
        assertThrows(IllegalArgumentException.class, () -> new FilterPolicy(-1));
        assertThrows(IllegalArgumentException.class, () -> new FilterPolicy(FilterPolicy.MAX_BITS_PER_KEY + 1));
        assertEquals(6, KeyFilter.probesFor(10));
        assertEquals(1, KeyFilter.probesFor(1));
        assertEquals(1, KeyFilter.blocksFor(0, 10));
        assertEquals(2, KeyFilter.blocksFor(52, 10));
    }
}

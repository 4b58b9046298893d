package dev.everett.segment.cascade;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.everett.api.CommonWidthRule;
import dev.everett.api.Lookup;
import dev.everett.api.ObjectId;
import dev.everett.api.Policy;
import dev.everett.api.ValueGrammar;
import dev.everett.segment.index.Catalog;
import dev.everett.segment.natives.NativeWriter;
import dev.everett.segment.objects.OpenObjects;
import dev.everett.segment.testing.Profile;
import dev.everett.segment.testing.Rec;
import dev.everett.segment.testing.RecordGen;
import dev.everett.segment.testing.Seeds;
import dev.everett.segment.testing.SegmentFixtures;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Differential test of cascade lookups: random chains of overlapping runs (with secondaries
 * and routing heads), every query among hits, misses and their neighbours answered as a
 * newest-first linear search over the runs would. Every test runs under each {@link Profile}
 * (byte-unit KV02, KV02 with bit units, KV03): bit-unit chains compare logical keys in bits.
 */
@ExtendWith(Seeds.class)
public class CascadeTest {
    @TempDir
    Path dir;

    /** One level of a chain, bottom first: its native run and an optional secondary run. */
    record Level(List<Rec> natives, List<Rec> secondary, TreeMap<byte[], Rec> nativeMap, TreeMap<byte[], Rec> secondaryMap) {
        Level(List<Rec> natives, List<Rec> secondary) {
            this(natives, secondary, map(natives), secondary == null ? null : map(secondary));
        }
    }

    private static TreeMap<byte[], Rec> map(List<Rec> recs) {
        TreeMap<byte[], Rec> m = new TreeMap<>(Arrays::compareUnsigned);
        for (Rec r : recs) {
            m.put(r.key(), r);
        }
        return m;
    }

    /** The newest-first answer: top level first; at a level its native, then its secondary. */
    private static Lookup.Status model(List<Level> levels, byte[] key, byte[][] value) {
        for (int i = levels.size() - 1; i >= 0; i--) {
            for (TreeMap<byte[], Rec> run : List.of(levels.get(i).nativeMap(), levels.get(i).secondaryMap() == null ? map(List.of()) : levels.get(i).secondaryMap())) {
                Rec r = run.get(key);
                if (r != null) {
                    value[0] = r.value();
                    return r.tombstone() ? Lookup.Status.TOMBSTONE : Lookup.Status.VALUE;
                }
            }
        }
        return Lookup.Status.ABSENT;
    }

    /** Writes {@code recs} (sorted, tombstones as deletes) as a new native of {@code store}. */
    static ObjectId write(OpenObjects store, List<Rec> recs) throws Exception {
        ObjectId id = ObjectId.random();
        try (NativeWriter w = store.newNative(id, CommonWidthRule.policy())) {
            SegmentFixtures.putAll(w, recs);
            w.finish();
        }
        return id;
    }

    private Catalog build(OpenObjects store, List<Level> levels) throws Exception {
        Catalog below = null;
        for (Level level : levels) {
            ObjectId n = write(store, level.natives());
            ObjectId s = level.secondary() == null ? null : write(store, level.secondary());
            below = store.index(n, below, s);
        }
        return store.prepareHead(below, null);
    }

    private static List<Rec> subset(Random rnd, List<byte[]> universe, double p, boolean tombstones) {
        List<Rec> out = new ArrayList<>();
        for (byte[] k : universe) {
            if (rnd.nextDouble() < p) {
                byte[] v = tombstones && rnd.nextInt(5) == 0 ? null : new byte[rnd.nextInt(6)];
                if (v != null) {
                    rnd.nextBytes(v);
                }
                out.add(new Rec(k, v));
            }
        }
        return out;
    }

    private static List<byte[]> queries(Random rnd, List<byte[]> universe) {
        List<byte[]> q = new ArrayList<>();
        q.add(new byte[0]);
        for (byte[] k : universe) {
            q.add(k);
            byte[] longer = Arrays.copyOf(k, k.length + 1);
            q.add(longer);
            if (k.length > 0) {
                q.add(Arrays.copyOf(k, k.length - 1));
                byte[] bumped = k.clone();
                bumped[k.length - 1]++;
                q.add(bumped);
            }
        }
        for (int i = 0; i < 50; i++) {
            byte[] r = new byte[rnd.nextInt(4)];
            rnd.nextBytes(r);
            q.add(r);
        }
        return q;
    }

    /**
     * The same chain queried three ways: the cascade from the head (no routing cache), with the
     * deepest routing catalog decoded (the default cache), and with a cache so small that at most
     * a shallower one fits, so that every entry point into the cascade is exercised.
     */
    static List<Cascade> routingVariants(Catalog head, Random rnd) {
        return List.of(new Cascade(head, 0), new Cascade(head), new Cascade(head, 16 + rnd.nextInt(400)));
    }

    static String describe(RoutingCache r) {
        return r == null ? "none" : r.levels() + " levels decoded (" + r.bytes() + " bytes)";
    }

    @ParameterizedTest
    @EnumSource(Profile.class)
    void lookupsEqualANewestFirstSearch(Profile profile, Random rnd) throws Exception {
        for (int round = 0; round < 24; round++) {
            Policy policy = profile.randomShape(rnd, 20);
            List<byte[]> universe = new RecordGen(rnd).keys(rnd.nextInt(600));
            int depth = 1 + rnd.nextInt(4);
            List<Level> levels = new ArrayList<>();
            for (int i = 0; i < depth; i++) {
                double p = 1.0 / (1 + rnd.nextInt(4) * (i + 1));
                List<Rec> secondary = rnd.nextInt(3) == 0 ? subset(rnd, universe, 0.1, true) : null;
                levels.add(new Level(subset(rnd, universe, p, true), secondary));
            }
            Path root = dir.resolve("r" + round);
            try (OpenObjects store = new OpenObjects(root, policy)) {
                Catalog head = build(store, levels);
                head.verify();
                List<Cascade> cascades = routingVariants(head, rnd);
                for (byte[] q : queries(rnd, universe)) {
                    byte[][] expected = new byte[1][];
                    Lookup.Status status = model(levels, q, expected);
                    for (Cascade cascade : cascades) {
                        Lookup got = cascade.get(q, q.length);
                        String what = profile + " round " + round + " K=" + policy.groupSize() + " W=" + policy.blockWidth() + " " + policy.backspace() + " depth " + depth
                                + " routing head " + describe(cascade.routing()) + " key " + java.util.HexFormat.of().formatHex(q);
                        assertEquals(status, got.status(), what);
                        if (status == Lookup.Status.VALUE) {
                            assertArrayEquals(expected[0], got.valueBytes(), what);
                        }
                    }
                }
            }
        }
    }

    /**
     * Key filters tell the cascade which natives and leaves may hold Q ({@link Cascade#get(byte[],
     * int, long)}). Any mask that covers the true holders (every object holding Q, plus random
     * false positives, as a Bloom filter gives) must give the model's answer.
     */
    @ParameterizedTest
    @EnumSource(Profile.class)
    void holderMasksCoveringTheTruthGiveTheSameAnswers(Profile profile, Random rnd) throws Exception {
        for (int round = 0; round < 12; round++) {
            long k = new long[] {3, 7, 15, 31}[rnd.nextInt(4)];
            Policy policy = profile.withRandomBackspace(profile.base(), rnd).withGroupSize(k).withBlockWidth(1 + rnd.nextInt(20));
            List<byte[]> universe = new RecordGen(rnd).keys(rnd.nextInt(500));
            int depth = 1 + rnd.nextInt(4);
            List<Level> levels = new ArrayList<>();
            for (int i = 0; i < depth; i++) {
                List<Rec> secondary = rnd.nextInt(3) == 0 ? subset(rnd, universe, 0.1, true) : null;
                levels.add(new Level(subset(rnd, universe, 1.0 / (1 + rnd.nextInt(4) * (i + 1)), true), secondary));
            }
            try (OpenObjects store = new OpenObjects(dir.resolve("m" + round), policy)) {
                Catalog head = build(store, levels);
                int catalogs = 0;
                for (Catalog c = head; c != null; c = c.main) {
                    catalogs++;
                }
                int routing = catalogs - levels.size();
                List<Cascade> cascades = routingVariants(head, rnd);
                double noise = rnd.nextDouble();
                for (byte[] q : queries(rnd, universe)) {
                    long mask = 0;
                    for (int i = 0; i < levels.size(); i++) {
                        int d = routing + levels.size() - 1 - i;
                        Level l = levels.get(i);
                        if (l.nativeMap().containsKey(q) || rnd.nextDouble() < noise * 0.3) {
                            mask |= 1L << (2 * d);
                        }
                        if ((l.secondaryMap() != null && l.secondaryMap().containsKey(q)) || rnd.nextDouble() < noise * 0.3) {
                            mask |= 2L << (2 * d);
                        }
                    }
                    byte[][] expected = new byte[1][];
                    Lookup.Status status = model(levels, q, expected);
                    String what = profile + " round " + round + " mask " + Long.toBinaryString(mask) + " key " + java.util.HexFormat.of().formatHex(q);
                    for (Cascade cascade : cascades) {
                        Lookup got = mask == 0 ? Lookup.absent() : cascade.get(q, q.length, mask);
                        assertEquals(status, got.status(), what + " routing head " + describe(cascade.routing()));
                        if (status == Lookup.Status.VALUE) {
                            assertArrayEquals(expected[0], got.valueBytes(), what);
                        }
                    }
                }
            }
        }
    }

    /** 'p' × 8 then the big-endian ordinal: every key shares at least 8 bytes with every other. */
    public static byte[] structured(long i) {
        byte[] k = new byte[16];
        Arrays.fill(k, 0, 8, (byte) 'p');
        for (int b = 0; b < 8; b++) {
            k[8 + b] = (byte) (i >>> (56 - 8 * b));
        }
        return k;
    }

    /**
     * The shape of the lookup benchmark (docs/benchmarks/lookup.md, "Fixture and settings"): runs of every 1st, 4th, 16th
     * and 64th even ordinal, a secondary of every 128th, routing heads on top; hits and misses.
     */
    @ParameterizedTest
    @EnumSource(Profile.class)
    void stridedRunsWithSharedPrefixes(Profile profile, Random rnd) throws Exception {
        for (long k : new long[] {3, 15}) {
            int n = 2048;
            Policy policy = profile.withRandomBackspace(profile.base(), rnd).withGroupSize(k).withBlockWidth((int) k);
            List<Level> levels = new ArrayList<>();
            int[] strides = {1, 4, 16, 64};
            for (int li = 0; li < strides.length; li++) {
                List<Rec> run = new ArrayList<>();
                for (long i = 0; i < n; i += strides[li]) {
                    byte[] v = rnd.nextInt(7) == 0 ? null : new byte[] {(byte) li, (byte) i};
                    run.add(new Rec(structured(2 * i), v));
                }
                List<Rec> secondary = null;
                if (strides[li] == 16) {
                    secondary = new ArrayList<>();
                    for (long i = 0; i < n; i += 128) {
                        secondary.add(new Rec(structured(2 * i), new byte[] {9, (byte) i}));
                    }
                }
                levels.add(new Level(run, secondary));
            }
            try (OpenObjects store = new OpenObjects(dir.resolve("k" + k), policy)) {
                List<Cascade> cascades = routingVariants(build(store, levels), rnd);
                for (long i = -1; i < 2 * n + 2; i++) {
                    byte[] q = i < 0 ? new byte[0] : structured(i);
                    byte[][] expected = new byte[1][];
                    Lookup.Status status = model(levels, q, expected);
                    for (Cascade cascade : cascades) {
                        String what = profile + " K=" + k + " ordinal " + i + " routing head " + describe(cascade.routing());
                        Lookup got = cascade.get(q, q.length);
                        assertEquals(status, got.status(), what);
                        if (status == Lookup.Status.VALUE) {
                            assertArrayEquals(expected[0], got.valueBytes(), what);
                        }
                    }
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Profile.class)
    void emptyChainAnswersAbsent(Profile profile) throws Exception {
        Policy policy = profile.base();
        try (OpenObjects store = new OpenObjects(dir, policy)) {
            Cascade cascade = new Cascade(build(store, List.of(new Level(List.of(), null))));
            assertEquals(Lookup.Status.ABSENT, cascade.get(new byte[0], 0).status());
            assertEquals(Lookup.Status.ABSENT, cascade.get(new byte[] {1}, 1).status());
        }
    }

    @ParameterizedTest
    @EnumSource(Profile.class)
    void rawGrammarValuesComeBack(Profile profile, Random rnd) throws Exception {
        Policy policy = profile.withRandomBackspace(profile.base(), rnd).withGrammar(ValueGrammar.RAW).withGroupSize(3).withBlockWidth(2);
        List<byte[]> universe = new RecordGen(rnd).keys(200);
        List<Level> levels = List.of(new Level(subset(rnd, universe, 0.7, false), null), new Level(subset(rnd, universe, 0.3, false), null));
        try (OpenObjects store = new OpenObjects(dir, policy)) {
            Cascade cascade = new Cascade(build(store, levels));
            for (byte[] q : universe) {
                byte[][] expected = new byte[1][];
                Lookup.Status status = model(levels, q, expected);
                Lookup got = cascade.get(q, q.length);
                assertEquals(status, got.status());
                if (status == Lookup.Status.VALUE) {
                    assertArrayEquals(expected[0], got.valueBytes());
                }
            }
        }
    }
}

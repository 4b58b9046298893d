package dev.everett.segment.cascade;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.api.Lookup;
import dev.everett.api.ObjectId;
import dev.everett.api.Policy;
import dev.everett.segment.SegmentCursorTest;
import dev.everett.segment.fc.FcStream;
import dev.everett.segment.fc.KeyWalker;
import dev.everett.segment.index.Catalog;
import dev.everett.segment.index.IndexReader;
import dev.everett.segment.io.LittleEndian;
import dev.everett.segment.objects.OpenObjects;
import dev.everett.segment.testing.Profile;
import dev.everett.segment.testing.Rec;
import dev.everett.segment.testing.RecordGen;
import dev.everett.segment.testing.Seeds;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The routing cache ({@link RoutingCache}) of a segment's chain: which catalogs a budget decodes,
 * and that a cascade entered through it answers every get and lower bound as the cascade from the
 * head does, and as a sorted-list model does, for every budget from none to all. Chains of several
 * runs, where filters let lookups jump past catalogs with natives, are in {@link CascadeTest}.
 */
@ExtendWith(Seeds.class)
class RoutingCacheTest {
    @TempDir
    Path dir;

    /** What decoding catalog {@code c}'s main samples takes, as the budget counts it (keys, starts, words, summary, bit lengths). */
    private static long decodedBytes(Catalog c) {
        FcStream s = c.index.route(IndexReader.MAIN).stream();
        KeyWalker w = s.keys();
        long bytes = 4 * (s.count() + 1) + 8 * s.count() + 8 * LittleEndian.ceilDiv(s.count(), RoutingCache.Samples.STRIDE)
                + (s.framing().units().partialBytes() ? 4 * s.count() : 0);
        while (w.next()) {
            bytes += s.framing().units().arrayBytes(w.keyUnits());
        }
        return bytes;
    }

    @ParameterizedTest
    @EnumSource(Profile.class)
    void everyBudgetGivesTheSameAnswers(Profile profile, Random rnd) throws Exception {
        for (int round = 0; round < 6; round++) {
            long k = new long[] {3, 7, 15}[rnd.nextInt(3)];
            Policy policy = profile.withRandomBackspace(profile.base(), rnd).withGroupSize(k).withBlockWidth(1 + rnd.nextInt(16));
            List<Rec> model = new RecordGen(rnd).records(200 + rnd.nextInt(3000), RecordGen.Values.variable(policy.grammar()));
            if (round % 3 == 2) {
                // Every key one size, as a store's usually are: the samples' words then decide a
                // boundary without their keys (which hold up to 8 bytes past the prefix or more).
                model = sameLength(model, rnd);
            }
            // Every other round, every key behind one shared prefix (0 to 20 bytes, its last byte
            // 0x00, 0xFF or random): the decoded samples then compare the words after it first.
            byte[] prefix = new byte[round % 2 == 0 ? 0 : rnd.nextInt(21)];
            rnd.nextBytes(prefix);
            if (prefix.length > 0 && rnd.nextBoolean()) {
                prefix[prefix.length - 1] = (byte) (rnd.nextBoolean() ? 0 : 0xFF);
            }
            model = prefixed(prefix, model);
            try (OpenObjects store = new OpenObjects(dir.resolve("r" + round), policy)) {
                ObjectId id = CascadeTest.write(store, model);
                Catalog head = store.prepareHead(store.index(id, null, null), null);
                List<Long> sizes = new ArrayList<>();
                int empty = 0;
                for (Catalog c = head; c.main != null; c = c.main) {
                    sizes.add(decodedBytes(c));
                    empty += c.nativeReader.recordCount() == 0 ? 1 : 0;
                }
                String tag = profile + " round " + round + " K=" + k + " n=" + model.size() + " decoded sizes " + sizes;
                assertTrue(empty >= 1, tag + ": a segment this large has a routing head");
                assertEquals(sizes.size(), empty, tag + ": every catalog above the native is a routing catalog");
                // Budgets just below and at each catalog's size, none and plenty. Every catalog
                // above the native is a routing catalog, so a deeper one replaces the one above
                // it: the budget holds one catalog's samples at a time.
                List<Long> budgets = new ArrayList<>(List.of(0L, 1L, Long.MAX_VALUE >>> 8));
                for (long s : sizes) {
                    budgets.add(s - 1);
                    budgets.add(s);
                }
                List<Cascade> cascades = new ArrayList<>();
                for (long budget : budgets) {
                    Cascade cascade = new Cascade(head, budget);
                    int expected = 0;
                    while (expected < sizes.size() && sizes.get(expected) <= budget) {
                        expected++;
                    }
                    String what = tag + " budget " + budget;
                    assertEquals(budget == 0, cascade.routingDecoded(), what + ": decoded at the first lookup, not before");
                    RoutingCache r = cascade.routing();
                    if (expected == 0) {
                        assertNull(r, what);
                    } else {
                        assertNotNull(r, what);
                        assertEquals(expected, r.levels(), what);
                        assertEquals(sizes.get(expected - 1), r.bytes(), what);
                        assertEquals(empty, r.emptyTop(), what);
                        assertEquals(expected - 1, r.jumpLevel(Cascade.ALL_HOLDERS), what);
                    }
                    cascades.add(cascade);
                }
                List<byte[]> probes = SegmentCursorTest.probes(rnd, model, 1, 100);
                probes.addAll(aroundPrefix(prefix));
                Cascade lazy = new Cascade(head, Long.MAX_VALUE >>> 8);
                lazy.get(probes.getFirst(), probes.getFirst().length);
                assertTrue(lazy.routingDecoded(), tag + ": the first lookup decodes the samples");
                cascades.add(lazy);
                budgets.add(Long.MAX_VALUE >>> 8);
                assertEntersAtTheSample(tag, cascades.get(2), probes);
                for (byte[] q : probes) {
                    int i = SegmentCursorTest.lowerBound(model, q);
                    boolean hit = i < model.size() && Arrays.equals(model.get(i).key(), q);
                    Lookup.Status want = !hit ? Lookup.Status.ABSENT : model.get(i).tombstone() ? Lookup.Status.TOMBSTONE : Lookup.Status.VALUE;
                    for (int b = 0; b < cascades.size(); b++) {
                        String what = tag + " budget " + budgets.get(b) + " key " + HexFormat.of().formatHex(q);
                        Cascade cascade = cascades.get(b);
                        Lookup got = cascade.get(q, q.length);
                        assertEquals(want, got.status(), what);
                        if (want == Lookup.Status.VALUE) {
                            assertArrayEquals(model.get(i).value(), got.valueBytes(), what);
                        }
                        assertEquals(i, cascade.lowerBound(q, q.length), what + " lower bound");
                    }
                }
            }
        }
    }

    /**
     * Entering the deepest decoded catalog gives, for every probe Q, the last sample ≤ Q and the
     * very context {@link QueryContext#boundary(byte[], int, long)} makes from that sample's key
     * (the entry may decide it from the samples' words alone), read here straight from the route.
     */
    private static void assertEntersAtTheSample(String tag, Cascade cascade, List<byte[]> probes) {
        RoutingCache r = cascade.routing();
        int level = r.jumpLevel(Cascade.ALL_HOLDERS);
        Catalog c = r.catalog(level);
        FcStream route = c.index.route(IndexReader.MAIN).stream();
        List<byte[]> samples = new ArrayList<>();
        List<Long> units = new ArrayList<>();
        KeyWalker w = route.keys();
        while (w.next()) {
            samples.add(Arrays.copyOf(w.keyBuffer(), route.framing().units().arrayBytes(w.keyUnits())));
            units.add(w.keyUnits());
        }
        Catalog head = cascade.head();
        for (byte[] q : probes) {
            String what = tag + " entering level " + level + " with key " + HexFormat.of().formatHex(q);
            QueryContext got = new QueryContext(head.index.corruption(), head.nativeReader.framing().units(), head.nativeReader.keyForm());
            QueryContext want = new QueryContext(head.index.corruption(), head.nativeReader.framing().units(), head.nativeReader.keyForm());
            got.start(q, q.length);
            want.start(q, q.length);
            long i = r.enter(level, got);
            int lo = 0;
            int hi = samples.size();
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (want.compareWith(samples.get(mid), 0, units.get(mid)) <= 0) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            assertEquals(lo - 1, i, what + ": the last sample ≤ Q");
            if (i >= 0) {
                want.boundary(samples.get((int) i), 0, units.get((int) i));
                assertEquals(want.common, got.common, what + ": bits in common");
                assertEquals(want.order, got.order, what + ": order");
                assertEquals(want.lengthKnown, got.lengthKnown, what + ": length known");
                assertEquals(want.length, got.length, what + ": length");
            }
        }
    }

    /**
     * The records of {@code model} (their values, in order) under keys of one length, 3 to 12
     * bytes: a counter with gaps (where lookups miss) or random keys.
     */
    private static List<Rec> sameLength(List<Rec> model, Random rnd) {
        int length = 3 + rnd.nextInt(10);
        java.util.TreeSet<byte[]> keys = new java.util.TreeSet<>(Arrays::compareUnsigned);
        boolean counter = rnd.nextBoolean();
        long step = 1 + rnd.nextInt(3);
        for (long i = 0; keys.size() < model.size(); i++) {
            byte[] k = new byte[length];
            if (counter) {
                long v = i * step;
                for (int b = 0; b < Math.min(8, length); b++) {
                    k[length - 1 - b] = (byte) (v >>> (8 * b));
                }
            } else {
                rnd.nextBytes(k);
            }
            keys.add(k);
        }
        List<Rec> out = new ArrayList<>();
        for (byte[] k : keys) {
            out.add(new Rec(k, model.get(out.size()).value()));
        }
        return out;
    }

    private static List<Rec> prefixed(byte[] prefix, List<Rec> model) {
        List<Rec> out = new ArrayList<>();
        for (Rec r : model) {
            byte[] k = Arrays.copyOf(prefix, prefix.length + r.key().length);
            System.arraycopy(r.key(), 0, k, prefix.length, r.key().length);
            out.add(new Rec(k, r.value()));
        }
        return out;
    }

    /** Every prefix of the shared prefix, and the prefix with one byte changed or added. */
    private static List<byte[]> aroundPrefix(byte[] prefix) {
        List<byte[]> q = new ArrayList<>();
        for (int n = 0; n <= prefix.length; n++) {
            q.add(Arrays.copyOf(prefix, n));
        }
        for (int i = 0; i < prefix.length; i++) {
            for (int delta : new int[] {-1, 1}) {
                byte[] b = prefix.clone();
                b[i] += (byte) delta;
                q.add(b);
                q.add(Arrays.copyOf(b, i + 1));
            }
        }
        for (int v : new int[] {0, 1, 0x7F, 0x80, 0xFF}) {
            byte[] b = Arrays.copyOf(prefix, prefix.length + 1);
            b[prefix.length] = (byte) v;
            q.add(b);
            q.add(Arrays.copyOf(b, b.length + 9));
        }
        return q;
    }

    /** A head that is not a routing catalog (it holds natives) gets no routing cache. */
    @ParameterizedTest
    @EnumSource(Profile.class)
    void aHeadWithNativesIsNotCached(Profile profile, Random rnd) throws Exception {
        Policy policy = profile.base();
        List<Rec> model = new RecordGen(rnd).records(10, RecordGen.Values.variable(policy.grammar()));
        try (OpenObjects store = new OpenObjects(dir, policy)) {
            ObjectId id = CascadeTest.write(store, model);
            Catalog head = store.prepareHead(store.index(id, null, null), null);
            assertEquals(head.nativeReader.recordCount(), model.size());
            assertNull(new Cascade(head).routing());
        }
    }
}

package dev.everett.segment;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.api.CatalogRef;
import dev.everett.api.Chain;
import dev.everett.api.CommonWidthRule;
import dev.everett.api.KeyRange;
import dev.everett.api.ObjectId;
import dev.everett.api.ObjectStore;
import dev.everett.api.ObjectStoreOptions;
import dev.everett.api.Policy;
import dev.everett.api.RunCursors;
import dev.everett.api.SeekCursor;
import dev.everett.api.SegmentEngine;
import dev.everett.api.SegmentWriter;
import dev.everett.api.ValueGrammar;
import dev.everett.segment.testing.Profile;
import dev.everett.segment.testing.Rec;
import dev.everett.segment.testing.RecordGen;
import dev.everett.segment.testing.Seeds;
import dev.everett.segment.testing.SegmentFixtures;
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
 * {@link Chain#runCursors}: every run of a chain positioned by one cascade descent lands where a
 * search of that run alone would (its sorted-list model), for seek, seekForPrev, seekToFirst and
 * seekToLast with and without bounds, under each {@link Profile}, then steps both ways.
 */
@ExtendWith(Seeds.class)
class RunCursorsTest {
    @TempDir
    Path dir;

    /** Model index of the first key ≥ q within [lo, hi) of the range, clamped to it. */
    private static int[] window(List<Rec> model, KeyRange range) {
        int from = range.lower() == null ? 0 : SegmentCursorTest.lowerBound(model, range.lower());
        int to = range.upper() == null ? model.size() : SegmentCursorTest.lowerBound(model, range.upper());
        return new int[] {from, Math.max(from, to)};
    }

    private static void assertAt(List<Rec> model, int i, int[] w, SeekCursor c, String what) {
        CursorAssertions.assertAt(model, i, i >= w[0] && i < w[1], c, what);
    }

    @ParameterizedTest
    @EnumSource(Profile.class)
    void everyRunLandsWhereItsOwnSearchWould(Profile profile, Random rnd) throws Exception {
        for (int round = 0; round < 8; round++) {
            long k = new int[] {3, 7, 15}[rnd.nextInt(3)];
            Policy policy = profile.withRandomBackspace(profile.base(), rnd).withGroupSize(k).withBlockWidth(1 + rnd.nextInt(20))
                    .withGrammar(ValueGrammar.OPTIONAL);
            long cache = new long[] {0, ObjectStoreOptions.DEFAULT_ROUTING_CACHE_BYTES, 16 + rnd.nextInt(400)}[round % 3];
            try (ObjectStore store = SegmentEngine.load().openObjectStore(dir.resolve("r" + round), policy,
                    ObjectStoreOptions.defaults().withRoutingCacheBytes(cache))) {
                int runs = 1 + rnd.nextInt(5);
                List<List<Rec>> models = new ArrayList<>(); // newest first
                CatalogRef below = null;
                for (int r = 0; r < runs; r++) {
                    // Oldest first, larger at the bottom, as a geometric history leaves them.
                    List<Rec> model = new RecordGen(rnd).records(rnd.nextInt(40 << (runs - r)), RecordGen.Values.variable(policy.grammar()));
                    ObjectId id = ObjectId.random();
                    try (SegmentWriter w = store.newSegment(id, CommonWidthRule.policy())) {
                        SegmentFixtures.putAll(w, model);
                        w.finish();
                    }
                    below = store.index(id, below, null);
                    models.addFirst(model);
                }
                Chain chain = store.openChain(store.prepareHead(below, null));
                String tag = profile + " round " + round + " K=" + k + " runs " + runs + " routing cache " + cache;
                int catalogs = 0;
                for (KeyRange all = KeyRange.all(); catalogs < 64; catalogs++) {
                    try (RunCursors ignored = chain.runCursors(catalogs + 1, all)) {
                        // counting the catalogs of the main route
                    } catch (IllegalArgumentException e) {
                        break;
                    }
                }
                assertTrue(catalogs >= runs, tag + ": the chain has at least one catalog per run");
                assertThrows(IllegalArgumentException.class, () -> chain.runCursors(0, KeyRange.all()));
                List<Rec> pool = new ArrayList<>();
                models.forEach(pool::addAll);
                for (int q = 0; q < 12; q++) {
                    KeyRange range = randomRange(rnd, pool);
                    try (RunCursors all = chain.runCursors(runs, range)) {
                        for (byte[] target : SegmentCursorTest.probes(rnd, pool.isEmpty() ? List.of() : List.of(pool.get(rnd.nextInt(pool.size()))), 1, 2)) {
                            int how = rnd.nextInt(4);
                            switch (how) {
                                case 0 -> all.seekToFirst();
                                case 1 -> all.seekToLast();
                                case 2 -> all.seek(target);
                                default -> all.seekForPrev(target);
                            }
                            for (int r = 0; r < runs; r++) {
                                List<Rec> model = models.get(r);
                                int[] w = window(model, range);
                                int i = switch (how) {
                                    case 0 -> w[0];
                                    case 1 -> w[1] - 1;
                                    case 2 -> Math.max(w[0], SegmentCursorTest.lowerBound(model, target));
                                    default -> {
                                        int b = SegmentCursorTest.lowerBound(model, target);
                                        boolean hit = b < model.size() && Arrays.equals(model.get(b).key(), target);
                                        yield Math.min(w[1] - 1, hit ? b : b - 1);
                                    }
                                };
                                SeekCursor c = all.run(r);
                                String what = tag + " run " + r + " positioning " + how + " to " + HexFormat.of().formatHex(target);
                                assertAt(model, i, w, c, what);
                                for (int step = 0; step < 4 && c.valid(); step++) {
                                    boolean ahead = rnd.nextBoolean();
                                    if (ahead) {
                                        c.next();
                                        i++;
                                    } else {
                                        c.prev();
                                        i--;
                                    }
                                    assertAt(model, i, w, c, what + " step " + step);
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    private static KeyRange randomRange(Random rnd, List<Rec> pool) {
        if (pool.isEmpty() || rnd.nextInt(3) == 0) {
            return KeyRange.all();
        }
        byte[] lo = rnd.nextBoolean() ? null : pool.get(rnd.nextInt(pool.size())).key();
        byte[] hi = rnd.nextBoolean() ? null : pool.get(rnd.nextInt(pool.size())).key();
        if (lo != null && hi != null && Arrays.compareUnsigned(lo, hi) > 0) {
            byte[] t = lo;
            lo = hi;
            hi = t;
        }
        return new KeyRange(lo, hi);
    }
}

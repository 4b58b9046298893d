package dev.everett.segment;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.everett.api.CommonWidthRule;
import dev.everett.api.IndexedSegment;
import dev.everett.api.KeyRange;
import dev.everett.api.Lookup;
import dev.everett.api.ObjectId;
import dev.everett.api.ObjectStore;
import dev.everett.api.ObjectStoreOptions;
import dev.everett.api.Policy;
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
 * The segment API (one native plus its routing chain) against a sorted-list model: get, seek,
 * seekForPrev, first/last, full forward and backward iteration and random walks, with and
 * without bounds, through the public SPI, under each {@link Profile} (byte-unit KV02, KV02 with
 * bit units, KV03).
 */
@ExtendWith(Seeds.class)
public class SegmentCursorTest {
    @TempDir
    Path dir;

    /** Index of the first model key ≥ q (or model.size()). */
    public static int lowerBound(List<Rec> model, byte[] q) {
        int lo = 0;
        int hi = model.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (Arrays.compareUnsigned(model.get(mid).key(), q) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private static void assertAt(List<Rec> model, int i, SeekCursor c, String what) {
        CursorAssertions.assertAt(model, i, i >= 0 && i < model.size(), c, what);
    }

    private static List<byte[]> probes(Random rnd, List<Rec> recs) {
        return probes(rnd, recs, 3, 20);
    }

    /**
     * Queries around a record list: the empty key; for one record in {@code oneIn} (at random) its
     * key, the key one byte longer, one shorter and with its last byte bumped; {@code random}
     * random keys of up to two bytes; and {@code FF FF FF}.
     */
    public static List<byte[]> probes(Random rnd, List<Rec> recs, int oneIn, int random) {
        List<byte[]> q = new ArrayList<>();
        q.add(new byte[0]);
        for (Rec r : recs) {
            if (rnd.nextInt(oneIn) == 0) {
                byte[] k = r.key();
                q.add(k);
                q.add(Arrays.copyOf(k, k.length + 1));
                if (k.length > 0) {
                    q.add(Arrays.copyOf(k, k.length - 1));
                    byte[] b = k.clone();
                    b[k.length - 1]++;
                    q.add(b);
                }
            }
        }
        for (int i = 0; i < random; i++) {
            byte[] r = new byte[rnd.nextInt(3)];
            rnd.nextBytes(r);
            q.add(r);
        }
        q.add(new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF});
        return q;
    }

    @ParameterizedTest
    @EnumSource(Profile.class)
    void cursorAndLookupsEqualTheModel(Profile profile, Random rnd) throws Exception {
        for (int round = 0; round < 16; round++) {
            Policy policy = profile.randomShape(rnd, 20)
                    .withGrammar(rnd.nextInt(4) == 0 ? ValueGrammar.RAW : ValueGrammar.OPTIONAL);
            List<Rec> model = new RecordGen(rnd).records(rnd.nextInt(round < 2 ? 3 : 1500),
                    RecordGen.Values.variable(policy.grammar()));
            // Seeks find their place through the routing cache when there is one: no cache, the
            // default (the deepest routing catalog decoded) and a small one (a shallower catalog).
            long cache = new long[] {0, ObjectStoreOptions.DEFAULT_ROUTING_CACHE_BYTES, 16 + rnd.nextInt(400)}[round % 3];
            try (ObjectStore store = SegmentEngine.load().openObjectStore(dir.resolve("r" + round), policy,
                    ObjectStoreOptions.defaults().withRoutingCacheBytes(cache))) {
                ObjectId id = ObjectId.random();
                try (SegmentWriter wr = store.newSegment(id, CommonWidthRule.policy())) {
                    SegmentFixtures.putAll(wr, model);
                    wr.finish();
                }
                IndexedSegment seg = store.indexSegment(id);
                seg.verify();
                IndexedSegment reopened = store.openSegment(seg.head());
                String tag = profile + " round " + round + " K=" + policy.groupSize() + " W=" + policy.blockWidth() + " " + policy.backspace() + " " + policy.grammar() + " n=" + model.size() + " routing cache " + cache;
                for (byte[] q : probes(rnd, model)) {
                    int i = lowerBound(model, q);
                    boolean hit = i < model.size() && Arrays.equals(model.get(i).key(), q);
                    Lookup got = reopened.get(q);
                    Lookup.Status want = !hit ? Lookup.Status.ABSENT : model.get(i).tombstone() ? Lookup.Status.TOMBSTONE : Lookup.Status.VALUE;
                    assertEquals(want, got.status(), tag + " get " + HexFormat.of().formatHex(q));
                    try (SeekCursor c = reopened.cursor()) {
                        c.seek(q);
                        assertAt(model, i, c, tag + " seek " + HexFormat.of().formatHex(q));
                        c.seekForPrev(q);
                        assertAt(model, hit ? i : i - 1, c, tag + " seekForPrev " + HexFormat.of().formatHex(q));
                    }
                }
                try (SeekCursor c = seg.cursor()) {
                    int i = 0;
                    for (c.seekToFirst(); c.valid(); c.next()) {
                        assertAt(model, i++, c, tag + " forward");
                    }
                    assertEquals(model.size(), i);
                    i = model.size() - 1;
                    for (c.seekToLast(); c.valid(); c.prev()) {
                        assertAt(model, i--, c, tag + " backward");
                    }
                    assertEquals(-1, i);
                }
                if (!model.isEmpty()) {
                    try (SeekCursor c = seg.cursor()) {
                        int i = rnd.nextInt(model.size());
                        c.seek(model.get(i).key());
                        for (int step = 0; step < 200 && c.valid(); step++) {
                            if (rnd.nextBoolean()) {
                                c.next();
                                i++;
                            } else {
                                c.prev();
                                i--;
                            }
                            assertAt(model, i, c, tag + " walk step " + step);
                            if (!c.valid()) {
                                break;
                            }
                        }
                    }
                    byte[] lo = model.get(rnd.nextInt(model.size())).key();
                    byte[] hi = model.get(rnd.nextInt(model.size())).key();
                    if (Arrays.compareUnsigned(lo, hi) > 0) {
                        byte[] t = lo;
                        lo = hi;
                        hi = t;
                    }
                    int from = lowerBound(model, lo);
                    int to = lowerBound(model, hi);
                    try (SeekCursor c = seg.cursor(new KeyRange(lo, hi))) {
                        int i = from;
                        for (c.seekToFirst(); c.valid(); c.next()) {
                            assertAt(model, i++, c, tag + " bounded forward");
                        }
                        assertEquals(to, i, tag + " bounded forward end");
                        i = to - 1;
                        for (c.seekToLast(); c.valid(); c.prev()) {
                            assertAt(model, i--, c, tag + " bounded backward");
                        }
                        assertEquals(from - 1, i, tag + " bounded backward end");
                        c.seek(new byte[0]);
                        assertAt(model, from < to ? from : -1, c, tag + " seek below range");
                        c.seekForPrev(new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF});
                        assertAt(model, from < to ? to - 1 : -1, c, tag + " seekForPrev above range");
                    }
                }
            }
        }
    }
}

package dev.everett.compaction;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.api.KeyRange;
import dev.everett.api.Lookup;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;

/** Compares a version's point lookups and merged cursors with a model of the visible keys. */
final class ReadChecks {
    private ReadChecks() {
    }

    /** Point lookups of every pool key (and a few never written) against {@code model} (null values are tombstones). */
    static void gets(Version v, NavigableMap<byte[], byte[]> model, List<byte[]> pool, Random r) {
        for (byte[] k : pool) {
            check(v, model, k);
        }
        for (int i = 0; i < 20; i++) {
            byte[] k = new byte[1 + r.nextInt(6)];
            r.nextBytes(k);
            check(v, model, k);
        }
    }

    private static void check(Version v, NavigableMap<byte[], byte[]> model, byte[] k) {
        byte[] expected = model.get(k);
        Lookup got = v.get(k);
        if (expected == null) {
            assertFalse(got.found(), () -> "get " + Fixtures.hex(k) + " should miss, got " + Fixtures.hex(got.valueBytes()));
        } else {
            assertTrue(got.found(), () -> "get " + Fixtures.hex(k) + " should find " + Fixtures.hex(expected) + ", got " + got.status());
            assertArrayEquals(expected, got.valueBytes(), () -> "get " + Fixtures.hex(k));
        }
    }

    /** Full scans both ways and random positioned walks, with random bounds. */
    static void cursors(Version v, NavigableMap<byte[], byte[]> model, List<byte[]> pool, Random r, int walks) {
        TreeMap<byte[], byte[]> visible = Fixtures.visible(model);
        try (TreeCursor c = v.cursor()) {
            TreeMap<byte[], byte[]> seen = Fixtures.newModel();
            for (c.seekToFirst(); c.valid(); c.next()) {
                seen.put(c.keyBytes(), c.valueBytes());
            }
            SegmentFilesTest.assertSameModel(visible, seen);
            int n = 0;
            byte[] last = null;
            for (c.seekToLast(); c.valid(); c.prev()) {
                byte[] k = c.keyBytes();
                if (last != null) {
                    assertTrue(Arrays.compareUnsigned(k, last) < 0, "backward scan descends");
                }
                last = k;
                n++;
            }
            assertEquals(visible.size(), n, "backward scan sees every key");
        }
        for (int w = 0; w < walks; w++) {
            byte[] lower = r.nextInt(3) == 0 ? null : pick(pool, r);
            byte[] upper = r.nextInt(3) == 0 ? null : pick(pool, r);
            if (lower != null && upper != null && Arrays.compareUnsigned(lower, upper) > 0) {
                byte[] t = lower;
                lower = upper;
                upper = t;
            }
            NavigableMap<byte[], byte[]> in = visible;
            if (lower != null) {
                in = in.tailMap(lower, true);
            }
            if (upper != null) {
                in = in.headMap(upper, false);
            }
            try (TreeCursor c = v.cursor(new KeyRange(lower, upper))) {
                byte[] target = r.nextInt(4) == 0 ? randomKey(r) : pick(pool, r);
                int how = r.nextInt(4);
                switch (how) {
                    case 0 -> c.seekToFirst();
                    case 1 -> c.seekToLast();
                    case 2 -> c.seek(target);
                    default -> c.seekForPrev(target);
                }
                byte[] at = positioned(in, how, target);
                for (int step = 0; ; step++) {
                    byte[] expected = at;
                    if (expected == null) {
                        assertFalse(c.valid(), () -> "cursor should be invalid, is on " + Fixtures.hex(c.keyBytes()));
                        break;
                    }
                    assertTrue(c.valid(), () -> "cursor should be on " + Fixtures.hex(expected));
                    assertArrayEquals(expected, c.keyBytes(), "cursor key");
                    assertArrayEquals(in.get(expected), c.valueBytes(), "cursor value");
                    if (step == 12) {
                        break;
                    }
                    if (r.nextBoolean()) {
                        c.next();
                        at = in.higherKey(expected);
                    } else {
                        c.prev();
                        at = in.lowerKey(expected);
                    }
                }
            }
        }
    }

    /**
     * Where positioning {@code how} (0 seekToFirst, 1 seekToLast, 2 seek, 3 seekForPrev) to
     * {@code target} lands in {@code in}: its key, or null.
     */
    static byte[] positioned(NavigableMap<byte[], byte[]> in, int how, byte[] target) {
        return switch (how) {
            case 0 -> in.isEmpty() ? null : in.firstKey();
            case 1 -> in.isEmpty() ? null : in.lastKey();
            case 2 -> in.ceilingKey(target);
            default -> in.floorKey(target);
        };
    }

    private static byte[] pick(List<byte[]> pool, Random r) {
        return pool.get(r.nextInt(pool.size()));
    }

    private static byte[] randomKey(Random r) {
        byte[] k = new byte[r.nextInt(5)];
        r.nextBytes(k);
        return k;
    }

    /** Every segment of the version passes its full check. */
    static void verifyAll(Version v, SegmentFiles files) throws java.io.IOException {
        for (int n = 0; n < v.levelCount(); n++) {
            for (SegmentMeta m : v.level(n)) {
                try (SegmentHandle h = files.open(m)) {
                    h.segment().verify();
                }
            }
        }
    }

}

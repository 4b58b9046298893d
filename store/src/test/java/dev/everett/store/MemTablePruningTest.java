package dev.everett.store;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The memtable keeps only the versions reads need: a version stays while it is the newest at
 * some read point (the published sequence number, a snapshot, an iterator) and goes once none is
 * left between it and the next newer version.
 */
class MemTablePruningTest {

    @TempDir
    Path dir;

    /**
     * One memtable written with random read points coming and going: every read at a live read
     * point sees exactly the model's answer, point reads at the published sequence number too, and
     * each key keeps no more versions than the read points that can tell them apart, plus one.
     */
    @Test
    void readsAtLiveReadPointsStayExactAndVersionsStayBounded() throws Exception {
        long seed = Seeds.seed();
        Seeds.run("MemTablePruningTest", seed, () -> {
            Random rnd = new Random(seed);
            MemTable mem = new MemTable(1);
            StoreModel model = new StoreModel();
            TreeMap<Long, Integer> live = new TreeMap<>();
            long published = 0;
            List<Long> staleReads = new ArrayList<>();
            for (int step = 0; step < 6000; step++) {
                int r = rnd.nextInt(100);
                if (r < 70) {
                    // A commit group of 1 to 3 writes, published after it is applied, then the
                    // chains it overwrote pruned (as the commit leader does).
                    int n = 1 + rnd.nextInt(3);
                    List<MemTable.Chain> overwritten = new ArrayList<>();
                    for (int i = 0; i < n; i++) {
                        byte[] k = {(byte) rnd.nextInt(24)};
                        MemTable.Chain c;
                        if (rnd.nextInt(5) == 0) {
                            model.delete(k);
                            c = mem.add(k, model.seq, WriteBatch.DELETE, null);
                        } else {
                            byte[] v = {(byte) rnd.nextInt(), (byte) step};
                            model.put(k, v);
                            c = mem.add(k, model.seq, WriteBatch.PUT, v);
                        }
                        if (c != null) {
                            overwritten.add(c);
                        }
                    }
                    if (rnd.nextInt(8) == 0) {
                        // An unregistered read from before the group, at the old published number:
                        // it may be told to retry, but never gets a wrong answer.
                        staleReads.add(published);
                    }
                    published = model.seq;
                    for (MemTable.Chain c : overwritten) {
                        mem.prune(c, points(published, live));
                    }
                    for (long at : staleReads) {
                        checkStaleGets(mem, model, at);
                    }
                    staleReads.clear();
                } else if (r < 80 && live.size() < 5) {
                    live.merge(published, 1, Integer::sum);
                } else if (r < 90 && !live.isEmpty()) {
                    long at = new ArrayList<>(live.keySet()).get(rnd.nextInt(live.size()));
                    if (live.merge(at, -1, Integer::sum) == 0) {
                        live.remove(at);
                    }
                    mem.sweep(points(published, live));
                } else {
                    List<Long> at = new ArrayList<>(live.keySet());
                    at.add(published);
                    for (long seq : at) {
                        checkAt(mem, model, seq);
                    }
                }
                for (int k = 0; k < 24; k++) {
                    assertTrue(versions(mem, new byte[] {(byte) k}) <= live.size() + 1,
                            "key " + k + " keeps " + versions(mem, new byte[] {(byte) k}) + " versions for " + live.size() + " read points");
                }
            }
            live.clear();
            // With no read point left but the published one, a sweep leaves one version per key.
            mem.sweep(points(published, live));
            assertEquals(mem.keyCount(), mem.versionCount());
            checkAt(mem, model, published);
        });
    }

    private static MemTable.ReadPoints points(long published, TreeMap<Long, Integer> live) {
        return new MemTable.ReadPoints(published, live.keySet().stream().mapToLong(Long::longValue).toArray());
    }

    /** Gets at an unregistered, stale sequence number: each answer is the model's or {@link MemTable#STALE}. */
    private static void checkStaleGets(MemTable mem, StoreModel model, long seq) {
        for (int k = 0; k < 24; k++) {
            byte[] key = {(byte) k};
            MemTable.Version v = mem.get(key, seq, true);
            if (v != MemTable.STALE) {
                assertVersion(model.get(key, seq), v, "stale get of key " + k + " at " + seq);
            }
        }
    }

    private static void assertVersion(byte[] expected, MemTable.Version v, String what) {
        if (expected == null) {
            assertTrue(v == null || v.isDeletion(), what + " should be absent");
        } else {
            assertTrue(v != null && !v.isDeletion(), what + " should be present");
            assertArrayEquals(expected, v.value, what);
        }
    }

    private static int versions(MemTable mem, byte[] key) {
        int n = 0;
        MemTable.Chain c = mem.ceiling(key, true);
        if (c != null) {
            if (Arrays.equals(c.key, key)) {
                for (MemTable.Version v = c.newest; v != null; v = v.older) {
                    n++;
                }
            }
        }
        return n;
    }

    /** Gets and a full cursor walk at {@code seq} against the model; the memtable is the only source. */
    private static void checkAt(MemTable mem, StoreModel model, long seq) {
        for (int k = 0; k < 24; k++) {
            byte[] key = {(byte) k};
            assertVersion(model.get(key, seq), mem.get(key, seq, false), "key " + k + " at " + seq);
        }
        NavigableMap<byte[], byte[]> view = model.view(seq);
        MemTableCursor c = new MemTableCursor(mem, seq);
        List<byte[]> seen = new ArrayList<>();
        for (c.seekToFirst(); c.valid(); c.next()) {
            if (!c.isTombstone()) {
                seen.add(c.key());
                assertArrayEquals(view.get(c.key()), c.value(), "cursor value at " + seq);
            }
        }
        assertEquals(view.size(), seen.size(), "cursor keys at " + seq);
    }

    /** Releasing the snapshot that kept the old versions drops them (and their bytes) from the memtable. */
    @Test
    void releasingSnapshotsDropsTheVersionsOnlyTheyNeeded() {
        try (EverettDB db = EverettDB.open(dir.resolve("db"))) {
            int n = 1000;
            for (int i = 0; i < n; i++) {
                db.put(key(i), value(i, 0));
            }
            assertEquals(n, db.memTableVersions());
            Snapshot s = db.getSnapshot();
            for (int round = 1; round <= 3; round++) {
                for (int i = 0; i < n; i++) {
                    db.put(key(i), value(i, round));
                }
            }
            // The snapshot's version and the newest; the versions between were pruned as they were superseded.
            assertEquals(2L * n, db.memTableVersions());
            Snapshot second = db.getSnapshot();
            db.put(key(7), value(7, 4));
            assertEquals(2L * n + 1, db.memTableVersions(), "the second snapshot keeps key 7's third-round version");
            db.releaseSnapshot(second);
            for (int i = 0; i < n; i += 37) {
                assertArrayEquals(value(i, 0), db.get(new ReadOptions().setSnapshot(s), key(i)));
                assertArrayEquals(value(i, 3), db.get(key(i)));
            }
            try (EverettIterator it = db.newIterator()) {
                db.put(key(5), value(5, 4));
                db.releaseSnapshot(s);
                // The iterator's read point still needs key 5's third-round version.
                assertEquals(n + 1L, db.memTableVersions());
                it.seek(key(5));
                assertArrayEquals(value(5, 3), it.value());
            }
            assertEquals(n + 1L, db.memTableVersions(), "an iterator's versions go when their key is next written");
            db.put(key(5), value(5, 5));
            db.put(key(7), value(7, 5));
            assertEquals(n, db.memTableVersions());
            assertArrayEquals(value(5, 5), db.get(key(5)));
            assertNull(db.get(key(n)));
        }
    }

    /** Bytes charged to the memtable (which decide when it is switched) fall with the versions dropped. */
    @Test
    void droppedVersionsStopCountingTowardsTheMemtableSize() {
        try (EverettDB db = EverettDB.open(dir.resolve("db"))) {
            for (int i = 0; i < 500; i++) {
                db.put(key(i), value(i, 0));
            }
            Snapshot s = db.getSnapshot();
            for (int round = 1; round < 4; round++) {
                for (int i = 0; i < 500; i++) {
                    db.put(key(i), value(i, round));
                }
            }
            String before = db.getProperty("everett.stats");
            assertTrue(before.contains("memtable: 500 keys, 1000 versions"), before);
            db.releaseSnapshot(s);
            String after = db.getProperty("everett.stats");
            assertTrue(after.contains("memtable: 500 keys, 500 versions"), after);
            assertFalse(bytes(after) >= bytes(before), before + "\n" + after);
        }
    }

    private static long bytes(String stats) {
        String line = stats.lines().filter(l -> l.startsWith("memtable: ")).findFirst().orElseThrow();
        String[] words = line.split("[ ,;]+");
        return Long.parseLong(words[5]);
    }

    private static byte[] key(int i) {
        return String.format("key%06d", i).getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] value(int i, int round) {
        return ("value-" + i + "-" + round).getBytes(StandardCharsets.US_ASCII);
    }
}

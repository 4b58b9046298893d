package dev.everett.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.compaction.Layout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NavigableMap;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Long iterator runs over many small segments against the model: the segment cursor's direct
 * key and value copies and the merged cursor's lone-child steps (a fully compacted store has one
 * valid level, so every step takes that path) across segment boundaries, then with level-0
 * segments and memtables interleaved over the compacted level, tombstones among them, at
 * snapshots, within bounds, and turning around mid-run.
 */
class SegmentScanTest {

    @TempDir(factory = MemoryTempDir.class)
    Path dir;

    @Test
    void partitionedRunsMatchTheModel() throws Exception {
        long seed = Seeds.seed();
        Seeds.run("SegmentScanTest.partitioned", seed, () -> run(new Random(seed), Layout.PARTITIONED, dir.resolve("p")));
    }

    @Test
    void wholeRunRunsMatchTheModel() throws Exception {
        long seed = Seeds.seed();
        Seeds.run("SegmentScanTest.wholeRun", seed, () -> run(new Random(seed), Layout.WHOLE_RUN, dir.resolve("w")));
    }

    private static void run(Random rnd, Layout layout, Path path) {
        DBOptions options = new DBOptions().setLevelLayout(layout).setTargetFileSizeBase(4_096 + rnd.nextInt(6_000))
                .setDisableAutoCompactions(true);
        StoreModel model = new StoreModel();
        int keySpace = 1_500 + rnd.nextInt(1_500);
        try (EverettDB db = EverettDB.open(path, options)) {
            for (int i = 0; i < 3_000; i++) {
                write(db, model, rnd, keySpace, 8);
            }
            db.compactRange();
            // Only the compacted level: every step is the lone child's.
            walks(db, model, model.seq, rnd, 30);
            List<long[]> snapshots = new ArrayList<>();
            List<Snapshot> held = new ArrayList<>();
            // Level-0 segments over the level, then a memtable over both; a snapshot per stage.
            for (int stage = 0; stage < 3; stage++) {
                held.add(db.getSnapshot());
                snapshots.add(new long[] {model.seq});
                int n = 20 + rnd.nextInt(200);
                for (int i = 0; i < n; i++) {
                    // Past the level's last key too: there a newer source steps alone, tombstones included.
                    write(db, model, rnd, keySpace + 400, 3);
                }
                if (stage < 2) {
                    db.flush();
                }
                walks(db, model, model.seq, rnd, 15);
            }
            for (int s = 0; s < held.size(); s++) {
                walks(db, model, snapshots.get(s)[0], rnd, 10, held.get(s));
            }
            for (Snapshot s : held) {
                db.releaseSnapshot(s);
            }
        }
    }

    /** A put, or one delete in {@code deleteOneIn} (a tombstone over the older level, or of a key absent everywhere). */
    private static void write(EverettDB db, StoreModel model, Random rnd, int keySpace, int deleteOneIn) {
        byte[] k = key(rnd.nextInt(keySpace));
        if (rnd.nextInt(deleteOneIn) == 0) {
            db.delete(k);
            model.delete(k);
        } else {
            byte[] v = new byte[rnd.nextInt(40)];
            rnd.nextBytes(v);
            db.put(k, v);
            model.put(k, v);
        }
    }

    private static byte[] key(int i) {
        // Variable lengths (a proper prefix sorts first) so that key copies of every length are checked.
        byte[] k = String.format("k%05d", i).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        return i % 7 == 0 ? Arrays.copyOf(k, k.length - 1) : k;
    }

    private static void walks(EverettDB db, StoreModel model, long at, Random rnd, int walks) {
        walks(db, model, at, rnd, walks, null);
    }

    /** Random positionings, each followed by a run of up to a few hundred steps that rarely turns around. */
    private static void walks(EverettDB db, StoreModel model, long at, Random rnd, int walks, Snapshot snapshot) {
        for (int w = 0; w < walks; w++) {
            byte[] lower = rnd.nextInt(3) == 0 ? key(rnd.nextInt(3_400)) : null;
            byte[] upper = rnd.nextInt(3) == 0 ? key(rnd.nextInt(3_400)) : null;
            ReadOptions ro = new ReadOptions().setIterateLowerBound(lower).setIterateUpperBound(upper);
            if (snapshot != null) {
                ro.setSnapshot(snapshot);
            }
            NavigableMap<byte[], byte[]> view = StoreModel.bounded(model.view(at), lower, upper);
            try (EverettIterator it = db.newIterator(ro)) {
                byte[] cur;
                int how = rnd.nextInt(4);
                byte[] target = key(rnd.nextInt(3_400));
                switch (how) {
                    case 0 -> {
                        it.seekToFirst();
                        cur = view.isEmpty() ? null : view.firstKey();
                    }
                    case 1 -> {
                        it.seekToLast();
                        cur = view.isEmpty() ? null : view.lastKey();
                    }
                    case 2 -> {
                        it.seek(target);
                        cur = view.ceilingKey(lower != null && Arrays.compareUnsigned(target, lower) < 0 ? lower : target);
                    }
                    default -> {
                        it.seekForPrev(target);
                        cur = view.floorKey(target);
                    }
                }
                boolean ahead = how != 1 && how != 3;
                int steps = rnd.nextInt(400);
                for (int step = 0; step < steps && cur != null; step++) {
                    assertTrue(it.isValid(), "iterator should be on " + new String(cur));
                    assertArrayEquals(cur, it.key(), "key");
                    assertArrayEquals(view.get(cur), it.value(), "value at " + new String(cur));
                    if (rnd.nextInt(40) == 0) {
                        ahead = !ahead;
                    }
                    if (ahead) {
                        it.next();
                        cur = view.higherKey(cur);
                    } else {
                        it.prev();
                        cur = view.lowerKey(cur);
                    }
                }
                if (cur == null) {
                    assertFalse(it.isValid(), "iterator should be exhausted");
                }
            }
        }
        // One full scan each way.
        NavigableMap<byte[], byte[]> view = model.view(at);
        ReadOptions ro = snapshot == null ? new ReadOptions() : new ReadOptions().setSnapshot(snapshot);
        try (EverettIterator it = db.newIterator(ro)) {
            int n = 0;
            for (it.seekToFirst(); it.isValid(); it.next()) {
                byte[] k = it.key();
                assertArrayEquals(view.get(k), it.value(), "forward scan value");
                n++;
            }
            assertEquals(view.size(), n, "forward scan length");
            n = 0;
            for (it.seekToLast(); it.isValid(); it.prev()) {
                n++;
            }
            assertEquals(view.size(), n, "backward scan length");
        }
    }
}

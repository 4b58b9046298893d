package dev.everett.store;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The merge of several memtables (newest wins, tombstones hide older tables) against a model, walking both ways. */
class MergingCursorTest {

    @TempDir
    Path dir;

    @Test
    void mergeOfMemTablesMatchesTheModel() throws Exception {
        long seed = Seeds.seed();
        try (EverettDB db = EverettDB.open(dir.resolve("db"))) {
            Seeds.run("MergingCursorTest", seed, () -> walk(db, seed));
        }
    }

    /** The iterator checks that its store is open, so a throwaway store stands behind the cursors. */
    private static void walk(EverettDB db, long seed) {
        Random rnd = new Random(seed);
        for (int round = 0; round < 40; round++) {
            int tables = 1 + rnd.nextInt(5);
            MemTable[] mems = new MemTable[tables]; // index 0 newest
            // Clustered rounds give each table a key range of its own, overlapping its neighbours'
            // a little: long runs from one source, as the merge's one-comparison steps meet them.
            boolean clustered = rnd.nextBoolean();
            int keySpace = clustered ? 40 * tables + 20 : 40;
            StoreModel model = new StoreModel();
            for (int t = tables - 1; t >= 0; t--) {
                mems[t] = new MemTable(tables - t);
                int n = rnd.nextInt(clustered ? 60 : 30);
                for (int i = 0; i < n; i++) {
                    byte[] k = {(byte) (clustered ? t * 40 + rnd.nextInt(60) : rnd.nextInt(40))};
                    if (rnd.nextInt(4) == 0) {
                        model.delete(k);
                        mems[t].add(k, model.seq, WriteBatch.DELETE, null);
                    } else {
                        byte[] v = {(byte) rnd.nextInt()};
                        model.put(k, v);
                        mems[t].add(k, model.seq, WriteBatch.PUT, v);
                    }
                }
            }
            long at = rnd.nextInt(5) == 0 ? Math.max(0, model.seq - rnd.nextInt(20)) : model.seq;
            NavigableMap<byte[], byte[]> view = model.view(at);
            SourceCursor[] sources = new SourceCursor[tables];
            for (int t = 0; t < tables; t++) {
                sources[t] = new MemTableCursor(mems[t], at);
            }
            EverettIterator it = new EverettIterator(db, new MergingCursor(sources), null, null, () -> { });
            List<byte[]> all = new ArrayList<>(view.keySet());
            for (int probe = 0; probe < 60; probe++) {
                byte[] target = {(byte) rnd.nextInt(keySpace + 2)};
                byte[] cur;
                if (rnd.nextBoolean()) {
                    it.seek(target);
                    cur = view.ceilingKey(target);
                } else {
                    it.seekForPrev(target);
                    cur = view.floorKey(target);
                }
                int steps = clustered ? 40 : 8;
                for (int step = 0; step < steps && cur != null; step++) {
                    assertTrue(it.isValid());
                    assertArrayEquals(cur, it.key());
                    assertArrayEquals(view.get(cur), it.value());
                    if (clustered ? rnd.nextInt(8) > 0 : rnd.nextBoolean()) {
                        it.next();
                        cur = view.higherKey(cur);
                    } else {
                        it.prev();
                        cur = view.lowerKey(cur);
                    }
                }
                if (cur == null) {
                    assertFalse(it.isValid());
                }
            }
            List<byte[]> scanned = new ArrayList<>();
            for (it.seekToLast(); it.isValid(); it.prev()) {
                scanned.add(0, it.key());
            }
            assertEquals(all.size(), scanned.size());
            for (int i = 0; i < all.size(); i++) {
                assertTrue(Arrays.equals(all.get(i), scanned.get(i)));
            }
            int i = 0;
            for (it.seekToFirst(); it.isValid(); it.next()) {
                assertArrayEquals(all.get(i), it.key());
                assertArrayEquals(view.get(all.get(i)), it.value());
                i++;
            }
            assertEquals(all.size(), i);
        }
    }
}

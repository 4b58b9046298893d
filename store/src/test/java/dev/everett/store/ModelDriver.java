package dev.everett.store;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.Set;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Drives a store and a {@link StoreModel} with the same random operations and checks every read
 * against the model: puts, deletes, single deletes (only on keys that keep the contract), batches,
 * gets at the latest state and at snapshots, iterators in both directions with random bounds,
 * and whatever maintenance (flush, compaction, reopen) the caller mixes in.
 */
final class ModelDriver {

    final Random rnd;
    final StoreModel model = new StoreModel();
    final Path dir;
    final Supplier<DBOptions> options;
    EverettDB db;
    private final List<byte[]> keys = new ArrayList<>();
    /** Snapshots alive, with the model sequence each was taken at. */
    private final Map<Snapshot, Long> snapshots = new HashMap<>();
    /** Keys on which single delete keeps RocksDB's contract: put exactly once since created or last single-deleted, never deleted. */
    private final Set<ByteKey> singlePut = new HashSet<>();
    private final Set<ByteKey> neverWritten = new HashSet<>();
    private final Set<ByteKey> mixed = new HashSet<>();

    record ByteKey(byte[] b) {
        @Override
        public boolean equals(Object o) {
            return o instanceof ByteKey k && Arrays.equals(b, k.b);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(b);
        }
    }

    ModelDriver(long seed, Path dir, Supplier<DBOptions> options, int keyCount) {
        this.rnd = new Random(seed);
        this.dir = dir;
        this.options = options;
        keys.add(new byte[0]);
        Set<ByteKey> seen = new HashSet<>();
        seen.add(new ByteKey(new byte[0]));
        while (keys.size() < keyCount) {
            byte[] k = new byte[1 + rnd.nextInt(rnd.nextInt(4) == 0 ? 40 : 6)];
            for (int i = 0; i < k.length; i++) {
                int r = rnd.nextInt(10);
                k[i] = (byte) (r == 0 ? 0 : r == 1 ? 0xFF : r == 2 ? 0x80 : 'a' + rnd.nextInt(4));
            }
            if (seen.add(new ByteKey(k))) {
                keys.add(k);
            }
        }
        for (byte[] k : keys) {
            neverWritten.add(new ByteKey(k));
        }
        db = EverettDB.open(dir, options.get());
    }

    byte[] randomKey() {
        return keys.get(rnd.nextInt(keys.size()));
    }

    byte[] randomValue() {
        byte[] v = new byte[rnd.nextInt(5) == 0 ? 0 : rnd.nextInt(rnd.nextInt(8) == 0 ? 300 : 12)];
        rnd.nextBytes(v);
        return v;
    }

    /** One random write (put, delete, single delete or batch) applied to both. */
    void randomWrite() {
        int r = rnd.nextInt(20);
        if (r < 11) {
            byte[] k = randomKey();
            byte[] v = randomValue();
            db.put(k, v);
            notePut(k, v);
        } else if (r < 14) {
            byte[] k = randomKey();
            db.delete(k);
            noteDelete(k);
        } else if (r < 16) {
            byte[] k = singleDeletableKey();
            if (k != null) {
                db.singleDelete(k);
                noteSingleDelete(k);
            }
        } else {
            try (WriteBatch b = new WriteBatch()) {
                List<Runnable> notes = new ArrayList<>();
                int n = 1 + rnd.nextInt(8);
                Set<ByteKey> touched = new HashSet<>();
                for (int i = 0; i < n; i++) {
                    byte[] k = randomKey();
                    if (rnd.nextInt(4) == 0) {
                        b.delete(k);
                        notes.add(() -> noteDelete(k));
                    } else if (rnd.nextInt(6) == 0 && singlePut.contains(new ByteKey(k)) && touched.add(new ByteKey(k))) {
                        b.singleDelete(k);
                        notes.add(() -> noteSingleDelete(k));
                    } else {
                        byte[] v = randomValue();
                        b.put(k, v);
                        touched.add(new ByteKey(k));
                        notes.add(() -> notePut(k, v));
                    }
                }
                db.write(new WriteOptions().setSync(rnd.nextInt(10) == 0), b);
                notes.forEach(Runnable::run);
            }
        }
    }

    private byte[] singleDeletableKey() {
        for (int tries = 0; tries < 8; tries++) {
            byte[] k = randomKey();
            if (singlePut.contains(new ByteKey(k))) {
                return k;
            }
        }
        return null;
    }

    private void notePut(byte[] k, byte[] v) {
        model.put(k, v);
        ByteKey bk = new ByteKey(k);
        if (neverWritten.remove(bk)) {
            singlePut.add(bk);
        } else {
            // A second put (or a put after a delete) breaks the single-delete contract for good.
            singlePut.remove(bk);
            mixed.add(bk);
        }
    }

    private void noteDelete(byte[] k) {
        model.delete(k);
        ByteKey bk = new ByteKey(k);
        singlePut.remove(bk);
        neverWritten.remove(bk);
        mixed.add(bk);
    }

    private void noteSingleDelete(byte[] k) {
        model.delete(k);
        ByteKey bk = new ByteKey(k);
        singlePut.remove(bk);
        // Under the contract the key may take exactly one put again.
        if (!mixed.contains(bk)) {
            neverWritten.add(bk);
        }
    }

    void takeSnapshot() {
        Snapshot s = db.getSnapshot();
        assertEquals(model.seq, s.getSequenceNumber(), "snapshot sequence");
        snapshots.put(s, model.seq);
    }

    void releaseRandomSnapshot() {
        if (!snapshots.isEmpty()) {
            Snapshot s = snapshots.keySet().iterator().next();
            if (rnd.nextBoolean()) {
                db.releaseSnapshot(s);
            } else {
                s.close();
            }
            snapshots.remove(s);
        }
    }

    int liveSnapshots() {
        return snapshots.size();
    }

    /** Gets of random keys at the latest state and at every live snapshot. */
    void checkGets(int n) {
        for (int i = 0; i < n; i++) {
            byte[] k = randomKey();
            assertBytes(model.get(k, model.seq), db.get(k), "get " + hex(k));
        }
        for (Map.Entry<Snapshot, Long> s : snapshots.entrySet()) {
            ReadOptions ro = new ReadOptions().setSnapshot(s.getKey());
            for (int i = 0; i < Math.max(1, n / 4); i++) {
                byte[] k = randomKey();
                assertBytes(model.get(k, s.getValue()), db.get(ro, k), "get " + hex(k) + " at snapshot " + s.getValue());
            }
        }
    }

    /** One iterator (latest or a random live snapshot) with random bounds, walked randomly in both directions. */
    void checkIterator() {
        ReadOptions ro = new ReadOptions();
        long at = model.seq;
        if (!snapshots.isEmpty() && rnd.nextBoolean()) {
            List<Snapshot> live = new ArrayList<>(snapshots.keySet());
            Snapshot s = live.get(rnd.nextInt(live.size()));
            ro.setSnapshot(s);
            at = snapshots.get(s);
        }
        byte[] lower = rnd.nextInt(3) == 0 ? randomKey() : null;
        byte[] upper = rnd.nextInt(3) == 0 ? randomKey() : null;
        ro.setIterateLowerBound(lower).setIterateUpperBound(upper);
        NavigableMap<byte[], byte[]> view = StoreModel.bounded(model.view(at), lower, upper);
        try (EverettIterator it = db.newIterator(ro)) {
            if (rnd.nextInt(4) == 0) {
                // A full scan each way.
                List<byte[]> forward = new ArrayList<>();
                for (it.seekToFirst(); it.isValid(); it.next()) {
                    forward.add(it.key());
                    assertBytes(view.get(forward.getLast()), it.value(), "value at " + hex(forward.getLast()));
                }
                assertEquals(view.size(), forward.size(), "forward scan length");
                int i = view.size();
                for (it.seekToLast(); it.isValid(); it.prev()) {
                    i--;
                    assertArrayEquals(forward.get(i), it.key(), "reverse scan");
                }
                assertEquals(0, i, "reverse scan length");
                return;
            }
            byte[] cur = null;
            byte[] target = randomKey();
            switch (rnd.nextInt(4)) {
                case 0 -> {
                    it.seek(target);
                    byte[] t = lower != null && Arrays.compareUnsigned(target, lower) < 0 ? lower : target;
                    cur = view.ceilingKey(t);
                }
                case 1 -> {
                    it.seekForPrev(target);
                    cur = view.floorKey(target);
                }
                case 2 -> {
                    it.seekToFirst();
                    cur = view.isEmpty() ? null : view.firstKey();
                }
                default -> {
                    it.seekToLast();
                    cur = view.isEmpty() ? null : view.lastKey();
                }
            }
            for (int step = 0; step < 12; step++) {
                if (cur == null) {
                    assertFalse(it.isValid(), "iterator should be exhausted");
                    return;
                }
                assertTrue(it.isValid(), "iterator should be on " + hex(cur));
                assertArrayEquals(cur, it.key(), "iterator key");
                assertArrayEquals(view.get(cur), it.value(), "iterator value at " + hex(cur));
                if (rnd.nextInt(3) == 0) {
                    it.prev();
                    cur = view.lowerKey(cur);
                } else {
                    it.next();
                    cur = view.higherKey(cur);
                }
            }
        }
    }

    /** Closes and reopens the store; snapshots do not survive, as in RocksDB. */
    void reopen() {
        snapshots.clear();
        db.close();
        db = EverettDB.open(dir, options.get());
        assertEquals(model.seq, db.getLatestSequenceNumber(), "sequence after reopen");
    }

    void close() {
        db.close();
    }

    static void assertBytes(byte[] expected, byte[] actual, String what) {
        if (expected == null) {
            assertNull(actual, what + ": expected absent, got " + (actual == null ? "" : hex(actual)));
        } else {
            assertArrayEquals(expected, actual, what);
        }
    }

    static String hex(byte[] b) {
        return b.length == 0 ? "(empty)" : HexFormat.of().formatHex(b);
    }
}

package dev.everett.store;

import dev.everett.compaction.Layout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Writers and readers at once. Each writer commits batches "put t/i, delete t/(i-WINDOW), set t/count = i",
 * so any consistent view shows, for every writer, exactly the keys t/(c-WINDOW+1) … t/c where c is its count.
 * Readers check that at snapshots taken mid-run (through gets and iterators); the end state is checked too.
 */
class ConcurrencyTest {

    static final int WRITERS = 4;
    static final int BATCHES = 1000;
    static final int WINDOW = 5;

    @TempDir
    Path dir;

    static byte[] key(int t, int i) {
        return String.format("w%d/%06d", t, i).getBytes(UTF_8);
    }

    static byte[] countKey(int t) {
        return ("w" + t + "/count").getBytes(UTF_8);
    }

    static byte[] intBytes(int i) {
        return ByteBuffer.allocate(4).putInt(i).array();
    }

    /** Small memtables and files, so flushes and compactions run under the readers and writers. */
    @ParameterizedTest
    @EnumSource(Layout.class)
    void writersAndReadersAgreeWithTheModel(Layout layout) throws Exception {
        long seed = Seeds.seed();
        Seeds.run("ConcurrencyTest " + layout, seed, () -> run(seed, layout));
    }

    private void run(long seed, Layout layout) throws Exception {
        DBOptions o = new DBOptions().setLevelLayout(layout).setWriteBufferSize(64 << 10).setTargetFileSizeBase(64 << 10)
                .setMaxBytesForLevelBase(256 << 10).setLevel0FileNumCompactionTrigger(2).setMaxBytesForLevelMultiplier(4);
        try (EverettDB db = EverettDB.open(dir.resolve("db"), o)) {
            AtomicBoolean done = new AtomicBoolean();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < WRITERS; t++) {
                int id = t;
                threads.add(Thread.ofPlatform().start(() -> {
                    try {
                        WriteOptions wo = new WriteOptions().setSync((seed + id) % 3 == 0);
                        for (int i = 0; i < BATCHES; i++) {
                            WriteBatch b = new WriteBatch().put(key(id, i), intBytes(i));
                            if (i >= WINDOW) {
                                b.delete(key(id, i - WINDOW));
                            }
                            b.put(countKey(id), intBytes(i));
                            db.write(i % 50 == 0 ? wo : new WriteOptions(), b);
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }));
            }
            List<Thread> readers = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                readers.add(Thread.ofPlatform().start(() -> {
                    try {
                        while (!done.get()) {
                            try (Snapshot s = db.getSnapshot()) {
                                checkConsistent(db, s);
                            }
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }));
            }
            for (Thread t : threads) {
                t.join();
            }
            done.set(true);
            for (Thread t : readers) {
                t.join();
            }
            if (failure.get() != null) {
                throw new AssertionError(failure.get());
            }
            assertEquals((long) WRITERS * (BATCHES * 3L - WINDOW), db.getLatestSequenceNumber());
            try (Snapshot s = db.getSnapshot()) {
                int[] counts = checkConsistent(db, s);
                for (int c : counts) {
                    assertEquals(BATCHES - 1, c);
                }
            }
            assertTrue(db.stats().flushes.sum() > 3, db.getProperty("everett.stats"));
        }
    }

    /** Checks one snapshot's view; returns each writer's count. */
    private static int[] checkConsistent(EverettDB db, Snapshot s) {
        ReadOptions ro = new ReadOptions().setSnapshot(s);
        int[] counts = new int[WRITERS];
        for (int t = 0; t < WRITERS; t++) {
            byte[] c = db.get(ro, countKey(t));
            int count = c == null ? -1 : ByteBuffer.wrap(c).getInt();
            counts[t] = count;
            if (count >= 0) {
                assertNotNull(db.get(ro, key(t, count)), "writer " + t + " count " + count + " but its key is missing");
            }
            assertNull(db.get(ro, key(t, count + 1)), "writer " + t + " count " + count + " but the next key is present");
            if (count >= WINDOW) {
                assertNull(db.get(ro, key(t, count - WINDOW)), "the batch's delete is visible with its put");
            }
            // The iterator over this writer's keys shows the same window.
            try (EverettIterator it = db.newIterator(new ReadOptions().setSnapshot(s)
                    .setIterateLowerBound(key(t, 0)).setIterateUpperBound(key(t, 999999)))) {
                int expected = Math.max(0, count - WINDOW + 1);
                for (it.seekToFirst(); it.isValid(); it.next()) {
                    assertArrayEquals(key(t, expected), it.key());
                    expected++;
                }
                assertEquals(count + 1, expected);
                int back = count;
                for (it.seekToLast(); it.isValid(); it.prev()) {
                    assertArrayEquals(key(t, back), it.key());
                    back--;
                }
                assertTrue(back == Math.max(-1, count - WINDOW), "reverse scan stops below the window");
            }
        }
        return counts;
    }
}

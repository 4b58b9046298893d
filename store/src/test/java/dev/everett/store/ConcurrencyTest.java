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

    /**
     * Writers queued behind a leader whose log force is slow commit as groups: each returns only
     * once its write is forced (the force that covers it has run), none waits forever, and after
     * a reopen every write is there. The first force blocks until every other writer has queued.
     */
    @org.junit.jupiter.api.Test
    void syncWritersQueuedBehindASlowForceCommitInGroups() throws Exception {
        int writers = 6;
        int each = 50;
        java.util.concurrent.CountDownLatch queued = new java.util.concurrent.CountDownLatch(writers - 1);
        AtomicBoolean blocked = new AtomicBoolean();
        java.util.concurrent.atomic.AtomicLong forcedBytes = new java.util.concurrent.atomic.AtomicLong();
        StoreFiles slow = new StoreFiles() {
            @Override
            public AppendFile create(Path file) throws java.io.IOException {
                AppendFile real = StoreFiles.DEFAULT.create(file);
                return new AppendFile() {
                    @Override
                    public void append(ByteBuffer buffer) throws java.io.IOException {
                        real.append(buffer);
                    }

                    @Override
                    public void force() throws java.io.IOException {
                        if (real.size() > WriteAheadLog.HEADER_BYTES && blocked.compareAndSet(false, true)) { // the first write's
                            try {
                                queued.await(10, java.util.concurrent.TimeUnit.SECONDS);
                                Thread.sleep(50); // the others are in the queue by now
                            } catch (InterruptedException e) {
                                throw new java.io.InterruptedIOException();
                            }
                        }
                        real.force();
                        forcedBytes.set(real.size());
                    }

                    @Override
                    public long size() throws java.io.IOException {
                        return real.size();
                    }

                    @Override
                    public void close() throws java.io.IOException {
                        real.close();
                    }
                };
            }

            @Override
            public byte[] readAll(Path file) throws java.io.IOException {
                return StoreFiles.DEFAULT.readAll(file);
            }

            @Override
            public void truncate(Path file, long length) throws java.io.IOException {
                StoreFiles.DEFAULT.truncate(file, length);
            }

            @Override
            public void delete(Path file) throws java.io.IOException {
                StoreFiles.DEFAULT.delete(file);
            }

            @Override
            public boolean exists(Path file) {
                return StoreFiles.DEFAULT.exists(file);
            }

            @Override
            public List<Path> list(Path d) throws java.io.IOException {
                return StoreFiles.DEFAULT.list(d);
            }

            @Override
            public void writeAtomically(Path file, byte[] content) throws java.io.IOException {
                StoreFiles.DEFAULT.writeAtomically(file, content);
            }
        };
        Path path = dir.resolve("group");
        WriteOptions sync = new WriteOptions().setSync(true);
        try (EverettDB db = EverettDB.open(path, new DBOptions().setStoreFiles(slow))) {
            AtomicReference<Throwable> failure = new AtomicReference<>();
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < writers; t++) {
                int id = t;
                threads.add(Thread.ofPlatform().start(() -> {
                    try {
                        for (int i = 0; i < each; i++) {
                            if (i == 0 && id > 0) {
                                queued.countDown();
                            }
                            long before = forcedBytes.get();
                            db.put(sync, key(id, i), intBytes(i));
                            assertTrue(forcedBytes.get() > before, "a sync write returned before a force covered it");
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }));
            }
            for (Thread t : threads) {
                t.join(30_000);
                assertTrue(!t.isAlive(), "a writer is still waiting");
            }
            if (failure.get() != null) {
                throw new AssertionError(failure.get());
            }
            long groups = db.stats().commitGroups.sum();
            assertEquals((long) writers * each, db.stats().writes.sum());
            assertTrue(groups < (long) writers * each, "writers queued behind the slow force were committed in groups: " + groups);
            assertEquals(groups, db.stats().walSyncs.sum(), "one force per group");
        }
        try (EverettDB db = EverettDB.open(path)) {
            for (int t = 0; t < writers; t++) {
                for (int i = 0; i < each; i++) {
                    assertArrayEquals(intBytes(i), db.get(key(t, i)));
                }
            }
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

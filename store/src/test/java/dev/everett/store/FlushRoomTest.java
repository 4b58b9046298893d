package dev.everett.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.compaction.ForwardingStorageFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A manual flush keeps to maxWriteBufferNumber, as writes do; the store's statistics answer while
 * a flush is held at its manifest edit.
 */
class FlushRoomTest {
    @TempDir
    Path dir;

    /** The tree's files, with manifest appends held while {@link #hold} is open. */
    private static final class HeldManifest extends ForwardingStorageFiles {
        final CountDownLatch hold = new CountDownLatch(1);
        final CountDownLatch reached = new CountDownLatch(1);
        volatile boolean armed;

        @Override
        public void append(Path file, byte[] bytes) throws IOException {
            if (armed && file.getFileName().toString().startsWith("MANIFEST")) {
                reached.countDown();
                try {
                    hold.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted", e);
                }
            }
            super.append(file, bytes);
        }
    }

    /** A thread running {@code db.flush()}, which leaves what it throws in {@code failure}. */
    private static Thread flushInBackground(EverettDB db, AtomicReference<Throwable> failure) {
        return Thread.ofPlatform().start(() -> {
            try {
                db.flush();
            } catch (Throwable t) {
                failure.set(t);
            }
        });
    }

    private static String immutables(EverettDB db) {
        return db.getProperty("everett.stats").lines().filter(l -> l.contains("immutable waiting for flush")).findFirst().orElseThrow();
    }

    /**
     * {@code getProperty("everett.stats")} reads the tree's live segment count, which the tree
     * kept under the monitor its edits hold while they append to the manifest: a report asked for
     * during a slow append waited for it.
     */
    @Test
    void statisticsAnswerWhileAFlushIsHeldAtItsManifestEdit() throws Exception {
        HeldManifest files = new HeldManifest();
        try (EverettDB db = EverettDB.open(dir.resolve("db"), new DBOptions().setTreeFiles(files))) {
            db.put(new byte[] {1}, new byte[] {1});
            db.flush();
            db.put(new byte[] {2}, new byte[] {2});
            files.armed = true;
            AtomicReference<Throwable> flush = new AtomicReference<>();
            Thread a = flushInBackground(db, flush);
            files.reached.await();
            try {
                CompletableFuture<String> stats = CompletableFuture.supplyAsync(() -> db.getProperty("everett.stats"));
                String report = stats.get(10, TimeUnit.SECONDS);
                assertTrue(report.contains("live segments 1\n") && report.contains("; 1 immutable waiting for flush"), report);
            } finally {
                files.armed = false;
                files.hold.countDown();
                a.join();
            }
            assertNull(flush.get());
            assertTrue(db.getProperty("everett.stats").contains("live segments 2\n"));
        }
    }

    /**
     * With two memtables allowed and one flush held before its manifest edit, a second flush()
     * must wait for it instead of switching out a second immutable memtable (three in all).
     */
    @Test
    void aSecondFlushWaitsForTheFirstInsteadOfExceedingTheMemtableLimit() throws Exception {
        HeldManifest files = new HeldManifest();
        try (EverettDB db = EverettDB.open(dir.resolve("db"), new DBOptions().setMaxWriteBufferNumber(2).setTreeFiles(files))) {
            db.put(new byte[] {1}, new byte[] {1});
            files.armed = true;
            AtomicReference<Throwable> first = new AtomicReference<>();
            Thread a = flushInBackground(db, first);
            files.reached.await();
            db.put(new byte[] {2}, new byte[] {2}); // fits the active memtable
            AtomicReference<Throwable> second = new AtomicReference<>();
            Thread b = flushInBackground(db, second);
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (db.stats().memtableStallNanos.sum() == 0 && b.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            long stalled = db.stats().memtableStallNanos.sum();
            boolean waiting = b.isAlive();
            files.armed = false;
            files.hold.countDown();
            a.join();
            b.join();
            assertNull(first.get());
            assertNull(second.get());
            assertTrue(stalled > 0 && waiting, "the second flush switched out a second immutable memtable instead of waiting for the first's flush");
            assertEquals(2, db.get(new byte[] {2})[0]);
            assertTrue(immutables(db).contains("; 0 immutable"), immutables(db));
        }
    }
}

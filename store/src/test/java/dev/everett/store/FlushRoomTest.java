package dev.everett.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.compaction.ForwardingStorageFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A manual flush keeps to maxWriteBufferNumber, as writes do. */
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

    private static String immutables(EverettDB db) {
        return db.getProperty("everett.stats").lines().filter(l -> l.contains("immutable waiting for flush")).findFirst().orElseThrow();
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
            Thread a = Thread.ofPlatform().start(() -> {
                try {
                    db.flush();
                } catch (Throwable t) {
                    first.set(t);
                }
            });
            files.reached.await();
            db.put(new byte[] {2}, new byte[] {2}); // fits the active memtable
            AtomicReference<Throwable> second = new AtomicReference<>();
            Thread b = Thread.ofPlatform().start(() -> {
                try {
                    db.flush();
                } catch (Throwable t) {
                    second.set(t);
                }
            });
            // (No getProperty while the tree's commit is held: its report reads the tree.)
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

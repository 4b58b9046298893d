package dev.everett.store;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Manual compactions: of a key range, and one that close interrupts. */
class CompactRangeTest {

    @TempDir
    Path dir;

    /**
     * Two level-0 segments with disjoint keys: compacting the range of one moves it alone to the
     * bottom; the reads answer as before, and the range's tombstone is gone with what it hid.
     */
    @Test
    void compactsTheRangeAndLeavesTheRest() {
        try (EverettDB db = EverettDB.open(dir.resolve("db"), new DBOptions().setDisableAutoCompactions(true))) {
            db.put(new byte[] {'a'}, new byte[] {1});
            db.put(new byte[] {'b'}, new byte[] {2});
            db.flush();
            db.delete(new byte[] {'a'});
            db.put(new byte[] {'c'}, new byte[] {3});
            db.flush();
            db.put(new byte[] {'x'}, new byte[] {24});
            db.put(new byte[] {'y'}, new byte[] {25});
            db.flush();
            assertEquals("3", db.getProperty("everett.num-files-at-level0"));
            db.compactRange(new byte[] {'z'}, new byte[] {'a'}); // inverted: nothing, as in RocksDB
            assertEquals("3", db.getProperty("everett.num-files-at-level0"));
            db.compactRange(new byte[] {'a'}, new byte[] {'b'});
            assertEquals("1", db.getProperty("everett.num-files-at-level0"), "the segment of x and y stays in level 0");
            assertEquals("1", db.getProperty("everett.num-files-at-level1"));
            assertEquals(null, db.get(new byte[] {'a'}));
            assertEquals(2, db.get(new byte[] {'b'})[0]);
            assertEquals(3, db.get(new byte[] {'c'})[0]);
            assertEquals(24, db.get(new byte[] {'x'})[0]);
            assertEquals("4", db.getProperty("everett.estimate-num-keys"), "b, c, x and y: the tombstone and the value it hid were dropped");
        }
    }

    /**
     * As RocksDB's, a manual compaction flushes first only if a memtable holds a key of its range:
     * one outside it stays in the memtable, and one inside it (a tombstone too) is flushed and
     * compacted with the range.
     */
    @Test
    void flushesOnlyWhenAMemTableHoldsAKeyOfTheRange() {
        try (EverettDB db = EverettDB.open(dir.resolve("db"), new DBOptions().setDisableAutoCompactions(true))) {
            db.put(new byte[] {'a'}, new byte[] {1});
            db.put(new byte[] {'b'}, new byte[] {2});
            db.flush();
            db.put(new byte[] {'x'}, new byte[] {24});
            db.compactRange(new byte[] {'a'}, new byte[] {'b'});
            assertEquals("0", db.getProperty("everett.num-files-at-level0"), "x stayed in the memtable: no flush");
            assertEquals("1", db.getProperty("everett.num-files-at-level1"));
            assertEquals(24, db.get(new byte[] {'x'})[0]);
            db.compactRange(new byte[] {'c'}, new byte[] {'w'});
            assertEquals("0", db.getProperty("everett.num-files-at-level0"), "nothing of [c, w] anywhere: no flush");
            db.delete(new byte[] {'b'});
            db.compactRange(new byte[] {'b'}, new byte[] {'b'});
            assertEquals("0", db.getProperty("everett.num-files-at-level0"), "the memtable held b's tombstone: flushed and compacted");
            assertEquals(null, db.get(new byte[] {'b'}));
            assertEquals(24, db.get(new byte[] {'x'})[0]);
            assertEquals("2", db.getProperty("everett.estimate-num-keys"), "a and x; b's tombstone was dropped with the value it hid");
        }
    }

    /**
     * Close cancels a running {@code compactRange()}; the caller must learn that its compaction
     * did not happen (RocksDB's fails with "shutdown in progress"), not see it return as if the
     * range were compacted. The rate limiter keeps the compaction running until close.
     */
    @Test
    void compactRangeCancelledByCloseFails() throws Exception {
        DBOptions options = new DBOptions().setWriteBufferSize(1 << 16).setDisableAutoCompactions(true)
                .setRateLimiterBytesPerSecond(1 << 10);
        EverettDB db = EverettDB.open(dir.resolve("db"), options);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread compactor;
        try {
            for (int run = 0; run < 2; run++) {
                for (int i = 0; i < 200; i++) {
                    db.put(new byte[] {(byte) i}, new byte[100]);
                }
                db.flush();
            }
            compactor = Thread.ofPlatform().start(() -> {
                try {
                    db.compactRange();
                } catch (Throwable e) {
                    failure.set(e);
                }
            });
            Thread.sleep(200); // about 40 KB of input at 1 KiB/s: the compaction runs for half a minute
            assertTrue(compactor.isAlive(), "the compaction ended before close: " + failure.get());
        } finally {
            db.close();
        }
        // close() waits for the cancelled job: nothing of it may run on against a closed tree.
        assertEquals(0, db.runningCompactions(), "close() returned while compactRange's job still ran");
        compactor.join(10_000);
        assertEquals(false, compactor.isAlive(), "compactRange still running after close");
        assertNotNull(failure.get(), "compactRange returned normally although close cancelled it");
        assertInstanceOf(IllegalStateException.class, failure.get());
        assertTrue(failure.get().getMessage().contains("closed"), failure.get().getMessage());
    }
}

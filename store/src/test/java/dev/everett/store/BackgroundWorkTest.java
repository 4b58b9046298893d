package dev.everett.store;

import dev.everett.compaction.Layout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Write stalls, rate-limited compaction, snapshots pinning files across compactions, close during compaction. */
class BackgroundWorkTest {

    @TempDir
    Path dir;

    static byte[] b(String s) {
        return s.getBytes(UTF_8);
    }

    private static void fill(EverettDB db, int from, int to) {
        for (int i = from; i < to; i++) {
            db.put(b(String.format("key%06d", i)), b("value-" + i + "-".repeat(40)));
        }
    }

    @Test
    void writesSlowDownAndStopWhenLevelZeroGrows() {
        // Slow compactions (rate-limited) behind fast flushes of tiny memtables.
        DBOptions o = new DBOptions().setWriteBufferSize(8 << 10).setLevel0FileNumCompactionTrigger(2)
                .setLevel0SlowdownWritesTrigger(2).setLevel0StopWritesTrigger(3).setRateLimiterBytesPerSecond(1 << 20);
        try (EverettDB db = EverettDB.open(dir.resolve("db"), o)) {
            fill(db, 0, 600);
            String stats = db.getProperty("everett.stats");
            assertTrue(db.stats().slowdowns.sum() > 0, stats);
            assertTrue(db.stats().stopNanos.sum() > 0, stats);
            assertTrue(Integer.parseInt(db.getProperty("everett.num-files-at-level0")) <= 3, stats);
            for (int i = 0; i < 600; i += 37) {
                assertArrayEquals(b("value-" + i + "-".repeat(40)), db.get(b(String.format("key%06d", i))));
            }
        }
    }

    @Test
    void writesWaitForFlushesWhenEveryMemtableIsFull() {
        DBOptions o = new DBOptions().setWriteBufferSize(4096).setMaxWriteBufferNumber(2);
        try (EverettDB db = EverettDB.open(dir.resolve("db"), o)) {
            fill(db, 0, 400);
            assertTrue(db.stats().memtableStallNanos.sum() > 0, db.getProperty("everett.stats"));
            assertTrue(db.stats().flushes.sum() > 5, db.getProperty("everett.stats"));
        }
    }

    @Test
    void compactionReadsAreRateLimited() {
        long rate = 200 << 10; // bytes per second
        DBOptions o = new DBOptions().setRateLimiterBytesPerSecond(rate).setDisableAutoCompactions(true);
        try (EverettDB db = EverettDB.open(dir.resolve("db"), o)) {
            for (int r = 0; r < 3; r++) {
                fill(db, r * 2000, r * 2000 + 2000);
                db.flush();
            }
            long bytes = Long.parseLong(db.getProperty("everett.total-segment-bytes"));
            long t = System.nanoTime();
            db.compactRange();
            double seconds = (System.nanoTime() - t) / 1e9;
            // Guava's limiter lets the first step (32 KiB of input) through at once; the rest wait their turn.
            double floor = (bytes - 2.0 * (32 << 10)) / rate - 0.5;
            assertTrue(seconds >= floor, "compacted " + bytes + " bytes in " + seconds + " s at " + rate + " B/s");
            assertEquals(1, db.segmentCounts()[0], "one segment after the full compaction");
        }
    }

    @Test
    void aSnapshotPinsTheFilesItReadsAcrossCompactions() {
        for (Layout layout : Layout.values()) {
            DBOptions o = new DBOptions().setLevelLayout(layout).setDisableAutoCompactions(true);
            try (EverettDB db = EverettDB.open(dir.resolve("pin-" + layout), o)) {
                fill(db, 0, 500);
                db.flush();
                Snapshot s = db.getSnapshot();
                for (int i = 0; i < 500; i += 2) {
                    db.delete(b(String.format("key%06d", i)));
                }
                db.put(b("new"), b("x"));
                db.compactRange();
                int[] counts = db.segmentCounts();
                assertTrue(counts[1] > counts[0], layout + ": the snapshot's segments are kept beside the new ones");
                ReadOptions at = new ReadOptions().setSnapshot(s);
                assertArrayEquals(b("value-0" + "-".repeat(40)), db.get(at, b("key000000")));
                assertNull(db.get(at, b("new")));
                int n = 0;
                try (EverettIterator it = db.newIterator(at)) {
                    for (it.seekToFirst(); it.isValid(); it.next()) {
                        n++;
                    }
                }
                assertEquals(500, n);
                assertNull(db.get(b("key000000")));
                db.releaseSnapshot(s);
                counts = db.segmentCounts();
                assertEquals(counts[0], counts[1], layout + ": released, the old segments go");
            }
        }
    }

    @Test
    void closeCancelsARunningCompactionAndLeavesNoOrphans() throws Exception {
        DBOptions o = new DBOptions().setRateLimiterBytesPerSecond(64 << 10).setLevel0FileNumCompactionTrigger(2);
        Path db = dir.resolve("db");
        EverettDB d = EverettDB.open(db, o);
        for (int r = 0; r < 3; r++) {
            fill(d, r * 1500, r * 1500 + 1500);
            d.flush();
        }
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (d.runningCompactions() == 0 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertEquals(1, d.runningCompactions(), "a rate-limited compaction is under way");
        long t = System.nanoTime();
        d.close();
        assertTrue(System.nanoTime() - t < 3_000_000_000L, "close did not wait for the slow compaction to finish");
        assertEquals(1, d.stats().compactionsCancelled.sum());
        RecoveryTest.assertNoOrphanSegments(db, o);
        try (EverettDB again = EverettDB.open(db, o)) {
            for (int i = 0; i < 4500; i += 101) {
                assertArrayEquals(b("value-" + i + "-".repeat(40)), again.get(b(String.format("key%06d", i))));
            }
        }
    }
}

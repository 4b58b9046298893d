package dev.everett.store;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/** Closing while a writer is stalled. */
class CloseRaceTest {

    @TempDir
    Path dir;

    /**
     * Close wakes a writer stalled by back-pressure with an IllegalStateException; that must not
     * count as a failure of the store: close still forces the log, so the writes acknowledged
     * before it (here one not synced) are durable once it returns, as they are after any close.
     * Level 0 is held at the stop trigger by a compaction the rate limiter keeps from finishing.
     */
    @Test
    void closingWhileAWriterIsStalledStillForcesTheLog() throws Exception {
        ForceTrackingFiles counting = new ForceTrackingFiles(StoreFiles.DEFAULT);
        DBOptions options = new DBOptions().setStoreFiles(counting).setWriteBufferSize(4096)
                .setLevel0FileNumCompactionTrigger(2).setLevel0SlowdownWritesTrigger(2).setLevel0StopWritesTrigger(2)
                .setRateLimiterBytesPerSecond(20); // the compaction of level 0 never finishes
        EverettDB db = EverettDB.open(dir.resolve("db"), options);
        Path lastLog;
        AtomicReference<Throwable> stalled = new AtomicReference<>();
        Thread writer;
        try {
            db.put(new byte[] {1}, new byte[5000]);
            db.flush(); // level 0: one segment
            db.put(new byte[] {2}, new byte[5000]); // the memtable is full
            db.put(new byte[] {3}, new byte[] {3}); // switches (level 0 is below the stop trigger): acknowledged, in the new log, not synced
            lastLog = db.directory().resolve(db.getProperty("everett.stats").lines()
                    .filter(l -> l.startsWith("write-ahead log: ")).findFirst().orElseThrow().substring(17).split(",")[0]);
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (!db.getProperty("everett.num-files-at-level0").equals("2")) { // the switched memtable's flush
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("the flush did not land");
                }
                Thread.sleep(1);
            }
            writer = Thread.ofPlatform().start(() -> {
                try {
                    db.put(new byte[] {4}, new byte[] {4}); // stalls: level 0 at the stop trigger
                } catch (Throwable e) {
                    stalled.set(e);
                }
            });
            while (db.stats().stopNanos.sum() == 0) { // it has waited at least once
                Thread.sleep(1);
            }
        } catch (Throwable e) {
            db.close();
            throw e;
        }
        db.close();
        writer.join();
        assertInstanceOf(IllegalStateException.class, stalled.get());
        long[] state = counting.state(lastLog);
        assertNotNull(state, "no log " + lastLog);
        assertEquals(state[0], state[1], "close left the acknowledged writes in " + lastLog.getFileName() + " unforced");
    }
}

package dev.everett.store;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What close forces, and when. */
class CloseForcesLogTest {

    @TempDir
    Path dir;

    private static Path activeLog(EverettDB db) {
        return db.directory().resolve(db.getProperty("everett.stats").lines()
                .filter(l -> l.startsWith("write-ahead log: ")).findFirst().orElseThrow().substring(17).split(",")[0]);
    }

    /**
     * A failed flush (or compaction) makes the store refuse writes, but the log is sound: close
     * must still force the acknowledged writes in it, as it does after any other close.
     */
    @Test
    void aFailedFlushStillLeavesTheLogForcedAtClose() throws Exception {
        ForceTrackingFiles files = new ForceTrackingFiles();
        CrashingTreeFiles tree = new CrashingTreeFiles();
        EverettDB db = EverettDB.open(dir.resolve("db"), new DBOptions().setStoreFiles(files).setTreeFiles(tree).setWriteBufferSize(4096));
        Path log;
        try {
            tree.arm(); // the next manifest edit fails: the flush fails
            db.put(new byte[] {1}, new byte[5000]); // the memtable is full
            db.put(new byte[] {2}, new byte[] {2}); // switches: acknowledged, in the new log, not synced
            log = activeLog(db);
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (!db.getProperty("everett.stats").contains("failed: ")) {
                assertTrue(System.nanoTime() < deadline, "the flush did not fail");
                Thread.sleep(1);
            }
            assertThrows(IllegalStateException.class, () -> db.put(new byte[] {3}, new byte[] {3}));
        } finally {
            try {
                db.close();
            } catch (RuntimeException expected) {
                // closing the failed tree may fail too
            }
        }
        long[] state = files.state(log);
        assertNotNull(state, "no log " + log);
        assertEquals(state[0], state[1], "close left the acknowledged writes in " + log.getFileName() + " unforced");
    }
}

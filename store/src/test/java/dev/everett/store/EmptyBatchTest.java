package dev.everett.store;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** An empty batch, as RocksDB writes it. */
class EmptyBatchTest {

    @TempDir
    Path dir;

    /**
     * RocksDB writes an empty batch to the log like any other, so a synced empty batch forces the
     * log and makes every write acknowledged before it durable (an idiom: an "fsync" of the store).
     */
    @Test
    void aSyncedEmptyBatchForcesTheWritesBeforeIt() {
        ForceTrackingFiles files = new ForceTrackingFiles();
        try (EverettDB db = EverettDB.open(dir.resolve("db"), new DBOptions().setStoreFiles(files))) {
            db.put(new byte[] {1}, new byte[] {1}); // acknowledged, not synced
            Path log = files.logs.keySet().iterator().next();
            long sequence = db.getLatestSequenceNumber();
            db.write(new WriteOptions().setSync(true), new WriteBatch());
            long[] state = files.state(log);
            assertEquals(state[0], state[1], "the synced empty batch left the write before it unforced");
            assertEquals(sequence, db.getLatestSequenceNumber(), "an empty batch takes no sequence number");
            long forces = state[2];
            db.write(new WriteOptions(), new WriteBatch());
            assertEquals(forces, state[2], "an empty batch without sync forces nothing");
        }
        try (EverettDB db = EverettDB.open(dir.resolve("db"))) {
            assertEquals(1, db.getLatestSequenceNumber());
        }
    }
}

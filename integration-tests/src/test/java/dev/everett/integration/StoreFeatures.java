package dev.everett.integration;

import dev.everett.store.EverettDB;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What the store under test can do yet, asked of the store itself, so the cases that need a
 * capability run as soon as the store has it (and are reported as skipped, with the reason, until
 * then) instead of being edited in later.
 */
final class StoreFeatures {
    private StoreFeatures() {}

    /** Whether {@code flush()} writes the memtable out as segments ({@code everett.total-segment-bytes} grows). */
    static boolean flushWritesSegments(Path work) throws Exception {
        Path dir = Files.createTempDirectory(work, "probe");
        try (EverettDB db = EverettDB.open(dir)) {
            db.put(new byte[] {1}, new byte[] {2});
            db.flush();
            return Long.parseLong(db.getProperty("everett.total-segment-bytes").strip()) > 0;
        } finally {
            Equivalence.deleteTree(dir);
        }
    }
}

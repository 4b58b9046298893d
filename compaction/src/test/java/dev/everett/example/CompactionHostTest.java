package dev.everett.example;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the minimal host of docs/spi.md through the public API only (it lives outside the module's package). */
class CompactionHostTest {
    @Test
    void theDocumentedHostRunsAndPrintsWhatTheDocSays(@TempDir Path dir) throws Exception {
        assertEquals("""
                plan: level 0 holds 2 segments (trigger 2)
                outputs: 1
                levels: L0=0 L1=1 host state wal-2
                apple -> VALUE red
                banana -> VALUE green
                cherry -> ABSENT
                durian -> ABSENT
                scan banana
                seekForPrev(c) banana
                """, CompactionHost.run(dir));
    }
}

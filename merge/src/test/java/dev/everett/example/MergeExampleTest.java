package dev.everett.example;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the merge example of docs/spi.md through the public SPI only (it lives outside both engines' packages). */
class MergeExampleTest {
    @Test
    void theDocumentedMergeRunsAndPrintsWhatTheDocSays(@TempDir Path root) throws Exception {
        assertEquals("""
                merged 4 records
                apple -> VALUE red
                banana -> VALUE green
                cherry -> VALUE black
                durian -> VALUE spiky
                """, MergeExample.run(root));
    }
}

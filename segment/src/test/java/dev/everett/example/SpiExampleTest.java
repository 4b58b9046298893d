package dev.everett.example;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the example of docs/spi.md through the public SPI only (it lives outside the engine's package). */
class SpiExampleTest {
    @Test
    void theDocumentedExampleRunsAndPrintsWhatTheDocSays(@TempDir Path root) throws Exception {
        assertEquals("""
                apple -> VALUE red
                banana -> VALUE green
                cherry -> TOMBSTONE
                durian -> ABSENT
                scan banana
                scan cherry
                seekForPrev(c) banana
                """, SpiExample.run(root));
    }
}

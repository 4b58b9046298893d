package dev.everett.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SizesTest {
    @TempDir
    Path dir;

    @Test
    void aHardLinkedFileCountsOnce() throws Exception {
        // A whole-run tree links each native into its chain directory: the store holds the bytes once.
        Path segment = Files.write(dir.resolve("segment.kv"), new byte[1000]);
        Files.createDirectories(dir.resolve("chain"));
        Files.createLink(dir.resolve("chain/segment.kv"), segment);
        Files.write(dir.resolve("chain/segment.index"), new byte[24]);
        assertEquals(1024, Sizes.treeBytes(dir));
        assertEquals(24, Sizes.chainBytes(dir.resolve("chain"), 1000));
    }

    @Test
    void aMissingTreeHasNoBytes() throws Exception {
        assertEquals(0, Sizes.treeBytes(dir.resolve("absent")));
    }
}

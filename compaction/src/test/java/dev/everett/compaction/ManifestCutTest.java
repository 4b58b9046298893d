package dev.everett.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A manifest cut inside its last record, a compaction's edit whose inputs were deleted after it
 * was durable: the replay takes the cut for a torn tail, and the version before it names
 * segments that are gone. Open must say why, at the cut, not only that a segment is missing.
 */
class ManifestCutTest {
    @TempDir(factory = MemoryTempDir.class)
    Path dir;

    private static Path currentManifest(Path root) throws IOException {
        Path current = root.resolve(Manifest.CURRENT);
        return root.resolve(Manifest.readCurrent(current, Files.readAllBytes(current)));
    }

    @Test
    void aCutThatDropsACommittedCompactionNamesTheTornRecord() throws IOException {
        Path root = dir.resolve("tree");
        TreeOptions options = TreeOptions.partitioned();
        long lastRecord;
        Path manifest;
        try (LsmTree tree = LsmTree.open(root, options)) {
            tree.flush(SortedEntries.of(Fixtures.run(0).entrySet().iterator()), null);
            tree.flush(SortedEntries.of(Fixtures.run(1).entrySet().iterator()), null);
            manifest = currentManifest(root);
            lastRecord = Files.size(manifest); // the compaction's edit starts here
            List<SegmentMeta> inputs;
            try (Version v = tree.current()) {
                inputs = v.level(0).reversed();
            }
            try (CompactionJob job = tree.compact(new CompactionPlan(inputs, 1, true, 1, "level 0 into level 1"))) {
                while (!job.done()) {
                    job.step(64);
                }
                job.finish();
            }
            assertEquals(manifest, currentManifest(root), "no rollover in between");
        }
        byte[] b = Files.readAllBytes(manifest);
        Files.write(manifest, Arrays.copyOf(b, b.length - 3));
        CorruptManifestException e = assertThrows(CorruptManifestException.class, () -> LsmTree.open(root, options).close());
        assertEquals(manifest, e.file());
        assertEquals(lastRecord, e.offset(), e.getMessage());
        assertTrue(e.getMessage().contains("which is missing") && e.getMessage().contains("lost a committed edit"), e.getMessage());
    }
}

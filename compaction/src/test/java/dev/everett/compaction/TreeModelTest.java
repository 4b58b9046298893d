package dev.everett.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Flushes, compactions and reads of whole trees in both layouts against a TreeMap model, across reopen. */
class TreeModelTest {
    @TempDir
    Path dir;

    static TreeOptions partitioned(Random r) {
        return TreeOptions.partitioned()
                .withPicker(new LeveledPicker(4, 2 + r.nextInt(2), 600 + r.nextInt(2000), 2 + r.nextInt(3)))
                .withTargetFileBytes(r.nextInt(4) == 0 ? 1 : 100 + r.nextInt(1500));
    }

    static TreeOptions wholeRun(Random r) {
        return TreeOptions.wholeRun().withPicker(new GeometricPicker(1.5 + r.nextInt(3)));
    }

    @Test
    void partitionedTreeMatchesTheModel() {
        Fixtures.seeded("partitionedTreeMatchesTheModel", r -> run(r, partitioned(r), dir.resolve("p")));
    }

    @Test
    void wholeRunTreeMatchesTheModel() {
        Fixtures.seeded("wholeRunTreeMatchesTheModel", r -> run(r, wholeRun(r), dir.resolve("w")));
    }

    private static void run(Random r, TreeOptions options, Path path) {
        try {
            List<byte[]> pool = Fixtures.keyPool(r, 40 + r.nextInt(200));
            TreeMap<byte[], byte[]> model = Fixtures.newModel();
            int compactions = 0;
            try (LsmTree tree = LsmTree.open(path, options)) {
                for (int round = 0; round < 14; round++) {
                    TreeMap<byte[], byte[]> run = Fixtures.run(r, pool, 1 + r.nextInt(60), 3);
                    tree.flush(SortedEntries.of(run.entrySet().iterator()), new byte[] {(byte) round});
                    Fixtures.apply(model, run);
                    for (Optional<CompactionPlan> plan = tree.pickCompaction(); plan.isPresent(); plan = tree.pickCompaction()) {
                        try (CompactionJob job = tree.compact(plan.get())) {
                            while (!job.done()) {
                                job.step(1 + r.nextInt(40));
                            }
                            job.finish();
                        }
                        compactions++;
                        assertTrue(compactions < 500, "the picker keeps choosing compactions");
                    }
                    try (Version v = tree.current()) {
                        assertEquals(round, v.hostState()[0]);
                        ReadChecks.gets(v, model, pool, r);
                        if (round % 3 == 0) {
                            ReadChecks.cursors(v, model, pool, r, 20);
                        }
                    }
                }
                try (Version v = tree.current()) {
                    ReadChecks.verifyAll(v, ((EverettTree) tree).segments());
                    assertEquals(segmentsIn(v), tree.liveSegmentCount(), "only the current version's segments remain");
                }
            }
            assertTrue(compactions > 0, "the test compacted");
            try (LsmTree tree = LsmTree.open(path, options); Version v = tree.current()) {
                ReadChecks.gets(v, model, pool, r);
                ReadChecks.cursors(v, model, pool, r, 20);
                assertEquals(segmentsIn(v), ((EverettTree) tree).segments().list().size(), "no unnamed segment directory");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static int segmentsIn(Version v) {
        int n = 0;
        for (int i = 0; i < v.levelCount(); i++) {
            n += v.level(i).size();
        }
        return n;
    }
}

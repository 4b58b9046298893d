package dev.everett.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.api.ObjectId;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ManualCompactions}: range compactions between flushes and picked compactions, in both
 * layouts, against a TreeMap model. Each plan must be one the tree accepts; afterwards reads answer
 * as before, every segment left out is still there, no segment above the bottom holds a key of the
 * range, and planning the same range again finds nothing to do.
 */
class ManualCompactionsTest {
    @TempDir(factory = MemoryTempDir.class)
    Path dir;

    @Test
    void partitionedRangeCompactions() {
        Fixtures.seeded("partitionedRangeCompactions", r -> run(r, TreeModelTest.partitioned(r), dir.resolve("p")));
    }

    @Test
    void wholeRunRangeCompactions() {
        Fixtures.seeded("wholeRunRangeCompactions", r -> run(r, TreeModelTest.wholeRun(r), dir.resolve("w")));
    }

    @Test
    void anInvertedOrEmptyRangePlansNothing() throws IOException {
        try (LsmTree tree = LsmTree.open(dir.resolve("e"), TreeOptions.partitioned()); Version v = tree.current()) {
            assertTrue(ManualCompactions.full(v).isEmpty(), "an empty tree");
        }
        try (LsmTree tree = LsmTree.open(dir.resolve("e"), TreeOptions.partitioned())) {
            tree.flush(SortedEntries.of(Fixtures.run(0).entrySet().iterator()), null);
            try (Version v = tree.current()) {
                assertTrue(ManualCompactions.range(v, new byte[] {'z'}, new byte[] {'a'}).isEmpty(), "an inverted range");
                assertTrue(ManualCompactions.range(v, new byte[] {'z'}, null).isEmpty(), "a range past every key");
                assertTrue(ManualCompactions.range(v, new byte[] {'k', '0', '5'}, new byte[] {'k', '0', '5'}).isPresent(), "one key");
            }
        }
    }

    private static void run(Random r, TreeOptions options, Path path) {
        try {
            List<byte[]> pool = Fixtures.keyPool(r, 40 + r.nextInt(200));
            TreeMap<byte[], byte[]> model = Fixtures.newModel();
            int manual = 0;
            try (LsmTree tree = LsmTree.open(path, options)) {
                for (int round = 0; round < 14; round++) {
                    TreeMap<byte[], byte[]> run = Fixtures.run(r, pool, 1 + r.nextInt(60), 3);
                    tree.flush(SortedEntries.of(run.entrySet().iterator()), null);
                    Fixtures.apply(model, run);
                    if (r.nextBoolean()) {
                        Optional<CompactionPlan> picked = tree.pickCompaction();
                        if (picked.isPresent()) {
                            compact(tree, picked.get(), r);
                        }
                    }
                    byte[] lo = r.nextInt(4) == 0 ? null : pool.get(r.nextInt(pool.size()));
                    byte[] hi = r.nextInt(4) == 0 ? null : pool.get(r.nextInt(pool.size()));
                    if (lo != null && hi != null && Arrays.compareUnsigned(lo, hi) > 0) {
                        byte[] t = lo;
                        lo = hi;
                        hi = t;
                    }
                    Optional<CompactionPlan> plan;
                    Set<ObjectId> before = new HashSet<>();
                    try (Version v = tree.current()) {
                        plan = ManualCompactions.range(v, lo, hi);
                        for (int level = 0; level < v.levelCount(); level++) {
                            for (SegmentMeta s : v.level(level)) {
                                before.add(s.id());
                            }
                        }
                    }
                    if (plan.isEmpty()) {
                        continue;
                    }
                    compact(tree, plan.get(), r);
                    manual++;
                    for (SegmentMeta in : plan.get().inputs()) {
                        before.remove(in.id());
                    }
                    try (Version v = tree.current()) {
                        Set<ObjectId> now = new HashSet<>();
                        for (int level = 0; level < v.levelCount(); level++) {
                            for (SegmentMeta s : v.level(level)) {
                                now.add(s.id());
                                if (level < v.levelCount() - 1 && v.layout() == Layout.PARTITIONED) {
                                    assertFalse(holdsKeyIn(s, lo, hi), "segment " + s.id() + " at level " + level
                                            + " above the bottom still overlaps the compacted range");
                                }
                            }
                        }
                        assertTrue(now.containsAll(before), "a segment the plan left out was removed");
                        ReadChecks.gets(v, model, pool, r);
                        if (round % 3 == 0) {
                            ReadChecks.cursors(v, model, pool, r, 10);
                        }
                        assertEquals(Optional.empty(), ManualCompactions.range(v, lo, hi), "the same range again has nothing to do");
                    }
                }
                try (Version v = tree.current()) {
                    ReadChecks.verifyAll(v, ((EverettTree) tree).segments());
                    assertEquals(TreeModelTest.segmentsIn(v), tree.liveSegmentCount(), "only the current version's segments remain");
                }
            }
            assertTrue(manual > 0, "no range compaction ran");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void compact(LsmTree tree, CompactionPlan plan, Random r) throws IOException {
        try (CompactionJob job = tree.compact(plan)) {
            while (!job.done()) {
                job.step(1 + r.nextInt(40));
            }
            job.finish();
        }
    }

    private static boolean holdsKeyIn(SegmentMeta s, byte[] lo, byte[] hi) {
        return (lo == null || Arrays.compareUnsigned(s.largestKeyView(), lo) >= 0)
                && (hi == null || Arrays.compareUnsigned(s.smallestKeyView(), hi) <= 0);
    }
}

package dev.everett.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.api.FilterPolicy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Flushes, compactions and reads of whole trees in both layouts against a TreeMap model, across reopen. */
class TreeModelTest {
    @TempDir(factory = MemoryTempDir.class)
    Path dir;

    /** Half the trees keep a key filter on every segment. */
    static TreeOptions maybeFiltered(Random r, TreeOptions o) {
        return r.nextBoolean() ? o.withFilters(FilterPolicy.bloom(10)) : o;
    }

    static TreeOptions partitioned(Random r) {
        // One record per file (target 1) gets a larger level 1, so that levels hold tens of
        // segments rather than a handful and compactions do not cascade one segment at a time.
        long target = r.nextInt(4) == 0 ? 1 : 100 + r.nextInt(1500);
        long base = target == 1 ? 15_000 + r.nextInt(10_000) : 600 + r.nextInt(2000);
        return maybeFiltered(r, TreeOptions.partitioned())
                .withPicker(new LeveledPicker(4, 2 + r.nextInt(2), base, 2 + r.nextInt(3)))
                .withTargetFileBytes(target);
    }

    static TreeOptions wholeRun(Random r) {
        return maybeFiltered(r, TreeOptions.wholeRun()).withPicker(new GeometricPicker(1.5 + r.nextInt(3)));
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
                    // One-record segments make long cascades of one-segment compactions; the
                    // bound only catches a picker that never settles.
                    int roundCompactions = 0;
                    for (Optional<CompactionPlan> plan = tree.pickCompaction(); plan.isPresent(); plan = tree.pickCompaction()) {
                        try (CompactionJob job = tree.compact(plan.get())) {
                            while (!job.done()) {
                                job.step(1 + r.nextInt(40));
                            }
                            job.finish();
                        }
                        compactions++;
                        assertTrue(++roundCompactions < 5000, "the picker keeps choosing compactions");
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
                    checkFilters(v, ((EverettTree) tree).segments(), options.store().filters().enabled());
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

    /** With filters, every segment has one and its lookups ask it; without, none has one. */
    static void checkFilters(Version v, SegmentFiles files, boolean filtered) throws IOException {
        for (int n = 0; n < v.levelCount(); n++) {
            for (SegmentMeta m : v.level(n)) {
                assertEquals(filtered, m.filterBytes() > 0, m.toString());
                try (SegmentHandle h = files.open(m)) {
                    assertEquals(filtered, h.segment().filtered());
                }
            }
        }
    }

    /** A picker that never picks, so the test chooses its compactions itself. */
    record NoPicker(Layout layout) implements CompactionPicker {
        @Override
        public Optional<CompactionPlan> pick(Version version, java.util.Set<dev.everett.api.ObjectId> compacting) {
            return Optional.empty();
        }
    }

    @Test
    void aWholeRunPlanStillAppliesAfterAFlushShiftedTheLevels() {
        Fixtures.seeded("aWholeRunPlanStillAppliesAfterAFlushShiftedTheLevels", r -> {
            try {
                TreeOptions options = maybeFiltered(r, TreeOptions.wholeRun()).withPicker(new NoPicker(Layout.WHOLE_RUN));
                List<byte[]> pool = Fixtures.keyPool(r, 80);
                TreeMap<byte[], byte[]> model = Fixtures.newModel();
                try (LsmTree tree = LsmTree.open(dir.resolve("shifted"), options)) {
                    for (int i = 0; i < 3; i++) {
                        TreeMap<byte[], byte[]> run = Fixtures.run(r, pool, 10 + r.nextInt(40), 3);
                        tree.flush(SortedEntries.of(run.entrySet().iterator()), null);
                        Fixtures.apply(model, run);
                    }
                    CompactionPlan plan;
                    try (Version v = tree.current()) {
                        plan = new CompactionPlan(List.of(v.level(1).getFirst(), v.level(0).getFirst()), 0, false, 1, "top two");
                    }
                    // A flush between planning and starting pushes a run on top: the inputs are now levels 2 and 1.
                    TreeMap<byte[], byte[]> newest = Fixtures.run(r, pool, 10 + r.nextInt(40), 3);
                    tree.flush(SortedEntries.of(newest.entrySet().iterator()), null);
                    Fixtures.apply(model, newest);
                    try (CompactionJob job = tree.compact(plan)) {
                        while (!job.done()) {
                            job.step(13);
                        }
                        job.finish();
                    }
                    try (Version v = tree.current()) {
                        assertEquals(3, v.levelCount());
                        ReadChecks.gets(v, model, pool, r);
                        ReadChecks.cursors(v, model, pool, r, 20);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    @Test
    void aWholeRunMergeBelowTheTopRebuildsTheIndexesAbove() {
        Fixtures.seeded("aWholeRunMergeBelowTheTopRebuildsTheIndexesAbove", r -> {
            try {
                Path path = dir.resolve("middle");
                TreeOptions options = maybeFiltered(r, TreeOptions.wholeRun()).withPicker(new NoPicker(Layout.WHOLE_RUN));
                List<byte[]> pool = Fixtures.keyPool(r, 120);
                TreeMap<byte[], byte[]> model = Fixtures.newModel();
                try (LsmTree tree = LsmTree.open(path, options)) {
                    for (int i = 0; i < 5; i++) {
                        TreeMap<byte[], byte[]> run = Fixtures.run(r, pool, 10 + r.nextInt(60), 3);
                        tree.flush(SortedEntries.of(run.entrySet().iterator()), null);
                        Fixtures.apply(model, run);
                    }
                    CompactionPlan plan;
                    try (Version v = tree.current()) {
                        assertEquals(5, v.levelCount());
                        // Runs 3, 2 and 1 (oldest first) into one: runs 0 (above) and 4 (below) stay.
                        plan = new CompactionPlan(List.of(v.level(3).getFirst(), v.level(2).getFirst(), v.level(1).getFirst()),
                                1, false, 1, "middle");
                    }
                    try (CompactionJob job = tree.compact(plan)) {
                        while (!job.done()) {
                            job.step(17);
                        }
                        job.finish();
                    }
                    try (Version v = tree.current()) {
                        assertEquals(3, v.levelCount());
                        ReadChecks.gets(v, model, pool, r);
                        ReadChecks.cursors(v, model, pool, r, 30);
                    }
                    // Tombstones may not be dropped above the oldest run.
                    try (Version v = tree.current()) {
                        CompactionPlan drop = new CompactionPlan(List.of(v.level(1).getFirst(), v.level(0).getFirst()), 0, true, 1, "bad");
                        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> tree.compact(drop));
                    }
                }
                try (LsmTree tree = LsmTree.open(path, options); Version v = tree.current()) {
                    ReadChecks.gets(v, model, pool, r);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /**
     * The runs of a whole-run version are positioned by one descent of their chain: each run's
     * cursor lands where a search of that run alone would (its own TreeMap, tombstones included),
     * for seeks in both directions, with bounds, then steps both ways; and the merged cursor
     * matches the model.
     */
    @Test
    void wholeRunSeeksPositionEveryRunFromOneDescent() {
        Fixtures.seeded("wholeRunSeeksPositionEveryRunFromOneDescent", r -> {
            try {
                TreeOptions options = maybeFiltered(r, TreeOptions.wholeRun()).withPicker(new NoPicker(Layout.WHOLE_RUN));
                List<byte[]> pool = Fixtures.keyPool(r, 400 + r.nextInt(2500));
                TreeMap<byte[], byte[]> model = Fixtures.newModel();
                List<TreeMap<byte[], byte[]>> runs = new java.util.ArrayList<>(); // newest first
                try (LsmTree tree = LsmTree.open(dir.resolve("descent"), options)) {
                    int count = 2 + r.nextInt(6);
                    for (int i = 0; i < count; i++) {
                        // Older runs larger, as a geometric history makes them.
                        TreeMap<byte[], byte[]> run = Fixtures.run(r, pool, 1 + r.nextInt(40 << (count - i)), 3);
                        tree.flush(SortedEntries.of(run.entrySet().iterator()), null);
                        Fixtures.apply(model, run);
                        runs.addFirst(run);
                    }
                    try (Version v = tree.current()) {
                        WholeRunChain chain = ((TreeVersion) v).core.chain();
                        for (int w = 0; w < 60; w++) {
                            byte[] lower = r.nextInt(3) == 0 ? null : pool.get(r.nextInt(pool.size()));
                            byte[] upper = r.nextInt(3) == 0 ? null : pool.get(r.nextInt(pool.size()));
                            if (lower != null && upper != null && java.util.Arrays.compareUnsigned(lower, upper) > 0) {
                                byte[] t = lower;
                                lower = upper;
                                upper = t;
                            }
                            checkRuns(chain, runs, new dev.everett.api.KeyRange(lower, upper), pool, r);
                        }
                        ReadChecks.gets(v, model, pool, r);
                        ReadChecks.cursors(v, model, pool, r, 60);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    private static void checkRuns(WholeRunChain chain, List<TreeMap<byte[], byte[]>> runs, dev.everett.api.KeyRange range,
                                  List<byte[]> pool, Random r) {
        try (dev.everett.api.RunCursors all = chain.chain().runCursors(runs.size(), range)) {
            assertEquals(runs.size(), all.runs());
            byte[] target = r.nextInt(4) == 0 ? new byte[] {(byte) r.nextInt(256)} : pool.get(r.nextInt(pool.size()));
            int how = r.nextInt(4);
            switch (how) {
                case 0 -> all.seekToFirst();
                case 1 -> all.seekToLast();
                case 2 -> all.seek(target);
                default -> all.seekForPrev(target);
            }
            for (int i = 0; i < runs.size(); i++) {
                java.util.NavigableMap<byte[], byte[]> in = runs.get(i);
                if (range.lower() != null) {
                    in = in.tailMap(range.lower(), true);
                }
                if (range.upper() != null) {
                    in = in.headMap(range.upper(), false);
                }
                byte[] at = ReadChecks.positioned(in, how, target);
                dev.everett.api.SeekCursor c = all.run(i);
                for (int step = 0; step < 6; step++) {
                    byte[] expected = at;
                    String where = "run " + i + " of " + runs.size() + ", positioning " + how + ", step " + step;
                    if (expected == null) {
                        assertTrue(!c.valid(), where + ": should be invalid");
                        break;
                    }
                    assertTrue(c.valid(), where + ": should be on " + Fixtures.hex(expected));
                    org.junit.jupiter.api.Assertions.assertArrayEquals(expected, c.keyBytes(), where);
                    org.junit.jupiter.api.Assertions.assertArrayEquals(in.get(expected), c.valueBytes(), where);
                    if (r.nextBoolean()) {
                        c.next();
                        at = in.higherKey(expected);
                    } else {
                        c.prev();
                        at = in.lowerKey(expected);
                    }
                }
            }
        }
    }

    /**
     * A partitioned version with one level and no level 0 is read by the level's own cursor
     * ({@link LevelTreeCursor}, no merge): kept tombstones in small segments, so its skips cross
     * segment ends in both directions, with bounds, against the model.
     */
    @Test
    void aLoneLevelIsReadWithoutAMerge() {
        Fixtures.seeded("aLoneLevelIsReadWithoutAMerge", r -> {
            Path path = dir.resolve("lone");
            TreeOptions options = TreeOptions.partitioned().withPicker(new NoPicker(Layout.PARTITIONED)).withTargetFileBytes(60 + r.nextInt(200));
            List<byte[]> pool = Fixtures.keyPool(r, 60 + r.nextInt(200));
            TreeMap<byte[], byte[]> model = Fixtures.newModel();
            try (LsmTree tree = LsmTree.open(path, options)) {
                for (int round = 0; round < 3; round++) {
                    TreeMap<byte[], byte[]> run = Fixtures.run(r, pool, 20 + r.nextInt(120), 2);
                    tree.flush(SortedEntries.of(run.entrySet().iterator()), null);
                    Fixtures.apply(model, run);
                    try (Version v = tree.current()) {
                        // Oldest first: the level, then level 0 from its oldest segment.
                        List<SegmentMeta> inputs = new ArrayList<>(v.level(1));
                        inputs.addAll(v.level(0).reversed());
                        try (CompactionJob job = tree.compact(new CompactionPlan(inputs, 1, false, 1, "into the lone level"))) {
                            while (!job.done()) {
                                job.step(1 + r.nextInt(40));
                            }
                            job.finish();
                        }
                    }
                    try (Version v = tree.current(); TreeCursor c = v.cursor()) {
                        assertTrue(c instanceof LevelTreeCursor, "one level and no level 0: the level's own cursor");
                        ReadChecks.cursors(v, model, pool, r, 40);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    @Test
    void aTombstoneDropAboveOlderDataIsRefusedAndNothingResurrects() throws IOException {
        Path path = dir.resolve("resurrect");
        TreeOptions options = TreeOptions.partitioned().withPicker(new NoPicker(Layout.PARTITIONED));
        byte[] k = {7};
        try (LsmTree tree = LsmTree.open(path, options)) {
            TreeMap<byte[], byte[]> old = Fixtures.newModel();
            old.put(k, new byte[] {1});
            tree.flush(SortedEntries.of(old.entrySet().iterator()), null);
            CompactionPlan toL2;
            try (Version v = tree.current()) {
                toL2 = new CompactionPlan(v.level(0), 2, true, 1, "old value to level 2");
            }
            try (CompactionJob job = tree.compact(toL2)) {
                while (!job.done()) {
                    job.step(10);
                }
                job.finish();
            }
            TreeMap<byte[], byte[]> delete = Fixtures.newModel();
            delete.put(k, null);
            tree.flush(SortedEntries.of(delete.entrySet().iterator()), null);
            try (Version v = tree.current()) {
                CompactionPlan dropping = new CompactionPlan(v.level(0), 1, true, 1, "drop above level 2");
                org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> tree.compact(dropping));
                // The same compaction keeping the tombstone is fine, and the key stays deleted.
                try (CompactionJob job = tree.compact(dropping.withDropTombstones(false))) {
                    while (!job.done()) {
                        job.step(10);
                    }
                    job.finish();
                }
            }
            try (Version v = tree.current()) {
                assertEquals(dev.everett.api.Lookup.Status.TOMBSTONE, v.get(k).status());
                assertEquals(1, v.level(1).size());
                assertEquals(1, v.level(2).size());
                // Level 1 into level 2 is bottommost: the tombstone and the value it hides both go.
                CompactionPlan bottom = new CompactionPlan(List.of(v.level(2).getFirst(), v.level(1).getFirst()), 2, true, 1, "bottom");
                try (CompactionJob job = tree.compact(bottom)) {
                    while (!job.done()) {
                        job.step(10);
                    }
                    assertEquals(List.of(), job.finish(), "nothing is left to write");
                }
            }
            try (Version v = tree.current()) {
                assertEquals(dev.everett.api.Lookup.Status.ABSENT, v.get(k).status());
                assertEquals(0, segmentsIn(v));
            }
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

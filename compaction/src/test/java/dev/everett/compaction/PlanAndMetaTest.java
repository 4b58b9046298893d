package dev.everett.compaction;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.api.CatalogRef;
import dev.everett.api.CorruptSegmentException;
import dev.everett.api.ObjectId;
import dev.everett.api.ObjectStoreOptions;
import dev.everett.api.Policy;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Segment metadata serialisation, the pickers' scores and choices, and edits racing a compaction. */
class PlanAndMetaTest {
    @TempDir(factory = MemoryTempDir.class)
    Path dir;

    private static SegmentMeta meta(String lo, String hi, long bytes) {
        return new SegmentMeta(ObjectId.random(), new CatalogRef(ObjectId.random(), ObjectId.random()),
                lo.getBytes(), hi.getBytes(), 10, 2, bytes, 0, 0, new byte[] {1, 2, 3});
    }

    @Test
    void metadataRoundTripsAndRefusesEveryDamagedByte() {
        SegmentMeta m = meta("apple", "cherry", 4096);
        byte[] b = m.toBytes();
        assertEquals(m, SegmentMeta.fromBytes(b, 0, b.length, Path.of("manifest"), 100));
        for (int i = 0; i < b.length; i++) {
            byte[] bad = b.clone();
            bad[i] ^= 0x10;
            CorruptSegmentException e = assertThrows(CorruptSegmentException.class,
                    () -> SegmentMeta.fromBytes(bad, 0, bad.length, Path.of("manifest"), 100));
            assertEquals(Path.of("manifest"), e.file());
            assertTrue(e.offset() >= 100 && e.offset() < 100 + b.length, e.getMessage());
        }
        assertThrows(CorruptSegmentException.class, () -> SegmentMeta.fromBytes(b, 0, b.length - 1, Path.of("m"), 0));
        assertThrows(IllegalArgumentException.class, () -> meta("b", "a", 1), "smallest above largest");
    }

    /** A version over bare levels, for the pickers. */
    private record Levelled(Layout layout, List<List<SegmentMeta>> levels) implements Version {
        @Override public long number() { return 1; }
        @Override public int levelCount() { return levels.size(); }
        @Override public List<SegmentMeta> level(int n) { return n < levels.size() ? levels.get(n) : List.of(); }
        @Override public long levelBytes(int n) { return level(n).stream().mapToLong(SegmentMeta::fileBytes).sum(); }
        @Override public byte[] hostState() { return new byte[0]; }
        @Override public dev.everett.api.Lookup get(byte[] key) { throw new AssertionError("pickers read no records"); }
        @Override public TreeCursor cursor(dev.everett.api.KeyRange range) { throw new AssertionError("pickers read no records"); }
        @Override public Version retain() { return this; }
        @Override public void close() { }
    }

    @Test
    void theLeveledPickerScoresAsRocksDbAndPicksTheLeastOverlap() {
        LeveledPicker p = new LeveledPicker(4, 4, 500, 10);
        SegmentMeta a = meta("a", "c", 600);
        SegmentMeta b = meta("d", "f", 600);     // level 1: 1200 bytes over 500
        SegmentMeta below1 = meta("a", "b", 1000);
        SegmentMeta below2 = meta("b1", "c", 1000);
        Version v = new Levelled(Layout.PARTITIONED, List.of(List.of(meta("a", "z", 10), meta("a", "z", 10)),
                List.of(a, b), List.of(below1, below2)));
        double[] s = p.scores(v, Set.of());
        assertEquals(0.5, s[0], 1e-9, "level 0: 2 segments over a trigger of 4");
        assertEquals(2.4, s[1], 1e-9, "level 1: 1200 bytes over 500");
        assertEquals(0.4, s[2], 1e-9, "level 2: 2000 bytes over 5000");
        assertEquals(0, s[3]);
        CompactionPlan plan = p.pick(v, Set.of()).orElseThrow();
        assertEquals(List.of(b), plan.inputs(), "b overlaps nothing below: the least overlap");
        assertEquals(2, plan.outputLevel());
        assertTrue(plan.dropTombstones(), "nothing below level 2 holds d..f");
        // With b busy, level 1 still scores 1.2: a goes with the two segments it overlaps below, oldest first.
        CompactionPlan other = p.pick(v, Set.of(b.id())).orElseThrow();
        assertEquals(List.of(below1, below2, a), other.inputs());
    }

    @Test
    void theGeometricPickerMergesTheTopRunsIntoTheFirstTooSmallRun() {
        GeometricPicker p = new GeometricPicker(4);
        SegmentMeta r0 = meta("a", "z", 100);
        SegmentMeta r1 = meta("a", "z", 500);    // ≥ 4 × 100: fine
        SegmentMeta r2 = meta("a", "z", 1000);   // < 4 × 600: merge r2, r1, r0
        SegmentMeta r3 = meta("a", "z", 100_000);
        Version v = new Levelled(Layout.WHOLE_RUN, List.of(List.of(r0), List.of(r1), List.of(r2), List.of(r3)));
        CompactionPlan plan = p.pick(v, Set.of()).orElseThrow();
        assertEquals(List.of(r2, r1, r0), plan.inputs());
        assertEquals(0, plan.outputLevel());
        assertTrue(!plan.dropTombstones(), "r3 lies below");
        assertEquals(Optional.empty(), p.pick(new Levelled(Layout.WHOLE_RUN, List.of(List.of(r0), List.of(r1))), Set.of()));
    }

    @Test
    void readKeyRangeRecoversTheRangeFromTheFiles() throws IOException {
        try (SegmentFiles files = SegmentFiles.open(dir, Policy.defaultBytes(), ObjectStoreOptions.defaults(), StorageFiles.system())) {
            TreeMap<byte[], byte[]> run = Fixtures.newModel();
            for (int i = 0; i < 500; i++) {
                run.put(String.format("key%05d", i * 7).getBytes(), new byte[] {(byte) i});
            }
            SegmentMeta m = files.flush(SortedEntries.of(run.entrySet().iterator()), Long.MAX_VALUE, null).getFirst();
            byte[][] range = files.readKeyRange(m.id(), m.head());
            assertArrayEquals(run.firstKey(), range[0]);
            assertArrayEquals(run.lastKey(), range[1]);
        }
    }

    /** A flush (and for whole-run trees, a run shift) lands while a compaction runs; its commit still applies. */
    @ParameterizedTest
    @EnumSource(Layout.class)
    void aFlushDuringACompactionCommitsAroundIt(Layout layout) throws IOException {
        Random r = new Random(11);
        List<byte[]> pool = Fixtures.keyPool(r, 150);
        TreeOptions options = (layout == Layout.PARTITIONED ? TreeOptions.partitioned().withTargetFileBytes(700)
                : TreeOptions.wholeRun()).withPicker(new TreeModelTest.NoPicker(layout));
        TreeMap<byte[], byte[]> model = Fixtures.newModel();
        try (LsmTree tree = LsmTree.open(dir.resolve(layout.name()), options)) {
            for (int i = 0; i < 3; i++) {
                TreeMap<byte[], byte[]> run = Fixtures.run(r, pool, 60, 3);
                tree.flush(SortedEntries.of(run.entrySet().iterator()), null);
                Fixtures.apply(model, run);
            }
            CompactionPlan plan;
            try (Version v = tree.current()) {
                List<SegmentMeta> inputs = new ArrayList<>();
                if (layout == Layout.WHOLE_RUN) {
                    inputs.addAll(List.of(v.level(2).getFirst(), v.level(1).getFirst(), v.level(0).getFirst()));
                } else {
                    inputs.addAll(v.level(0).reversed());
                }
                plan = new CompactionPlan(inputs, layout == Layout.WHOLE_RUN ? 0 : 1, true, 1, "race");
            }
            try (CompactionJob job = tree.compact(plan)) {
                job.step(5);
                job.step(5);
                TreeMap<byte[], byte[]> newer = Fixtures.run(r, pool, 40, 3);
                tree.flush(SortedEntries.of(newer.entrySet().iterator()), null);
                while (!job.done()) {
                    job.step(13);
                }
                job.finish();
                model = Fixtures.visible(model); // the compaction was bottommost: its tombstones are gone
                Fixtures.apply(model, newer);
            }
            try (Version v = tree.current()) {
                if (layout == Layout.WHOLE_RUN) {
                    assertEquals(2, v.levelCount(), "the flushed run on top of the merged one");
                } else {
                    assertTrue(!v.level(0).isEmpty() && !v.level(1).isEmpty(), "the flush in level 0, the outputs in level 1");
                }
                ReadChecks.gets(v, model, pool, r);
                ReadChecks.cursors(v, model, pool, r, 20);
            }
            assertThrows(IllegalArgumentException.class, () -> tree.compact(plan), "inputs are gone");
        }
    }
}

package dev.everett.compaction;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.api.CorruptSegmentException;
import dev.everett.api.FilterPolicy;
import dev.everett.api.Lookup;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Key filters chosen per level ({@link TreeOptions#withLevelFilters}): written, read and skipped by level. */
class LevelFiltersTest {
    @TempDir(factory = MemoryTempDir.class)
    Path dir;

    private static byte[] key(int i) {
        return String.format("k%05d", i).getBytes(StandardCharsets.US_ASCII);
    }

    /** Level 0 filtered, level 1 and below not (RocksDB's optimize_filters_for_hits for a two-level tree). */
    private static TreeOptions options() {
        return TreeOptions.partitioned().withPicker(new TreeModelTest.NoPicker(Layout.PARTITIONED))
                .withLevelFilters(FilterPolicy.bloom(10), FilterPolicy.none());
    }

    /** Flushes keys 0..399 and compacts them to level 1, then flushes the even keys 0..398 with new values to level 0. */
    private static TreeMap<byte[], byte[]> history(LsmTree tree) throws IOException {
        TreeMap<byte[], byte[]> model = Fixtures.newModel();
        TreeMap<byte[], byte[]> old = Fixtures.newModel();
        for (int i = 0; i < 400; i++) {
            old.put(key(i), new byte[] {1, (byte) i});
        }
        tree.flush(SortedEntries.of(old.entrySet().iterator()), null);
        try (Version v = tree.current(); CompactionJob job = tree.compact(new CompactionPlan(v.level(0), 1, true, 1, "to level 1"))) {
            while (!job.done()) {
                job.step(100);
            }
            job.finish();
        }
        model.putAll(old);
        TreeMap<byte[], byte[]> newer = Fixtures.newModel();
        for (int i = 0; i < 400; i += 2) {
            newer.put(key(i), new byte[] {2, (byte) i});
        }
        tree.flush(SortedEntries.of(newer.entrySet().iterator()), null);
        model.putAll(newer);
        return model;
    }

    private static long filterFiles(Path segmentDir) throws IOException {
        try (Stream<Path> s = Files.walk(segmentDir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".filter")).count();
        }
    }

    private static void corruptNative(LsmTree tree, SegmentMeta m) throws IOException {
        Fixtures.damageBody(m.id().path(((EverettTree) tree).segments().segmentDirectory(m.id()), ".kv"));
    }

    @Test
    void eachLevelWritesAndReadsTheFiltersChosenForIt() throws IOException {
        Path root = dir.resolve("levels");
        TreeMap<byte[], byte[]> model;
        try (LsmTree tree = LsmTree.open(root, options())) {
            model = history(tree);
            try (Version v = tree.current()) {
                SegmentFiles files = ((EverettTree) tree).segments();
                for (int n = 0; n < 2; n++) {
                    boolean filtered = n == 0;
                    for (SegmentMeta m : v.level(n)) {
                        assertEquals(filtered, m.filterBytes() > 0, "level " + n + ": " + m);
                        assertEquals(filtered ? 1 : 0, filterFiles(files.segmentDirectory(m.id())), "level " + n + " .filter files");
                        Fixtures.assertFileBytesOnDisk(files, m);
                    }
                    SegmentHandle h = ((TreeVersion) v).core.handlesById().get(v.level(n).getFirst().id());
                    assertEquals(filtered, h.segment().filtered(), "level " + n + " lookups ask a filter");
                }
                ReadChecks.gets(v, model, List.copyOf(model.keySet()), new java.util.Random(3));
            }
        }
        // Reopened, a level without filters still writes none.
        try (LsmTree tree = LsmTree.open(root, options()); Version v = tree.current()) {
            ReadChecks.gets(v, model, List.copyOf(model.keySet()), new java.util.Random(4));
            for (SegmentMeta m : v.level(1)) {
                assertEquals(0, filterFiles(((EverettTree) tree).segments().segmentDirectory(m.id())));
            }
        }
    }

    /**
     * A lookup skips a segment whose filter rules its key out without reading the segment: with
     * level 0's native damaged (and not yet read by this process), keys it does not hold still
     * answer from level 1, while a key it holds, or any key at an unfiltered level, reaches the
     * damage.
     */
    @Test
    void aLookupSkipsSegmentsItsFilterRulesOut() throws IOException {
        Path root = dir.resolve("skip");
        try (LsmTree tree = LsmTree.open(root, options())) {
            history(tree);
            try (Version v = tree.current()) {
                corruptNative(tree, v.level(0).getFirst());
            }
        }
        try (LsmTree tree = LsmTree.open(root, options()); Version v = tree.current()) {
            int answered = 0;
            for (int i = 1; i < 400; i += 2) {
                byte[] k = key(i);
                try {
                    Lookup got = v.get(k);
                    assertArrayEquals(new byte[] {1, (byte) i}, got.valueBytes(), "key " + i + " from level 1");
                    answered++;
                } catch (CorruptSegmentException e) {
                    // A false positive of the filter (about 1%) reads the damaged native.
                }
            }
            assertTrue(answered > 150, "most lookups of keys level 0 lacks skip it: " + answered + " of 200");
            assertThrows(CorruptSegmentException.class, () -> v.get(key(10)), "a key level 0 holds reads its native");
        }
        // Damage at the unfiltered level is reached by a key it does not hold either.
        Path other = dir.resolve("unfiltered");
        try (LsmTree tree = LsmTree.open(other, options())) {
            history(tree);
            try (Version v = tree.current()) {
                corruptNative(tree, v.level(1).getFirst());
            }
        }
        try (LsmTree tree = LsmTree.open(other, options()); Version v = tree.current()) {
            byte[] absent = "k00100x".getBytes(StandardCharsets.US_ASCII);
            assertThrows(CorruptSegmentException.class, () -> v.get(absent), "no filter at level 1: the lookup reads the native");
        }
    }

    @Test
    void wholeRunTreesTakeNoPerLevelFilters() {
        assertThrows(IllegalArgumentException.class, () -> TreeOptions.wholeRun().withLevelFilters(FilterPolicy.bloom(10), FilterPolicy.none()));
        assertEquals(FilterPolicy.bloom(10), TreeOptions.wholeRun().withFilters(FilterPolicy.bloom(10)).filtersAt(5));
        assertEquals(FilterPolicy.none(), options().filtersAt(7));
        assertEquals(FilterPolicy.bloom(10), options().filtersAt(0));
    }
}

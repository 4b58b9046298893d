package dev.everett.compaction;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.api.FilterPolicy;
import dev.everett.api.KeyRange;
import dev.everett.api.Lookup;
import dev.everett.api.ObjectId;
import dev.everett.segment.testing.DirectoryContents;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link LsmTree#openReadOnly}: the same reads as a read-write open, and not one byte, name or
 * directory of the tree changes, even where a read-write open would write (garbage to sweep, a
 * key filter to rebuild, a manifest to roll over, a torn manifest tail to drop).
 */
class ReadOnlyTreeTest {
    @TempDir(factory = MemoryTempDir.class)
    Path dir;

    private static TreeOptions options(Layout layout) {
        TreeOptions o = layout == Layout.PARTITIONED ? TreeOptions.partitioned() : TreeOptions.wholeRun();
        return o.withFilters(FilterPolicy.bloom(10));
    }

    /** A tree of two flushes, a full compaction and three more flushes, with a model of what it holds. */
    private TreeMap<byte[], byte[]> build(Path root, Layout layout) throws IOException {
        TreeMap<byte[], byte[]> model = Fixtures.newModel();
        try (LsmTree tree = LsmTree.open(root, options(layout))) {
            for (int run = 0; run < 5; run++) {
                if (run == 2) {
                    try (Version v = tree.current(); CompactionJob job = tree.compact(ManualCompactions.full(v).orElseThrow())) {
                        while (!job.done()) {
                            job.step(64);
                        }
                        job.finish();
                    }
                }
                TreeMap<byte[], byte[]> m = Fixtures.run(run);
                if (run == 3) {
                    m.put("k004".getBytes(StandardCharsets.UTF_8), null); // a tombstone over run 0's value
                }
                tree.flush(SortedEntries.of(m.entrySet().iterator()), ("host" + run).getBytes(StandardCharsets.UTF_8));
                Fixtures.apply(model, m);
            }
        }
        return model;
    }

    private static Map<String, byte[]> files(Path root) throws IOException {
        return DirectoryContents.of(root);
    }

    private static void assertUnchanged(Map<String, byte[]> before, Path root) throws IOException {
        DirectoryContents.assertUnchanged(before, root, "the read-only open");
    }

    /** Reads every key of the model (and a few absent ones) both by lookup and by cursor. */
    private static void assertReads(LsmTree tree, TreeMap<byte[], byte[]> model) {
        TreeMap<byte[], byte[]> visible = Fixtures.visible(model);
        try (Version v = tree.current()) {
            for (Map.Entry<byte[], byte[]> e : model.entrySet()) {
                Lookup l = v.get(e.getKey());
                if (e.getValue() == null) {
                    assertFalse(l.status() == Lookup.Status.VALUE, Fixtures.hex(e.getKey()));
                } else {
                    assertArrayEquals(e.getValue(), l.valueBytes(), Fixtures.hex(e.getKey()));
                }
            }
            assertEquals(Lookup.Status.ABSENT, v.get("absent".getBytes(StandardCharsets.UTF_8)).status());
            List<byte[]> keys = new ArrayList<>();
            try (TreeCursor c = v.cursor(KeyRange.all())) {
                for (c.seekToFirst(); c.valid(); c.next()) {
                    keys.add(c.keyBytes());
                    assertArrayEquals(visible.get(c.keyBytes()), c.valueBytes());
                }
            }
            assertEquals(visible.size(), keys.size(), "keys the cursor walks");
        }
    }

    @ParameterizedTest
    @EnumSource(Layout.class)
    void readsAsTheReadWriteOpenAndWritesNothing(Layout layout) throws IOException {
        Path root = dir.resolve("tree");
        TreeMap<byte[], byte[]> model = build(root, layout);
        // What a read-write open would clean up or rebuild: a segment no edit names, a temporary
        // file, and a key filter gone missing.
        Path segments = root.resolve(EverettTree.SEGMENTS);
        Files.createDirectories(segments.resolve(ObjectId.random().hex()));
        Files.writeString(root.resolve("CURRENT.tmp"), "left by a crash");
        Path filter;
        try (Stream<Path> s = Files.walk(segments)) {
            filter = s.filter(p -> p.getFileName().toString().endsWith(".filter")).findFirst().orElseThrow();
        }
        Files.delete(filter);
        Map<String, byte[]> before = files(root);
        try (LsmTree tree = LsmTree.openReadOnly(root, options(layout), RecoveryCheck.NONE)) {
            assertTrue(tree.readOnly());
            assertReads(tree, model);
            assertEquals(Optional.empty(), tree.pickCompaction());
            TreeMap<byte[], byte[]> more = Fixtures.run(5);
            assertThrows(UnsupportedOperationException.class, () -> tree.flush(SortedEntries.of(more.entrySet().iterator()), null));
            assertThrows(UnsupportedOperationException.class, () -> tree.recordHostState(new byte[1]));
            try (Version v = tree.current()) {
                CompactionPlan full = ManualCompactions.full(v).orElseThrow();
                UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, () -> tree.compact(full));
                assertTrue(e.getMessage().contains("read-only"), e.getMessage());
            }
            assertTrue(tree.compacting().isEmpty(), "a refused compaction holds nothing");
        }
        assertUnchanged(before, root);
        // The read-write open then does what the read-only one left.
        try (LsmTree tree = LsmTree.open(root, options(layout))) {
            assertFalse(tree.readOnly());
            assertReads(tree, model);
        }
        assertFalse(Files.exists(root.resolve("CURRENT.tmp")), "swept by the read-write open");
        assertTrue(Files.exists(filter), "rebuilt by the read-write open");
    }

    @ParameterizedTest
    @EnumSource(Layout.class)
    void aTornManifestTailIsDroppedInMemoryOnly(Layout layout) throws IOException {
        Path root = dir.resolve("torn");
        TreeMap<byte[], byte[]> model = build(root, layout);
        Path manifest = root.resolve(Manifest.readCurrent(root.resolve(Manifest.CURRENT), Files.readAllBytes(root.resolve(Manifest.CURRENT))));
        Files.write(manifest, new byte[] {0, 0, 0, 40, 1, 2, 3}, java.nio.file.StandardOpenOption.APPEND); // half an edit record
        Map<String, byte[]> before = files(root);
        boolean[] torn = new boolean[1];
        try (LsmTree tree = LsmTree.openReadOnly(root, options(layout), (file, host, tornTail) -> torn[0] = tornTail)) {
            assertReads(tree, model);
        }
        assertTrue(torn[0], "the check hears of the torn tail");
        assertUnchanged(before, root);
    }

    /** A directory without a manifest (missing, or left so by a crash before the first one) reads as an empty tree, and stays as it was. */
    @ParameterizedTest
    @EnumSource(Layout.class)
    void aDirectoryWithoutAManifestReadsAsAnEmptyTreeAndIsNotMade(Layout layout) throws IOException {
        Path none = dir.resolve("none");
        Path empty = Files.createDirectories(dir.resolve("empty"));
        for (Path p : List.of(none, empty)) {
            try (LsmTree tree = LsmTree.openReadOnly(p, options(layout), RecoveryCheck.NONE)) {
                assertReads(tree, Fixtures.newModel());
                assertThrows(UnsupportedOperationException.class, () -> tree.recordHostState(new byte[1]));
            }
        }
        assertFalse(Files.exists(none), "not made");
        try (Stream<Path> s = Files.list(empty)) {
            assertNull(s.findAny().orElse(null), "nothing written into the empty directory");
        }
    }

    /** The open decides whether segment stores write: read-only store options do not make a read-write tree read-only. */
    @ParameterizedTest
    @EnumSource(Layout.class)
    void aReadWriteOpenWritesWhateverTheStoreOptionsSay(Layout layout) throws IOException {
        Path root = dir.resolve("rw");
        TreeMap<byte[], byte[]> model = build(root, layout);
        TreeOptions o = options(layout);
        try (LsmTree tree = LsmTree.open(root, o.withStore(o.store().withReadOnly(true)))) {
            TreeMap<byte[], byte[]> more = Fixtures.run(6);
            tree.flush(SortedEntries.of(more.entrySet().iterator()), null);
            Fixtures.apply(model, more);
            assertReads(tree, model);
        }
    }

    @org.junit.jupiter.api.Test
    void aLostWholeRunChainIsRefusedNotRebuilt() throws IOException {
        Path root = dir.resolve("chainless");
        build(root, Layout.WHOLE_RUN);
        Path chains = root.resolve(EverettTree.CHAINS);
        try (Stream<Path> s = Files.list(chains)) {
            for (Path chain : s.toList()) {
                try (Stream<Path> t = Files.walk(chain)) {
                    for (Path p : t.sorted(java.util.Comparator.reverseOrder()).toList()) {
                        Files.delete(p);
                    }
                }
            }
        }
        Map<String, byte[]> before = files(root);
        NoSuchFileException e = assertThrows(NoSuchFileException.class,
                () -> LsmTree.openReadOnly(root, options(Layout.WHOLE_RUN), RecoveryCheck.NONE));
        assertTrue(e.getMessage().contains("rebuilds"), e.getMessage());
        assertUnchanged(before, root);
    }
}

package dev.everett.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.api.CorruptSegmentException;
import dev.everett.api.ObjectId;
import dev.everett.api.ValueMerger;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CancellationException;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Failures, cancellation, crashes and reference counts: a compaction that does not finish leaves
 * the version and the files as they were; the manifest survives a torn tail and refuses damage;
 * no file a holder needs is deleted, and none outlives its last holder.
 */
class LifecycleTest {
    @TempDir(factory = MemoryTempDir.class)
    Path dir;

    private final FaultyFiles files = new FaultyFiles();

    private TreeOptions options(Layout layout) {
        TreeOptions o = layout == Layout.PARTITIONED
                ? TreeOptions.partitioned().withPicker(new LeveledPicker(4, 2, 1 << 20, 10)).withTargetFileBytes(1500)
                : TreeOptions.wholeRun().withPicker(new GeometricPicker(4));
        return o.withFiles(files);
    }

    private static byte[] b(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** Flushes {@code n} overlapping runs (keys k000..k199, each run overwriting some). */
    private static TreeMap<byte[], byte[]> fill(LsmTree tree, int n) throws IOException {
        TreeMap<byte[], byte[]> model = Fixtures.newModel();
        for (int run = 0; run < n; run++) {
            TreeMap<byte[], byte[]> m = Fixtures.newModel();
            for (int i = run; i < 200; i += 1 + run) {
                m.put(b(String.format("k%03d", i)), i % 7 == run ? null : b("v" + run + "-" + i));
            }
            tree.flush(SortedEntries.of(m.entrySet().iterator()), null);
            model.putAll(m);
        }
        return model;
    }

    /** Segment identities by level. */
    static List<List<ObjectId>> shape(LsmTree tree) {
        try (Version v = tree.current()) {
            List<List<ObjectId>> out = new ArrayList<>();
            for (int n = 0; n < v.levelCount(); n++) {
                out.add(v.level(n).stream().map(SegmentMeta::id).toList());
            }
            return out;
        }
    }

    /** Every file under the tree, as paths relative to it. */
    private Set<String> filesOnDisk(Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            return new java.util.TreeSet<>(s.filter(Files::isRegularFile).map(p -> root.relativize(p).toString()).toList());
        }
    }

    /** The segment and chain files under the tree (the manifest may roll over after a failed append). */
    private Set<String> dataFiles(Path root) throws IOException {
        Set<String> out = filesOnDisk(root);
        out.removeIf(f -> !f.startsWith("segments") && !f.startsWith("chains"));
        return out;
    }

    private void assertNoTemporaryFiles(Path root) throws IOException {
        for (String f : filesOnDisk(root)) {
            String name = Path.of(f).getFileName().toString();
            assertFalse(name.startsWith(".") || name.contains(".tmp"), "temporary file left: " + f);
        }
    }

    private static CompactionPlan allOf(LsmTree tree) {
        try (Version v = tree.current()) {
            List<SegmentMeta> inputs = new ArrayList<>();
            if (v.layout() == Layout.WHOLE_RUN) {
                for (int n = v.levelCount() - 1; n >= 0; n--) {
                    inputs.addAll(v.level(n));
                }
                return new CompactionPlan(inputs, 0, true, 1, "test");
            }
            for (int n = v.levelCount() - 1; n >= 1; n--) {
                inputs.addAll(v.level(n));
            }
            inputs.addAll(v.level(0).reversed());
            return new CompactionPlan(inputs, Math.max(1, v.levelCount() - 1), true, 1, "test");
        }
    }

    /** Runs a failing compaction and checks that nothing changed. */
    private void assertFailedCompactionChangesNothing(Layout layout, java.util.function.Consumer<LsmTree> arm,
                                                      ValueMerger values, Class<? extends Throwable> expected) throws IOException {
        assertFailedCompactionChangesNothing(layout, arm, values, expected, true);
    }

    /** {@code intact}: the inputs still read as they were written (false once the test damaged one). */
    private Throwable assertFailedCompactionChangesNothing(Layout layout, java.util.function.Consumer<LsmTree> arm,
                                                      ValueMerger values, Class<? extends Throwable> expected, boolean intact) throws IOException {
        Throwable t;
        Path root = dir.resolve(layout.name());
        try (LsmTree tree = LsmTree.open(root, options(layout))) {
            TreeMap<byte[], byte[]> model = fill(tree, 4);
            List<List<ObjectId>> before = shape(tree);
            Set<String> filesBefore = dataFiles(root);
            arm.accept(tree);
            CompactionPlan plan = allOf(tree);
            // A corrupt input may be refused as the job starts (a host merger's job checks every
            // body CRC before merging) or at a later step (the default merger's job takes the CRCs
            // as the merge reads): either way nothing may change.
            t = assertThrows(expected, () -> {
                try (CompactionJob job = tree.compact(plan, values)) {
                    while (!job.done()) {
                        job.step(7);
                    }
                    job.finish();
                }
            });
            files.failWhen = (op, p) -> false;
            assertEquals(before, shape(tree), "the version is unchanged after " + t);
            assertEquals(filesBefore, dataFiles(root), "the files are unchanged after " + t);
            assertTrue(tree.compacting().isEmpty());
            assertNoTemporaryFiles(root);
            if (!intact) {
                return t;
            }
            try (Version v = tree.current()) {
                ReadChecks.gets(v, model, new ArrayList<>(model.keySet()), new java.util.Random(1));
            }
            // The tree still works: the same compaction now succeeds.
            try (CompactionJob job = tree.compact(allOf(tree))) {
                while (!job.done()) {
                    job.step(1000);
                }
                job.finish();
            }
            try (Version v = tree.current()) {
                ReadChecks.gets(v, model, new ArrayList<>(model.keySet()), new java.util.Random(2));
            }
        }
        try (LsmTree tree = LsmTree.open(root, options(layout))) {
            assertNoTemporaryFiles(root);
        }
        return t;
    }

    @ParameterizedTest
    @EnumSource(Layout.class)
    void aThrowingValueMergerLeavesEverythingAsItWas(Layout layout) throws IOException {
        ValueMerger throwing = (older, newer) -> {
            throw new IllegalStateException("value merger refuses");
        };
        assertFailedCompactionChangesNothing(layout, tree -> { }, throwing, IllegalStateException.class);
    }

    @ParameterizedTest
    @EnumSource(Layout.class)
    void anIoErrorFromTheSeamLeavesEverythingAsItWas(Layout layout) throws IOException {
        // The manifest append that would install the compaction fails.
        assertFailedCompactionChangesNothing(layout, tree -> files.failWhen = (op, p) -> op.equals("append"),
                ValueMerger.NEWER_WINS, IOException.class);
    }

    @Test
    void anIoErrorOpeningASecondOutputLeavesEverythingAsItWas() throws IOException {
        int[] outputs = {0};
        assertFailedCompactionChangesNothing(Layout.PARTITIONED, tree -> files.failWhen = (op, p) ->
                        op.equals("createDirectories") && p.getParent().getFileName().toString().equals("segments") && ++outputs[0] == 2,
                ValueMerger.NEWER_WINS, IOException.class);
    }

    @ParameterizedTest
    @EnumSource(Layout.class)
    void aCorruptInputFailsTheCompactionAndLeavesEverythingAsItWas(Layout layout) throws IOException {
        assertCorruptInputFailsTheJob(layout, false);
    }

    /**
     * An input whose body was checked by earlier reads and then damaged on disk (its mapping
     * shows the damage) still fails the job: the job checks each input's CRC itself.
     */
    @ParameterizedTest
    @EnumSource(Layout.class)
    void anInputDamagedAfterItWasReadStillFailsTheCompaction(Layout layout) throws IOException {
        assertCorruptInputFailsTheJob(layout, true);
    }

    /**
     * With a host's value merger the job checks every input before merging (the merger must see
     * only checked values): a damaged input fails the job before the merger is ever called.
     */
    @ParameterizedTest
    @EnumSource(Layout.class)
    void aCorruptInputFailsACompactionWithAHostMergerBeforeTheMergerSeesAValue(Layout layout) throws IOException {
        int[] calls = {0};
        ValueMerger counting = (older, newer) -> {
            calls[0]++;
            return newer;
        };
        assertCorruptInputFailsTheJob(layout, false, counting);
        assertEquals(0, calls[0], "the merger saw values of a damaged input");
    }

    private void assertCorruptInputFailsTheJob(Layout layout, boolean readFirst) throws IOException {
        assertCorruptInputFailsTheJob(layout, readFirst, ValueMerger.NEWER_WINS);
    }

    private void assertCorruptInputFailsTheJob(Layout layout, boolean readFirst, ValueMerger values) throws IOException {
        Path[] damaged = new Path[1];
        Throwable t = assertFailedCompactionChangesNothing(layout, tree -> {
            try (Version v = tree.current()) {
                if (readFirst) {
                    try (TreeCursor c = v.cursor()) {
                        for (c.seekToFirst(); c.valid(); c.next()) {
                            c.valueBytes();
                        }
                    }
                }
                SegmentMeta victim = v.level(v.levelCount() - 1).getFirst();
                Path kv = victim.id().path(((EverettTree) tree).segments().segmentDirectory(victim.id()), ".kv");
                damaged[0] = kv;
                Fixtures.damageBody(kv);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }, values, CorruptSegmentException.class, false);
        assertTrue(t.getMessage().contains(damaged[0].getFileName().toString()), "the error names the damaged file: " + t.getMessage());
    }

    @ParameterizedTest
    @EnumSource(Layout.class)
    void aCancelledCompactionLeavesEverythingAsItWas(Layout layout) throws IOException {
        Path root = dir.resolve(layout.name());
        try (LsmTree tree = LsmTree.open(root, options(layout))) {
            fill(tree, 4);
            List<List<ObjectId>> before = shape(tree);
            Set<String> filesBefore = dataFiles(root);
            try (CompactionJob job = tree.compact(allOf(tree))) {
                while (job.progress().inputRecords() == 0) {
                    job.step(10); // the first steps may prepare the inputs (copy or check them), then merging starts
                }
                job.cancel();
                assertTrue(job.cancelled());
                assertThrows(CancellationException.class, () -> job.step(10));
            }
            assertEquals(before, shape(tree));
            assertEquals(filesBefore, dataFiles(root));
            assertNoTemporaryFiles(root);
        }
    }

    /** The byte offsets at which the manifest's records start. */
    private static List<Integer> recordOffsets(byte[] manifest) {
        List<Integer> out = new ArrayList<>();
        int at = 0;
        while (at + 8 <= manifest.length) {
            out.add(at);
            int len = ((manifest[at] & 0xFF) << 24) | ((manifest[at + 1] & 0xFF) << 16) | ((manifest[at + 2] & 0xFF) << 8) | (manifest[at + 3] & 0xFF);
            at += 8 + len;
        }
        return out;
    }

    /** A tree at {@code root} with three flushed runs, closed again; its model. */
    private TreeMap<byte[], byte[]> filledAndClosed(Path root, Layout layout) throws IOException {
        try (LsmTree tree = LsmTree.open(root, options(layout))) {
            return fill(tree, 3);
        }
    }

    /**
     * A crash while a file was being written inside a live segment or chain (a key filter is
     * written lazily, after its segment was named) leaves a temporary file no edit accounts for:
     * the next open deletes it, and only it.
     */
    @ParameterizedTest
    @EnumSource(Layout.class)
    void openDeletesTemporaryFilesACrashLeftInsideLiveSegmentsAndChains(Layout layout) throws IOException {
        Path root = dir.resolve(layout.name());
        TreeMap<byte[], byte[]> model = filledAndClosed(root, layout);
        Set<String> published = filesOnDisk(root);
        List<Path> planted = new ArrayList<>();
        for (String area : new String[] {"segments", "chains"}) {
            try (Stream<Path> s = Files.walk(root.resolve(area))) {
                for (Path f : s.filter(Files::isRegularFile).filter(f -> f.getFileName().toString().endsWith(".kv")).limit(2).toList()) {
                    Path tmp = f.resolveSibling("." + f.getFileName() + ".filter.tmp-5eed" + planted.size());
                    Files.write(tmp, new byte[] {1, 2, 3});
                    planted.add(tmp);
                }
            }
        }
        assertTrue(planted.size() >= (layout == Layout.WHOLE_RUN ? 3 : 2), "the test planted files in segments" + (layout == Layout.WHOLE_RUN ? " and chains" : "") + ": " + planted);
        try (LsmTree tree = LsmTree.open(root, options(layout))) {
            for (Path p : planted) {
                assertFalse(Files.exists(p), "temporary file left after open: " + p);
            }
            assertNoTemporaryFiles(root);
            Set<String> kept = filesOnDisk(root);
            Set<String> missing = new java.util.TreeSet<>(published);
            missing.removeAll(kept);
            missing.removeIf(f -> !f.startsWith("segments") && !f.startsWith("chains"));
            assertTrue(missing.isEmpty(), "open deleted published files: " + missing);
            try (Version v = tree.current()) {
                ReadChecks.gets(v, model, new ArrayList<>(model.keySet()), new java.util.Random(5));
            }
        }
    }

    /**
     * Garbage that cannot be deleted at open (an unnamed segment directory whose files refuse to
     * go) does not make the tree unopenable: open warns, reads go on, and the next open deletes it.
     */
    @ParameterizedTest
    @EnumSource(Layout.class)
    void garbageThatCannotBeDeletedDoesNotStopOpen(Layout layout) throws IOException {
        Path root = dir.resolve(layout.name());
        TreeMap<byte[], byte[]> model = filledAndClosed(root, layout);
        Path garbage = root.resolve("segments").resolve(ObjectId.random().hex());
        Files.createDirectories(garbage);
        Files.write(garbage.resolve("left-by-a-crash"), new byte[] {7});
        files.failWhen = (op, p) -> op.equals("delete") && p.startsWith(garbage);
        java.util.logging.Logger log = java.util.logging.Logger.getLogger(EverettTree.class.getName());
        List<String> warnings = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.logging.Handler capture = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord r) {
                warnings.add(r.getLevel() + " " + r.getMessage());
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        boolean parents = log.getUseParentHandlers();
        log.setUseParentHandlers(false); // the warning is expected here: keep it off the console
        log.addHandler(capture);
        try {
            try (LsmTree tree = LsmTree.open(root, options(layout)); Version v = tree.current()) {
                ReadChecks.gets(v, model, new ArrayList<>(model.keySet()), new java.util.Random(9));
            }
        } finally {
            log.removeHandler(capture);
            log.setUseParentHandlers(parents);
            files.failWhen = (op, p) -> false;
        }
        assertTrue(Files.exists(garbage), "the undeletable garbage is still there");
        assertTrue(warnings.stream().anyMatch(w -> w.startsWith("WARNING") && w.contains(garbage.toString())), "open warned, naming it: " + warnings);
        try (LsmTree tree = LsmTree.open(root, options(layout))) {
            assertFalse(Files.exists(garbage), "the next open deletes it");
        }
    }

    private static Path manifestOf(Path root) throws IOException {
        String name = Files.readString(root.resolve("CURRENT")).split(" ")[0];
        return root.resolve(name);
    }

    @ParameterizedTest
    @EnumSource(Layout.class)
    void aTornManifestTailReplaysToTheLastCompleteEdit(Layout layout) throws IOException {
        Path root = dir.resolve(layout.name());
        List<List<ObjectId>> beforeLast;
        TreeMap<byte[], byte[]> model;
        try (LsmTree tree = LsmTree.open(root, options(layout))) {
            model = fill(tree, 3);
            beforeLast = shape(tree);
            TreeMap<byte[], byte[]> last = Fixtures.newModel();
            last.put(b("k005"), b("lost"));
            tree.flush(SortedEntries.of(last.entrySet().iterator()), b("host"));
        }
        Path manifest = manifestOf(root);
        byte[] bytes = Files.readAllBytes(manifest);
        int lastRecord = recordOffsets(bytes).getLast();
        for (int cut : new int[] {bytes.length - 1, lastRecord + 5, lastRecord + 9}) {
            Path copy = dir.resolve("copy-" + layout + "-" + cut);
            copyTree(root, copy);
            Path m = copy.resolve(manifest.getFileName());
            Files.write(m, java.util.Arrays.copyOf(bytes, cut));
            try (LsmTree tree = LsmTree.open(copy, options(layout))) {
                assertEquals(beforeLast, shape(tree), "replay stops at the last complete edit (cut at " + cut + ")");
                try (Version v = tree.current()) {
                    assertEquals(0, v.hostState().length, "the torn edit's host state is not applied");
                    ReadChecks.gets(v, model, new ArrayList<>(model.keySet()), new java.util.Random(3));
                }
                assertEquals(TreeModelTest.segmentsIn(tree.current()), ((EverettTree) tree).segments().list().size(),
                        "the torn edit's segment is deleted as unnamed");
            }
            // The rolled-over manifest replays again.
            try (LsmTree tree = LsmTree.open(copy, options(layout))) {
                assertEquals(beforeLast, shape(tree));
            }
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(p, t);
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Layout.class)
    void aCorruptManifestRecordFailsOpenNamingFileAndOffset(Layout layout) throws IOException {
        Path root = dir.resolve(layout.name());
        List<List<ObjectId>> shape;
        try (LsmTree tree = LsmTree.open(root, options(layout))) {
            fill(tree, 3);
            shape = shape(tree);
        }
        Path manifest = manifestOf(root);
        byte[] bytes = Files.readAllBytes(manifest);
        List<Integer> records = recordOffsets(bytes);
        int victim = records.get(1);
        bytes[victim + 12] ^= 0x01;
        Files.write(manifest, bytes);
        CorruptManifestException e = assertThrows(CorruptManifestException.class, () -> LsmTree.open(root, options(layout)));
        assertEquals(victim, e.offset());
        assertEquals(manifest, e.file());
        assertTrue(e.getMessage().contains(manifest.toString()) && e.getMessage().contains("@" + victim), e.getMessage());
        // Nothing was deleted by the failed open: repairing the byte makes the tree whole again.
        bytes[victim + 12] ^= 0x01;
        Files.write(manifest, bytes);
        try (LsmTree tree = LsmTree.open(root, options(layout))) {
            assertEquals(shape, shape(tree));
        }
    }

    @ParameterizedTest
    @EnumSource(Layout.class)
    void filesHeldByAVersionOrCursorOutliveTheEditAndGoWithTheLastHolder(Layout layout) throws IOException {
        Path root = dir.resolve(layout.name());
        try (LsmTree tree = LsmTree.open(root, options(layout))) {
            TreeMap<byte[], byte[]> model = fill(tree, 3);
            Version old = tree.current();
            TreeCursor cursor = old.cursor();
            cursor.seekToFirst();
            Set<ObjectId> oldIds = new java.util.HashSet<>();
            for (int n = 0; n < old.levelCount(); n++) {
                old.level(n).forEach(m -> oldIds.add(m.id()));
            }
            try (CompactionJob job = tree.compact(allOf(tree))) {
                while (!job.done()) {
                    job.step(1000);
                }
                job.finish();
            }
            SegmentFiles segs = ((EverettTree) tree).segments();
            assertTrue(segs.list().containsAll(oldIds), "a held version keeps its segments");
            old.close();
            assertTrue(segs.list().containsAll(oldIds), "an open cursor keeps its segments");
            // The cursor still reads the old version in full.
            int n = 0;
            for (; cursor.valid(); cursor.next()) {
                n++;
            }
            assertEquals(Fixtures.visible(model).size(), n);
            cursor.close();
            for (ObjectId id : oldIds) {
                assertFalse(segs.list().contains(id), "no obsolete segment remains after its last holder closes");
            }
            assertEquals(TreeModelTest.segmentsIn(tree.current()), tree.liveSegmentCount());
            assertEquals(0, segs.openCount() - TreeModelTest.segmentsIn(tree.current()), "only the current version's segments are open");
            if (layout == Layout.WHOLE_RUN) {
                assertEquals(1, Files.list(root.resolve("chains")).count(), "one whole-run chain directory remains");
            }
        }
    }
}

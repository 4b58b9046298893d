package dev.everett.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.everett.api.ObjectId;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A manifest append whose bytes reached the file but whose force failed (an fsync error): the
 * edit may be durable. When the rollover that should settle it fails too, the old manifest, which
 * CURRENT still names, may hold the edit; the outputs it names must then stay on disk (the next
 * open keeps them if the edit is there, and sweeps them as unnamed if not). Deleting them left a
 * manifest naming missing segments, and the tree refused to open.
 */
class EditInDoubtTest {
    @TempDir(factory = MemoryTempDir.class)
    Path dir;

    /** The real file system; once armed, a manifest append writes its record and then fails, and so does every new manifest. */
    private static final class ForceFails extends ForwardingStorageFiles {
        volatile boolean armed;

        private static boolean manifest(Path p) {
            return p.getFileName().toString().startsWith(Manifest.PREFIX);
        }

        @Override
        public void append(Path file, byte[] bytes) throws IOException {
            super.append(file, bytes);
            if (armed && manifest(file)) {
                throw new IOException("injected: force of " + file + " failed after its write");
            }
        }

        @Override
        public void writeNew(Path file, byte[] bytes) throws IOException {
            if (armed && manifest(file)) {
                throw new IOException("injected: cannot write " + file);
            }
            super.writeNew(file, bytes);
        }
    }

    private static TreeOptions options(Layout layout, StorageFiles files) {
        TreeOptions o = layout == Layout.PARTITIONED
                ? TreeOptions.partitioned().withPicker(new LeveledPicker(4, 2, 1 << 20, 10)).withTargetFileBytes(1500)
                : TreeOptions.wholeRun().withPicker(new GeometricPicker(4));
        return o.withFiles(files);
    }


    @ParameterizedTest
    @EnumSource(Layout.class)
    void aFlushWhoseEditIsInDoubtKeepsItsSegments(Layout layout) throws IOException {
        Path root = dir.resolve(layout.name());
        ForceFails files = new ForceFails();
        TreeMap<byte[], byte[]> model = Fixtures.newModel();
        try (LsmTree tree = LsmTree.open(root, options(layout, files))) {
            for (int r = 0; r < 2; r++) {
                TreeMap<byte[], byte[]> m = Fixtures.run(r);
                tree.flush(SortedEntries.of(m.entrySet().iterator()), null);
                model.putAll(m);
            }
            files.armed = true;
            TreeMap<byte[], byte[]> last = Fixtures.run(2);
            assertThrows(IOException.class, () -> tree.flush(SortedEntries.of(last.entrySet().iterator()), null));
            model.putAll(last); // the edit reached the manifest CURRENT names
        }
        assertReopens(root, layout, model);
    }

    @ParameterizedTest
    @EnumSource(Layout.class)
    void aCompactionWhoseEditIsInDoubtKeepsItsOutputs(Layout layout) throws IOException {
        Path root = dir.resolve(layout.name());
        ForceFails files = new ForceFails();
        TreeMap<byte[], byte[]> model = Fixtures.newModel();
        try (LsmTree tree = LsmTree.open(root, options(layout, files))) {
            for (int r = 0; r < 3; r++) {
                TreeMap<byte[], byte[]> m = Fixtures.run(r);
                tree.flush(SortedEntries.of(m.entrySet().iterator()), null);
                model.putAll(m);
            }
            CompactionPlan plan;
            try (Version v = tree.current()) {
                List<SegmentMeta> inputs = new ArrayList<>();
                if (layout == Layout.WHOLE_RUN) {
                    for (int n = v.levelCount() - 1; n >= 0; n--) {
                        inputs.addAll(v.level(n));
                    }
                    plan = new CompactionPlan(inputs, 0, true, 1, "test");
                } else {
                    inputs.addAll(v.level(0).reversed());
                    plan = new CompactionPlan(inputs, 1, true, 1, "test");
                }
            }
            try (CompactionJob job = tree.compact(plan)) {
                while (!job.done()) {
                    job.step(1000);
                }
                files.armed = true;
                assertThrows(IOException.class, job::finish);
            }
        }
        assertReopens(root, layout, model);
    }

    private void assertReopens(Path root, Layout layout, TreeMap<byte[], byte[]> model) throws IOException {
        try (LsmTree tree = LsmTree.open(root, options(layout, StorageFiles.system()))) {
            try (Version v = tree.current()) {
                ReadChecks.gets(v, model, new ArrayList<>(model.keySet()), new java.util.Random(1));
            }
            List<ObjectId> named = new ArrayList<>();
            try (Version v = tree.current()) {
                for (int n = 0; n < v.levelCount(); n++) {
                    v.level(n).forEach(m -> named.add(m.id()));
                }
            }
            assertEquals(named.size(), ((EverettTree) tree).segments().list().size(), "no unnamed segment is left after open");
        }
    }
}

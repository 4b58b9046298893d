package dev.everett.compaction;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A whole-run chain's objects are hard links into its directory ({@code chains/<id>/ab/cd/...}).
 * A link is a name in its directory, durable only once that directory is forced; the manifest
 * edit naming the chain is forced right after the build, so a machine crash may keep the edit and
 * the chain's (forced) directory but lose links in it. Open rebuilds a chain only when its
 * directory is missing, so it then opens a chain with objects missing. This test simulates the
 * crash: every link whose directory the tree never forced is taken away before reopening.
 */
class ChainLinkDurabilityTest {
    @TempDir(factory = MemoryTempDir.class)
    Path dir;

    /** The real file system, remembering the links made whose directory has not been forced since. */
    private static final class Links extends ForwardingStorageFiles {
        final Set<Path> unforced = new HashSet<>();

        @Override
        public synchronized void link(Path link, Path existing) throws IOException {
            super.link(link, existing);
            unforced.add(link);
        }

        @Override
        public synchronized void forceDirectory(Path d) throws IOException {
            super.forceDirectory(d);
            unforced.removeIf(p -> p.getParent().equals(d));
        }

        @Override
        public synchronized void delete(Path path) throws IOException {
            super.delete(path);
            unforced.remove(path);
        }
    }

    @Test
    void aChainWhoseLinksWereNeverForcedStillReadsAfterACrash() throws IOException {
        Links files = new Links();
        TreeOptions options = TreeOptions.wholeRun().withPicker(new GeometricPicker(4)).withFiles(files);
        TreeMap<byte[], byte[]> model = Fixtures.newModel();
        try (LsmTree tree = LsmTree.open(dir, options)) {
            for (int run = 0; run < 3; run++) {
                TreeMap<byte[], byte[]> m = Fixtures.run(run);
                tree.flush(SortedEntries.of(m.entrySet().iterator()), null);
                model.putAll(m);
            }
        }
        // The crash: names the tree never forced into their directories are lost.
        List<Path> lost;
        synchronized (files) {
            lost = new ArrayList<>(files.unforced);
        }
        for (Path p : lost) {
            Files.deleteIfExists(p);
        }
        try (LsmTree tree = LsmTree.open(dir, TreeOptions.wholeRun().withPicker(new GeometricPicker(4)))) {
            try (Version v = tree.current()) {
                ReadChecks.gets(v, model, new ArrayList<>(model.keySet()), new java.util.Random(1));
                try (TreeCursor c = v.cursor()) {
                    int n = 0;
                    for (c.seekToFirst(); c.valid(); c.next()) {
                        n++;
                    }
                    org.junit.jupiter.api.Assertions.assertEquals(model.size(), n);
                }
            }
        }
    }
}

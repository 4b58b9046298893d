package dev.everett.merge;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.everett.api.CommonWidthRule;
import dev.everett.api.IndexedSegment;
import dev.everett.api.MergeEngine;
import dev.everett.api.MergeJob;
import dev.everett.api.ObjectId;
import dev.everett.api.ObjectStore;
import dev.everett.api.Policy;
import dev.everett.api.SegmentEngine;
import dev.everett.api.SegmentWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A merge publishes into an object store through {@code nativePath}: into a fresh identity it
 * succeeds and the store reads the output; into an existing one it is refused with
 * {@link FileAlreadyExistsException} naming the path, and the object an index points to stays.
 */
class MergeIntoStoreTest {
    @TempDir
    Path dir;

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static ObjectId write(ObjectStore store, String... kv) throws Exception {
        ObjectId id = ObjectId.random();
        try (SegmentWriter w = store.newSegment(id, CommonWidthRule.policy())) {
            for (int i = 0; i < kv.length; i += 2) {
                w.put(b(kv[i]), b(kv[i + 1]));
            }
            w.finish();
        }
        return id;
    }

    private static void merge(ObjectStore store, ObjectId older, ObjectId newer, Path into) throws Exception {
        try (MergeJob job = MergeEngine.load().merge(List.of(store.openNative(older), store.openNative(newer))).into(into).start()) {
            while (!job.done()) {
                job.step(64);
            }
            job.finish();
        }
    }

    @Test
    void aMergeIntoAnExistingObjectIsRefusedAndIntoAFreshOneIsRead() throws Exception {
        try (ObjectStore store = SegmentEngine.load().openObjectStore(dir.resolve("store"), Policy.defaultBytes())) {
            ObjectId older = write(store, "a", "1", "b", "2");
            ObjectId newer = write(store, "b", "20", "c", "3");
            IndexedSegment indexed = store.indexSegment(older);
            byte[] before = Files.readAllBytes(store.nativePath(older));

            FileAlreadyExistsException e = assertThrows(FileAlreadyExistsException.class,
                    () -> merge(store, older, newer, store.nativePath(older)));
            assertEquals(store.nativePath(older).toAbsolutePath().toString(), e.getFile());
            assertArrayEquals(before, Files.readAllBytes(store.nativePath(older)));
            assertArrayEquals(b("2"), indexed.get(b("b")).valueBytes());
            try (Stream<Path> files = Files.walk(store.root())) {
                assertEquals(List.of(), files.filter(p -> p.getFileName().toString().contains(".tmp-")).toList());
            }

            ObjectId merged = ObjectId.random();
            merge(store, older, newer, store.nativePath(merged));
            try (IndexedSegment seg = store.indexSegment(merged)) {
                assertArrayEquals(b("1"), seg.get(b("a")).valueBytes());
                assertArrayEquals(b("20"), seg.get(b("b")).valueBytes());
                assertArrayEquals(b("3"), seg.get(b("c")).valueBytes());
            }
        }
    }
}

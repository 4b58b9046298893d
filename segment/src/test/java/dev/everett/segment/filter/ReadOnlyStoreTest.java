package dev.everett.segment.filter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.api.CatalogRef;
import dev.everett.api.CommonWidthRule;
import dev.everett.api.FilterPolicy;
import dev.everett.api.IndexedSegment;
import dev.everett.api.Lookup;
import dev.everett.api.ObjectId;
import dev.everett.api.ObjectStore;
import dev.everett.api.ObjectStoreOptions;
import dev.everett.api.Policy;
import dev.everett.api.SegmentWriter;
import dev.everett.segment.EverettSegmentEngine;
import dev.everett.segment.cascade.CascadeTest;
import dev.everett.segment.testing.DirectoryContents;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ObjectStoreOptions#readOnly()}: an object store that changes nothing under its root. It
 * uses key filters that are present and current, reads a chain without filters when one is
 * missing (never as if that native held nothing), and refuses every call that writes.
 */
class ReadOnlyStoreTest {
    @TempDir
    Path dir;

    private static final EverettSegmentEngine ENGINE = new EverettSegmentEngine();
    private static final ObjectStoreOptions FILTERED = ObjectStoreOptions.defaults().withFilters(FilterPolicy.bloom(10));
    private static final ObjectStoreOptions READ_ONLY = FILTERED.withReadOnly(true);

    private static Map<String, byte[]> files(Path root) throws IOException {
        return DirectoryContents.of(root);
    }

    private static void assertUnchanged(Map<String, byte[]> before, Path root) throws IOException {
        DirectoryContents.assertUnchanged(before, root, "the read-only store");
    }

    /** An indexed segment's head and its native's identity. */
    private record Written(CatalogRef head, ObjectId id) {
    }

    /** A store at {@code root} holding one indexed segment of the even keys below 1,000. */
    private static Written write(Path root) throws Exception {
        try (ObjectStore store = ENGINE.openObjectStore(root, Policy.defaultBytes(), FILTERED)) {
            ObjectId id = ObjectId.random();
            try (SegmentWriter w = store.newSegment(id, CommonWidthRule.policy())) {
                for (int i = 0; i < 1_000; i += 2) {
                    w.put(CascadeTest.structured(i), new byte[] {(byte) i});
                }
                w.finish();
            }
            IndexedSegment seg = store.indexSegment(id);
            assertTrue(seg.filtered());
            return new Written(seg.head(), id);
        }
    }

    private static void assertAnswers(IndexedSegment seg) {
        for (int i = 0; i < 1_000; i++) {
            Lookup l = seg.get(CascadeTest.structured(i));
            if (i % 2 == 0) {
                assertEquals(Lookup.Status.VALUE, l.status(), "key " + i + " is there");
                assertArrayEquals(new byte[] {(byte) i}, l.valueBytes());
            } else {
                assertEquals(Lookup.Status.ABSENT, l.status(), "key " + i + " is not");
            }
        }
    }

    @Test
    void readsWithItsFiltersAndRefusesEveryWrite() throws Exception {
        Path root = dir.resolve("store");
        CatalogRef head = write(root).head();
        Map<String, byte[]> before = files(root);
        try (ObjectStore store = ENGINE.openObjectStore(root, Policy.defaultBytes(), READ_ONLY)) {
            IndexedSegment seg = store.openSegment(head);
            assertTrue(seg.filtered(), "a filter that is present and current is used");
            assertAnswers(seg);
            ObjectId other = ObjectId.random();
            for (org.junit.jupiter.api.function.Executable write : new org.junit.jupiter.api.function.Executable[] {
                    () -> store.newSegment(other, CommonWidthRule.policy()),
                    () -> store.nativePath(other),
                    () -> store.index(head.nativeId(), null, null),
                    () -> store.indexSegment(head.nativeId()),
                    () -> store.prepareHead(head, null),
                    () -> store.delete(head.nativeId())}) {
                UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, write);
                assertTrue(e.getMessage().contains("read-only"), e.getMessage());
            }
        }
        assertUnchanged(before, root);
    }

    @Test
    void aMissingFilterIsNotWrittenAndTheChainIsReadWithoutFilters() throws Exception {
        Path root = dir.resolve("store");
        Written written = write(root);
        Files.delete(written.id().path(root, ".filter"));
        Map<String, byte[]> before = files(root);
        try (ObjectStore store = ENGINE.openObjectStore(root, Policy.defaultBytes(), READ_ONLY)) {
            IndexedSegment seg = store.openSegment(written.head());
            assertFalse(seg.filtered(), "no filter stands in for the missing one");
            assertAnswers(seg);
        }
        assertUnchanged(before, root);
        try (ObjectStore store = ENGINE.openObjectStore(root, Policy.defaultBytes(), FILTERED)) {
            assertTrue(store.openSegment(written.head()).filtered(), "a store that writes rebuilds it");
        }
        assertTrue(Files.exists(written.id().path(root, ".filter")));
    }

    /** A filter made for other bytes (here another native's, under this one's name) is never trusted read-only. */
    @Test
    void aStaleFilterIsNotUsedAndNotRewritten() throws Exception {
        Path root = dir.resolve("store");
        Written written = write(root);
        ObjectId other = ObjectId.random();
        try (ObjectStore store = ENGINE.openObjectStore(root, Policy.defaultBytes(), FILTERED)) {
            try (SegmentWriter w = store.newSegment(other, CommonWidthRule.policy())) {
                for (int i = 1; i < 1_000; i += 2) {
                    w.put(CascadeTest.structured(i), new byte[] {(byte) i});
                }
                w.finish();
            }
            store.indexSegment(other);
        }
        Files.copy(other.path(root, ".filter"), written.id().path(root, ".filter"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Map<String, byte[]> before = files(root);
        try (ObjectStore store = ENGINE.openObjectStore(root, Policy.defaultBytes(), READ_ONLY)) {
            IndexedSegment seg = store.openSegment(written.head());
            assertFalse(seg.filtered(), "the odd keys' filter does not stand for the even keys");
            assertAnswers(seg);
        }
        assertUnchanged(before, root);
    }

    @Test
    void aMissingRootOrDescriptorIsRefusedNotCreated() throws Exception {
        Path none = dir.resolve("none");
        assertThrows(NoSuchFileException.class, () -> ENGINE.openObjectStore(none, Policy.defaultBytes(), READ_ONLY));
        assertFalse(Files.exists(none));
        Path root = dir.resolve("store");
        write(root);
        try (Stream<Path> s = Files.list(root)) {
            for (Path p : s.filter(Files::isRegularFile).toList()) {
                Files.delete(p); // the OBJECTS descriptor
            }
        }
        Map<String, byte[]> before = files(root);
        NoSuchFileException e = assertThrows(NoSuchFileException.class, () -> ENGINE.openObjectStore(root, Policy.defaultBytes(), READ_ONLY));
        assertTrue(e.getMessage().contains("read-only"), e.getMessage());
        assertUnchanged(before, root);
    }
}

package dev.everett.segment.objects;

import static dev.everett.segment.objects.StoreFixture.key;
import static dev.everett.segment.objects.StoreFixture.value;
import static dev.everett.segment.objects.StoreFixture.write;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.api.CatalogRef;
import dev.everett.api.Chain;
import dev.everett.api.CommonWidthRule;
import dev.everett.api.IndexedSegment;
import dev.everett.api.KeyRange;
import dev.everett.api.ObjectId;
import dev.everett.api.ObjectStore;
import dev.everett.api.ObjectStoreOptions;
import dev.everett.api.OpenMode;
import dev.everett.api.Policy;
import dev.everett.api.SeekCursor;
import dev.everett.segment.EverettSegmentEngine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Misuse is not corruption: a wrong argument throws {@link IllegalArgumentException} or
 * {@link NullPointerException} naming the argument and what was expected, never the
 * {@code CorruptSegmentException} a host would quarantine files on.
 */
class MisuseTest extends StoreTestBase {
    private static final Policy POLICY = Policy.defaultBytes();

    @Test
    void aCatalogThatIsNotAPreparedHeadIsAWrongArgument() throws IOException {
        try (ObjectStore store = store()) {
            ObjectId id = write(store, "k", 200);
            CatalogRef bottom = store.index(id, null, null); // 200 occurrences, K = 15: not a head
            for (boolean segment : new boolean[] {false, true}) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                        () -> { if (segment) store.openSegment(bottom); else store.openChain(bottom); });
                assertTrue(e.getMessage().contains("is not a prepared query head") && e.getMessage().contains(bottom.indexId().hex())
                        && e.getMessage().contains("200 occurrences") && e.getMessage().contains("prepareHead"), e.getMessage());
            }
            // Prepared, the same catalog answers.
            try (Chain c = store.openChain(store.prepareHead(bottom, null))) {
                assertArrayEquals(value("k", 7, "v"), c.get(key("k", 7)).valueBytes());
            }
        }
    }

    @Test
    void aChainOfSeveralRunsIsRefusedBySegmentOpenAndAnsweredByChainOpen() throws IOException {
        try (ObjectStore store = store()) {
            ObjectId older = write(store, "a", 40);
            ObjectId newer = write(store, "b", 40);
            CatalogRef olderCatalog = store.index(older, null, null);
            CatalogRef stacked = store.prepareHead(store.index(newer, olderCatalog, null), null);
            CatalogRef withLeaf = store.prepareHead(olderCatalog, newer);
            for (CatalogRef head : new CatalogRef[] {stacked, withLeaf}) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> store.openSegment(head));
                assertTrue(e.getMessage().contains("is not a single segment's chain") && e.getMessage().contains("openChain"), e.getMessage());
                try (Chain c = store.openChain(head)) {
                    assertArrayEquals(value("a", 3, "v"), c.get(key("a", 3)).valueBytes());
                    assertArrayEquals(value("b", 3, "v"), c.get(key("b", 3)).valueBytes());
                }
            }
        }
    }

    @Test
    void aRefPairingAnIndexWithAnotherNativeIsAWrongArgument() throws IOException {
        try (ObjectStore store = store()) {
            ObjectId a = write(store, "a", 5);
            ObjectId b = write(store, "b", 5);
            CatalogRef head = store.indexSegment(a).head();
            CatalogRef wrong = new CatalogRef(b, head.indexId());
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> store.openChain(wrong));
            assertTrue(e.getMessage().contains("indexes native " + head.nativeId()) && e.getMessage().contains("not " + b), e.getMessage());
        }
    }

    @Test
    void nullArgumentsAreNamed() throws IOException {
        try (ObjectStore store = store()) {
            ObjectId id = write(store, "k", 20);
            IndexedSegment seg = store.indexSegment(id);
            assertNpe("head", () -> store.openChain(null));
            assertNpe("head", () -> store.openSegment(null));
            assertNpe("key", () -> seg.get(null));
            assertNpe("range", () -> seg.cursor(null));
            try (SeekCursor c = seg.cursor(KeyRange.all())) {
                assertNpe("target", () -> c.seek(null));
                assertNpe("target", () -> c.seekForPrev(null));
            }
            assertNpe("id", () -> store.newSegment(null, CommonWidthRule.policy()));
            assertNpe("rule", () -> store.newSegment(ObjectId.random(), null));
            assertNpe("id", () -> store.openNative(null));
            assertNpe("id", () -> store.nativePath(null));
            assertNpe("id", () -> store.delete(null));
            assertNpe("nativeId", () -> store.index(null, null, null));
            assertNpe("nativeId", () -> store.indexSegment(null));
            assertNpe("nativeId", () -> new CatalogRef(null, id));
            assertNpe("indexId", () -> new CatalogRef(id, null));
        }
    }

    @Test
    void aDirectoryWhereAFileIsExpectedIsNamed() throws IOException {
        EverettSegmentEngine engine = new EverettSegmentEngine();
        Path d = Files.createDirectories(dir.resolve("not-a-file.kv"));
        IllegalArgumentException open = assertThrows(IllegalArgumentException.class, () -> engine.open(d, POLICY, OpenMode.TYPED));
        assertTrue(open.getMessage().contains(d.toString()) && open.getMessage().contains("is a directory"), open.getMessage());
        IllegalArgumentException describe = assertThrows(IllegalArgumentException.class, () -> engine.describe(d));
        assertTrue(describe.getMessage().contains(d.toString()), describe.getMessage());
        try (ObjectStore store = store()) {
            ObjectId id = ObjectId.random();
            Path object = Files.createDirectories(id.path(store.root(), ".kv"));
            IllegalArgumentException native_ = assertThrows(IllegalArgumentException.class, () -> store.openNative(id));
            assertTrue(native_.getMessage().contains(object.toString()), native_.getMessage());
        }
        Path file = Files.writeString(dir.resolve("a-file"), "x");
        IllegalArgumentException root = assertThrows(IllegalArgumentException.class,
                () -> new MappedObjectStore(file, POLICY, ObjectStoreOptions.defaults()));
        assertTrue(root.getMessage().contains(file.toString()) && root.getMessage().contains("not a directory"), root.getMessage());
    }

    private interface Call {
        void run() throws Exception;
    }

    private static void assertNpe(String argument, Call call) {
        NullPointerException e = assertThrows(NullPointerException.class, call::run);
        assertEquals(argument, e.getMessage());
    }
}

package dev.everett.segment.objects;

import static dev.everett.segment.objects.StoreFixture.key;
import static dev.everett.segment.objects.StoreFixture.value;
import static dev.everett.segment.objects.StoreFixture.write;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.api.Chain;
import dev.everett.api.IndexedSegment;
import dev.everett.api.KeyRange;
import dev.everett.api.ObjectId;
import dev.everett.api.ObjectStore;
import dev.everett.api.SeekCursor;
import dev.everett.api.SegmentCursor;
import dev.everett.api.SegmentReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * One lifecycle rule for everything an object store hands out: a handle over shared mappings.
 * Closing a handle ends it alone; use after it, or after the store closes, throws
 * {@link IllegalStateException} naming the object; an object is deleted once no handle holds it.
 */
class LifecycleTest extends StoreTestBase {
    @Test
    void closingAHandedOutReaderLeavesChainsAndLaterReadersWorking() throws IOException {
        try (ObjectStore store = store()) {
            ObjectId id = write(store, "k", 100);
            IndexedSegment seg = store.indexSegment(id);
            SegmentReader first;
            try (SegmentReader r = store.openNative(id)) { // as try-with-resources invites
                first = r;
                assertEquals(100, r.recordCount());
            }
            assertArrayEquals(value("k", 42, "v"), seg.get(key("k", 42)).valueBytes());
            try (SeekCursor c = seg.cursor(KeyRange.all())) {
                c.seekToFirst();
                assertArrayEquals(key("k", 0), c.keyBytes());
            }
            try (SegmentReader again = store.openNative(id); SegmentCursor c = again.cursor()) {
                assertTrue(c.next());
                assertArrayEquals(key("k", 0), c.keyBytes());
            }
            IllegalStateException e = assertThrows(IllegalStateException.class, first::recordCount);
            assertTrue(e.getMessage().contains(id.hex()) && e.getMessage().contains(".kv") && e.getMessage().contains("is closed"), e.getMessage());
            // natives() of a segment: closing it ends that reader only.
            SegmentReader n = seg.natives();
            n.close();
            assertThrows(IllegalStateException.class, n::cursor);
            assertEquals(100, seg.natives().recordCount());
            assertTrue(seg.get(key("k", 1)).found());
        }
    }

    @Test
    void everyUseAfterTheStoreClosesNamesTheObject() throws IOException {
        ObjectStore store = store();
        ObjectId id = write(store, "k", 50);
        IndexedSegment seg = store.indexSegment(id);
        Chain chain = store.openChain(seg.head());
        SegmentReader reader = store.openNative(id);
        SegmentReader natives = seg.natives();
        SeekCursor seek = seg.cursor();
        SegmentCursor cursor = reader.cursor();
        store.close();
        String head = seg.head().nativeId() + "/" + seg.head().indexId();
        assertDead("chain with head " + head, () -> chain.get(key("k", 1)));
        assertDead("chain with head " + head, chain::verify);
        assertDead(id.hex(), () -> seg.get(key("k", 1)));
        assertDead(id.hex(), seg::cursor);
        assertDead(id.hex(), seek::seekToFirst);
        assertDead(id.hex(), seek::valid);
        assertDead(id.hex(), () -> seg.runCursors(1, KeyRange.all()));
        assertDead("chain with head " + head, () -> chain.runCursors(1, KeyRange.all()));
        assertDead(id.hex(), reader::recordCount);
        assertDead(id.hex(), reader::cursor);
        assertDead(id.hex(), () -> reader.recordAt(0));
        assertDead(id.hex(), reader::verify);
        assertDead(id.hex(), natives::recordCount);
        assertDead(id.hex(), cursor::next);
        assertDead(store.root().toString(), () -> store.openNative(id));
        assertDead(store.root().toString(), () -> store.openSegment(seg.head()));
        // Closing handles after their store is harmless.
        chain.close();
        seg.close();
        reader.close();
    }

    @Test
    void aClosedChainOrSegmentRefusesUseAndSparesTheOthers() throws IOException {
        try (ObjectStore store = store()) {
            ObjectId id = write(store, "k", 30);
            IndexedSegment seg = store.indexSegment(id);
            Chain other = store.openChain(seg.head());
            SeekCursor c = seg.cursor();
            seg.close();
            seg.close(); // idempotent
            assertDead("is closed", () -> seg.get(key("k", 1)));
            assertDead("is closed", c::seekToFirst);
            assertDead("is closed", () -> seg.runCursors(1, KeyRange.all()));
            assertTrue(other.get(key("k", 1)).found());
            other.close();
            assertDead("is closed", () -> other.get(key("k", 1)));
        }
    }

    @Test
    void anObjectIsDeletedOnceNoHandleHoldsIt() throws IOException {
        try (ObjectStore store = store()) {
            ObjectId id = write(store, "k", 30);
            Path kv = id.path(store.root(), ".kv");
            IndexedSegment seg = store.indexSegment(id);
            SegmentReader reader = store.openNative(id);
            assertFalse(store.delete(id), "held by a segment and a reader: deletion waits");
            assertTrue(Files.exists(kv));
            assertTrue(seg.get(key("k", 3)).found(), "the holders still read it");
            IllegalStateException again = assertThrows(IllegalStateException.class, () -> store.openNative(id));
            assertTrue(again.getMessage().contains(id.hex()) && again.getMessage().contains("being deleted"), again.getMessage());
            reader.close();
            assertTrue(Files.exists(kv), "the segment still holds it");
            seg.close();
            assertFalse(Files.exists(kv), "deleted when the last holder closed");
            assertThrows(NoSuchFileException.class, () -> store.openNative(id));
            assertThrows(NoSuchFileException.class, () -> store.delete(id));

            ObjectId free = write(store, "f", 10);
            assertTrue(store.delete(free));
            assertFalse(Files.exists(free.path(store.root(), ".kv")));
        }
    }

    private static void assertDead(String named, Executable use) {
        IllegalStateException e = assertThrows(IllegalStateException.class, use);
        assertTrue(e.getMessage().contains(named), "\"" + e.getMessage() + "\" should name " + named);
    }
}

package dev.everett.segment.objects;

import static dev.everett.segment.objects.StoreFixture.key;
import static dev.everett.segment.objects.StoreFixture.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.everett.api.CommonWidthRule;
import dev.everett.api.ObjectId;
import dev.everett.api.Policy;
import dev.everett.segment.index.Catalog;
import dev.everett.segment.io.MappedFile;
import dev.everett.segment.natives.NativeWriter;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store's small files (its indexes, the empty native, small natives) share the memory of
 * {@link dev.everett.segment.io.SmallCopies}: the store's close frees all of it, and a store
 * that keeps replacing indexes holds a bounded
 * amount of it, however many it has opened and deleted. (Without native access every file is
 * mapped into an arena of its own, and there is nothing to test.)
 */
class SmallFilesTest {
    @TempDir
    Path dir;

    @BeforeEach
    void copiesNeedNativeAccess() {
        assumeTrue(MappedFile.copiesSmallFiles(), "small files are copied only with native access");
    }

    private static ObjectId write(OpenObjects objects, int records) throws IOException {
        ObjectId id = ObjectId.random();
        try (NativeWriter w = objects.newNative(id, CommonWidthRule.policy())) {
            for (int i = 0; i < records; i++) {
                w.put(key("k", i), value("k", i, "v"));
            }
            w.finish();
        }
        return id;
    }

    @Test
    void theStoresCloseFreesItsSmallFiles() throws IOException {
        OpenObjects objects = new OpenObjects(dir, Policy.defaultBytes());
        ObjectId id = write(objects, 500);
        objects.prepareHead(objects.index(id, null, null), null);
        assertEquals(1, objects.smallCopyGenerations());
        objects.close();
        assertEquals(0, objects.smallCopyGenerations());
    }

    /**
     * Each round indexes the native again with routing heads above (a new bottom index, the
     * routing heads' indexes, all small) and deletes the previous round's: the store's empty
     * native holds the first generation, the current one takes the copies, and at most one
     * retired generation waits for the round whose objects are still open.
     */
    @Test
    void replacingIndexesForEverHoldsBoundedMemory() throws IOException {
        try (OpenObjects objects = new OpenObjects(dir, Policy.defaultBytes())) {
            ObjectId id = write(objects, 3_000);
            Catalog previous = objects.prepareHead(objects.index(id, null, null), null);
            long bytes = 0;
            for (Catalog c = previous; c != null; c = c.main) {
                bytes += c.index.fileBytes();
            }
            // Enough rounds to fill several generations.
            long rounds = 4 * (1L << 20) / bytes + 1;
            for (long i = 0; i < rounds; i++) {
                Catalog next = objects.prepareHead(objects.index(id, null, null), null);
                for (Catalog c = previous; c != null; c = c.main) {
                    assertTrue(objects.delete(c.indexId));
                }
                previous = next;
                assertTrue(objects.smallCopyGenerations() <= 3, "after " + i + " rounds: " + objects.smallCopyGenerations() + " generations");
            }
        }
    }
}

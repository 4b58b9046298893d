package dev.everett.segment.objects;

import static dev.everett.segment.objects.StoreFixture.key;
import static dev.everett.segment.objects.StoreFixture.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.api.CommonWidthRule;
import dev.everett.api.ObjectId;
import dev.everett.api.Policy;
import dev.everett.segment.index.Catalog;
import dev.everett.segment.natives.NativeWriter;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store's small files (its indexes, the empty native, small natives) share the memory of
 * {@link dev.everett.segment.io.SmallCopies}: the store's close frees all of it, and a store
 * that keeps replacing indexes holds a bounded
 * amount of it, however many it has opened and deleted.
 */
class SmallFilesTest {
    @TempDir
    Path dir;

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

    @Test
    void replacingIndexesForEverHoldsBoundedMemory() throws IOException {
        try (OpenObjects objects = new OpenObjects(dir, Policy.defaultBytes())) {
            ObjectId id = write(objects, 3_000);
            Catalog previous = objects.index(id, null, null);
            long bytes = previous.index.fileBytes();
            // Enough indexes to fill several generations.
            long rounds = 4 * (1L << 20) / bytes + 1;
            for (long i = 0; i < rounds; i++) {
                Catalog next = objects.index(id, null, null);
                assertTrue(objects.delete(previous.indexId));
                previous = next;
                assertTrue(objects.smallCopyGenerations() <= 2, "after " + i + " indexes: " + objects.smallCopyGenerations() + " generations");
            }
        }
    }
}

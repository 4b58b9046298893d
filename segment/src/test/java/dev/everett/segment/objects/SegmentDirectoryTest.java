package dev.everett.segment.objects;

import static dev.everett.segment.objects.StoreFixture.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.api.ObjectId;
import dev.everett.api.ObjectStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The objects a store makes for one native (its index, the routing heads above it, the empty
 * native those share) are named beside it: one {@code ab/cd} directory to create and force for a
 * whole segment, not one per object.
 */
class SegmentDirectoryTest extends StoreTestBase {
    @Test
    void aSegmentsObjectsShareItsNativesDirectory() throws IOException {
        try (ObjectStore store = store()) {
            ObjectId id = write(store, "k", 5_000); // enough records for routing heads above the bottom index
            store.indexSegment(id).close();
            Path home = store.nativePath(id).getParent();
            List<Path> objects;
            try (Stream<Path> all = Files.walk(dir)) {
                objects = all.filter(p -> p.toString().endsWith(".kv") || p.toString().endsWith(".index")).toList();
            }
            assertTrue(objects.size() >= 4, "a native, its index, a routing head and the empty native: " + objects);
            for (Path p : objects) {
                assertEquals(home, p.getParent(), p + " lies beside its native");
            }
        }
    }
}

package dev.everett.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.everett.api.FilterPolicy;
import dev.everett.api.Policy;
import dev.everett.api.SegmentEngine;
import dev.everett.api.ObjectStore;
import dev.everett.api.ObjectStoreOptions;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the example of docs/spi.md through the public SPI only (it lives outside the engine's package). */
class SpiExampleTest {
    @Test
    void theDocumentedExampleRunsAndPrintsWhatTheDocSays(@TempDir Path root) throws Exception {
        assertEquals("""
                apple -> VALUE red
                banana -> VALUE green
                cherry -> TOMBSTONE
                durian -> ABSENT
                scan banana
                scan cherry
                seekForPrev(c) banana
                """, SpiExample.run(root));
    }

    /** The options line of docs/spi.md ("Routing cache") compiles and is what the store reports. */
    @Test
    void storeOptionsAsDocumented(@TempDir Path root) throws Exception {
        Policy policy = Policy.defaultBytes();
        SegmentEngine engine = SegmentEngine.load();
        ObjectStore store = engine.openObjectStore(root, policy,
                ObjectStoreOptions.defaults().withFilters(FilterPolicy.bloom(10)).withRoutingCacheBytes(256 << 10));
        try (store) {
            assertEquals(256 << 10, store.options().routingCacheBytes());
            assertEquals(FilterPolicy.bloom(10), store.filterPolicy());
        }
        try (ObjectStore plain = engine.openObjectStore(root, policy)) {
            assertEquals(ObjectStoreOptions.defaults(), plain.options());
        }
        assertThrows(IllegalArgumentException.class, () -> ObjectStoreOptions.defaults().withRoutingCacheBytes(-1));
    }
}

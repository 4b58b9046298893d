package dev.everett.api;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ServiceLoader;

/**
 * The entry point a host uses to write and open segments. Implementations are found with
 * {@link ServiceLoader}; {@code everett-segment} provides the KV02/KV03 engine.
 */
public interface SegmentEngine {
    /** Starts a segment that will be published at {@code target} by {@link SegmentWriter#finish()}. */
    SegmentWriter newWriter(Path target, Policy policy, CommonWidthRule widthRule) throws IOException;

    /** Maps and opens a segment written under {@code policy}. */
    SegmentReader open(Path file, Policy policy, OpenMode mode) throws IOException;

    /**
     * Opens a native segment read whole into memory the reader owns (released when it closes)
     * instead of mapped: for a reader that reads every record once, as a compaction reads its
     * inputs, where a copy costs less than the first touch of every mapped page. Where an engine
     * cannot make such a copy cheaply it maps the file as {@link #open} does (this default); the
     * answers are the same either way. A copy does not see the file change after it was read.
     */
    default SegmentReader openInMemory(Path file, Policy policy, OpenMode mode) throws IOException {
        return open(file, policy, mode);
    }

    /** True when {@link #openInMemory} copies files in this JVM; false when it maps them as {@link #open} does (this default). */
    default boolean readsIntoMemory() {
        return false;
    }

    /**
     * Reads what a native segment file records about itself (format, policy fields, counts,
     * sections) without knowing its policy, checking its envelope and directory as
     * {@link OpenMode#TYPED} does; no record is read. Open the file with
     * {@code open(file, description.policy(grammar), mode)}.
     *
     * @throws CorruptSegmentException if the envelope or directory breaks a rule (an index
     *                                 object is refused as one)
     */
    SegmentDescription describe(Path file) throws IOException;

    /**
     * Opens (creating if needed) the object store rooted at {@code root}, all under
     * {@code policy}, without key filters.
     */
    default ObjectStore openObjectStore(Path root, Policy policy) throws IOException {
        return openObjectStore(root, policy, ObjectStoreOptions.defaults());
    }

    /**
     * Opens (creating if needed) the object store rooted at {@code root}, all under
     * {@code policy}, keeping a key filter beside each native it indexes as {@code filters} says
     * (and the default routing cache).
     */
    default ObjectStore openObjectStore(Path root, Policy policy, FilterPolicy filters) throws IOException {
        return openObjectStore(root, policy, ObjectStoreOptions.defaults().withFilters(filters));
    }

    /** Opens (creating if needed) the object store rooted at {@code root}, all under {@code policy}, read as {@code options} say. */
    ObjectStore openObjectStore(Path root, Policy policy, ObjectStoreOptions options) throws IOException;

    /** The first engine on the class path. */
    static SegmentEngine load() {
        return ServiceLoader.load(SegmentEngine.class).findFirst()
                .orElseThrow(() -> new IllegalStateException("no Everett segment engine on the class path (add everett-segment)"));
    }
}

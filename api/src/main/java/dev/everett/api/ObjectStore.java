package dev.everett.api;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Everett objects under one root, named by identity ({@code ROOT/ab/cd/<28 hex>.kv} and
 * {@code .index}), all written under one policy.
 *
 * <p><b>The policy.</b> The store records its whole policy (including the value grammar, which
 * no Everett file records) in a checksummed descriptor, {@code ROOT/}{@value #DESCRIPTOR_NAME},
 * written when the store is first opened; opening it under any other policy throws
 * {@link PolicyMismatchException} naming the field, the asked value and the recorded one, and a
 * damaged descriptor throws {@link CorruptSegmentException} naming it and the offset.
 *
 * <p><b>Immutable objects.</b> A native or index is never written under an identity that
 * exists: {@link #newSegment}, a writer publishing into {@link #nativePath} and {@link #index}
 * refuse with {@link java.nio.file.FileAlreadyExistsException} naming the path, decided
 * atomically when the file is published (of two writers racing for one identity exactly one
 * wins, and the other leaves no temporary file).
 *
 * <p><b>Handles.</b> Objects are mapped once and shared. Every reader, chain and segment the
 * store hands out is a handle on those shared mappings: closing one ends that handle alone (any
 * later use of it throws {@link IllegalStateException} naming it) and releases its hold on its
 * objects; it never unmaps what other handles read. Cursors and {@code natives()} readers live
 * as long as the handle they came from. Closing the store unmaps everything, after which every
 * handle, cursor and {@code Lookup} value from it is dead, and every use of a handle or cursor
 * throws {@link IllegalStateException} naming it. {@link #delete} removes an obsolete object
 * once no open handle holds it.
 */
public interface ObjectStore extends AutoCloseable {
    /** The name of the store's policy descriptor under its root. */
    String DESCRIPTOR_NAME = "OBJECTS";

    Path root();

    Policy policy();

    /**
     * The key filters this store keeps: with filters enabled, {@link #index} writes one beside
     * each non-empty native it binds (its own and its secondary) that lacks one, and
     * {@link #openChain} builds any that a chain's natives still lack.
     */
    default FilterPolicy filterPolicy() {
        return options().filters();
    }

    /** How this store reads: its key filters and its routing cache ({@link ObjectStoreOptions}). */
    ObjectStoreOptions options();

    /**
     * A writer for a new native object named {@code id}.
     *
     * @throws java.nio.file.FileAlreadyExistsException if object {@code id} exists (checked here
     *         and again, atomically, when the writer publishes)
     */
    SegmentWriter newSegment(ObjectId id, CommonWidthRule rule) throws IOException;

    /**
     * Where the native object {@code id} lives ({@code ROOT/ab/cd/<28 hex>.kv}), for writers
     * other than {@link #newSegment}, such as a merge, to publish into the store. The parent
     * directories exist when this returns. A writer of this process that publishes there (and
     * does not find the name taken) has computed the file's checksum while writing it, so this
     * store's first read of it skips the CRC pass (docs/spi.md, "Checked reads").
     */
    Path nativePath(ObjectId id) throws IOException;

    /**
     * A handle on the native object {@code id}, which the store opens (and checks) once and
     * shares. Closing the handle ends it alone.
     */
    SegmentReader openNative(ObjectId id) throws IOException;

    /**
     * Deletes object {@code id} (a native with its key filter, or an index) and unmaps it: at
     * once if no open handle holds it, else as soon as the last handle that does is closed;
     * meanwhile opening it again is refused. For obsolete objects: the store does not know which
     * unopened chains still name the object.
     *
     * @return true if the files are gone when this returns, false if deletion waits for handles
     * @throws java.nio.file.NoSuchFileException if the store has no object {@code id}
     */
    boolean delete(ObjectId id) throws IOException;

    /**
     * Builds the IX03 index of native {@code nativeId} over a main target (the catalog below, or
     * null) and a secondary leaf (a native, or null), under a fresh identity.
     */
    CatalogRef index(ObjectId nativeId, CatalogRef main, ObjectId secondary) throws IOException;

    /**
     * A query head over level 0: {@code main} itself if it has no secondary and holds at most K
     * occurrences, else empty-native routing catalogs over it until the head holds at most K.
     */
    CatalogRef prepareHead(CatalogRef main, ObjectId secondary) throws IOException;

    /**
     * Opens the chain below a prepared head, checking identities and shapes at every node.
     *
     * @throws IllegalArgumentException if {@code head} is not a prepared head (a catalog of more
     *         than K occurrences, as an index from {@link #index} may be) or names a native its
     *         index does not describe
     */
    Chain openChain(CatalogRef head) throws IOException;

    /** Indexes one native segment and prepares its routing chain. */
    IndexedSegment indexSegment(ObjectId nativeId) throws IOException;

    /**
     * Opens a segment chain made by {@link #indexSegment}, from its head.
     *
     * @throws IllegalArgumentException if {@code head} is not a prepared head, or its chain holds
     *         more than one run (records above the bottom catalog, or a secondary leaf): open such
     *         a chain with {@link #openChain}
     */
    IndexedSegment openSegment(CatalogRef head) throws IOException;

    @Override
    void close();
}

package dev.everett.api;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Everett objects under one root, named by identity ({@code ROOT/ab/cd/<28 hex>.kv} and
 * {@code .index}), all written under one policy. Objects are mapped once and shared; closing
 * the store unmaps them, after which every reader, chain and cursor from it throws
 * {@link IllegalStateException}.
 */
public interface ObjectStore extends AutoCloseable {
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

    /** A writer for a new native object named {@code id}. */
    SegmentWriter newSegment(ObjectId id, CommonWidthRule rule) throws IOException;

    /**
     * Where the native object {@code id} lives ({@code ROOT/ab/cd/<28 hex>.kv}), for writers
     * other than {@link #newSegment}, such as a merge, to publish into the store. The parent
     * directories exist when this returns.
     */
    Path nativePath(ObjectId id) throws IOException;

    /** The native object {@code id}, opened (and checked) once. */
    SegmentReader openNative(ObjectId id) throws IOException;

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

    /** Opens the chain below a prepared head, checking identities and shapes at every node. */
    Chain openChain(CatalogRef head) throws IOException;

    /** Indexes one native segment and prepares its routing chain. */
    IndexedSegment indexSegment(ObjectId nativeId) throws IOException;

    /** Opens a segment chain made by {@link #indexSegment}, from its head. */
    IndexedSegment openSegment(CatalogRef head) throws IOException;

    @Override
    void close();
}

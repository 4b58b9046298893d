package dev.everett.api;

import java.io.IOException;

/**
 * A prepared cascade over one or more runs: every lookup starts at the head, which holds at most
 * K occurrences, and descends through the fractional indexes. Newer runs sit above older ones:
 * at each catalog its own native answers first, then its secondary leaf, then the catalogs
 * below. Safe to share between threads.
 *
 * <p>A chain is a handle the {@link ObjectStore} hands out (see there): {@link #close()} ends it
 * alone, and any use after it, or after the store is closed, throws
 * {@link IllegalStateException} naming the chain.
 */
public interface Chain extends AutoCloseable {
    /** The head catalog. */
    CatalogRef head();

    /**
     * The newest record for {@code key}: a value, a tombstone, or absent. A value is a view of
     * the mapped file, valid while the store keeps the object mapped.
     *
     * @throws NullPointerException  if {@code key} is null
     * @throws IllegalStateException if this chain or its store is closed
     */
    Lookup get(byte[] key);

    /**
     * True if every non-empty native of the chain has a key filter ({@link FilterPolicy}) and
     * {@link #get} asks them before the cascade.
     */
    boolean filtered();

    /**
     * Verifies every object of the chain: each native and index in full, each index against
     * the keys of its native and targets, and each key filter the chain uses against the keys
     * of its native.
     *
     * @throws CorruptSegmentException at the first rule broken
     */
    void verify() throws IOException;

    /**
     * Cursors over the natives of the bottom {@code runs} catalogs of the chain's main route
     * (say, the runs of a whole-run tree below the routing catalogs {@code prepareHead} adds),
     * newest first, positioned together by one cascade descent per seek ({@link RunCursors}).
     * Whether this handle and its store are open is checked here, once: the cursors do not ask
     * again at each call (a step makes several), so the caller keeps the handle open while it uses
     * them; should the store close meanwhile, their reads of its unmapped files throw
     * {@link IllegalStateException}.
     *
     * @throws IllegalArgumentException if {@code runs} is less than 1 or more than the catalogs
     *                                  of the main route
     * @throws IllegalStateException    if this handle or its store is closed
     */
    RunCursors runCursors(int runs, KeyRange range);

    /**
     * Ends this handle and releases its hold on the chain's objects; other chains, segments and
     * readers over the same objects are unaffected. Idempotent.
     */
    @Override
    void close();
}

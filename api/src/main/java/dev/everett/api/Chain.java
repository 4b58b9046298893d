package dev.everett.api;

import java.io.IOException;

/**
 * A prepared cascade over one or more runs: every lookup starts at the head, which holds at most
 * K occurrences, and descends through the fractional indexes. Newer runs sit above older ones:
 * at each catalog its own native answers first, then its secondary leaf, then the catalogs
 * below. Safe to share between threads.
 */
public interface Chain {
    /** The head catalog. */
    CatalogRef head();

    /** The newest record for {@code key}: a value, a tombstone, or absent. */
    Lookup get(byte[] key);

    /**
     * Verifies every object of the chain: each native and index in full, and each index against
     * the keys of its native and targets.
     *
     * @throws CorruptSegmentException at the first rule broken
     */
    void verify() throws IOException;
}

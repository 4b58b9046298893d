package dev.everett.api;

/**
 * Whether a {@link ObjectStore} keeps a key filter beside each native segment, and how large.
 *
 * <p>Everett's own files have no filter: a point lookup runs the fractional cascade from the
 * head down, and a key that no run holds costs as much as one the oldest run holds. A host
 * that asks for filters gets a blocked Bloom filter per non-empty native, in a sidecar file
 * {@code ROOT/ab/cd/<28 hex>.filter} named by the native's identity (its layout is in
 * docs/format.md; it is this project's, not Everett's, and leaves the {@code .kv} and
 * {@code .index} files byte for byte as they would be without it). A {@link Chain} whose every
 * non-empty native has a filter asks them first and answers ABSENT without entering the cascade
 * when none of them may hold the key; any other answer still comes from the cascade, so a filter
 * can make a lookup faster but never changes it.
 *
 * <p>At ten bits per key about one absent key in a hundred still runs the cascade; the files
 * cost {@code bitsPerKey / 8} bytes per record, rounded up to 64-byte blocks, plus a 64-byte
 * header.
 *
 * @param bitsPerKey filter bits per record, 0 for no filters
 */
public record FilterPolicy(int bitsPerKey) {
    /** The largest accepted {@link #bitsPerKey}: beyond it the false-positive rate no longer improves in a 512-bit block. */
    public static final int MAX_BITS_PER_KEY = 32;

    public FilterPolicy {
        if (bitsPerKey < 0 || bitsPerKey > MAX_BITS_PER_KEY) {
            throw new IllegalArgumentException("bits per key must be 0 (no filter) to " + MAX_BITS_PER_KEY + ", got " + bitsPerKey);
        }
    }

    /** No filters (Everett's own layout; the default). */
    public static FilterPolicy none() {
        return new FilterPolicy(0);
    }

    /** A blocked Bloom filter of {@code bitsPerKey} bits per record beside each native. */
    public static FilterPolicy bloom(int bitsPerKey) {
        if (bitsPerKey == 0) {
            throw new IllegalArgumentException("a Bloom filter needs at least one bit per key; use FilterPolicy.none() for no filter");
        }
        return new FilterPolicy(bitsPerKey);
    }

    /** True if natives get filters. */
    public boolean enabled() {
        return bitsPerKey > 0;
    }
}

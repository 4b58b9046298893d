package dev.everett.api;

import java.util.Objects;

/**
 * How a {@link ObjectStore} reads: its key filters, and how much memory each open chain may
 * spend on decoded routing samples.
 *
 * <p><b>Routing cache.</b> A chain whose head is a stack of routing catalogs (empty natives that
 * only sample the catalog below, as {@link ObjectStore#prepareHead} adds them) spends part of
 * every lookup walking down that stack. With a routing cache, opening the chain decodes the
 * samples of the deepest routing catalog that fits {@code routingCacheBytes} (each key in full,
 * plus about 12.5 bytes per sample, 16.5 in bit units) from its index, whose checksum is verified when it is opened, and
 * a lookup or seek finds its place among them by binary search before running the cascade from
 * the catalog below. Answers are the same as without it; only the route to them is shorter. A
 * segment of a million 16-byte keys under K = 15 takes about 1.9 MB; 0 turns the cache off.
 *
 * <p><b>Checked reads.</b> With {@code verifyChecksums} (the default, as RocksDB's
 * {@code verify_checksums}) no lookup, cursor or merge input returns data from a native whose
 * body CRC32C this store has not checked: each native's body is checked once, before its first
 * read, and remembered; indexes and filters are checked when they are opened. A native that a
 * writer of this process has just published under an identity this store handed out (through
 * {@link ObjectStore#newSegment} or {@link ObjectStore#nativePath}), and that is still the file
 * sealed, counts as checked: its writer computed the CRC from the bytes it wrote. Turning it off
 * skips the natives' check (a damaged payload may then answer wrongly until {@code verify()}).
 *
 * <p><b>Read-only.</b> A read-only store changes nothing under its root: the root and its
 * descriptor must exist already ({@link java.nio.file.NoSuchFileException} otherwise), a chain
 * uses its key filters only if every one it needs is present and made for its native's bytes
 * (otherwise the chain is read without filters: same answers, absent keys cost more; a store that
 * writes would build the missing filter instead), and every call that writes ({@code newSegment},
 * {@code nativePath}, {@code index}, {@code prepareHead}, {@code indexSegment}, {@code delete})
 * throws {@link UnsupportedOperationException}.
 *
 * @param filters           the key filters kept beside each native
 * @param routingCacheBytes memory per open chain for decoded routing samples; 0 for none
 * @param verifyChecksums   check each native's body CRC32C before its first read
 * @param readOnly          change nothing under the store's root
 */
public record ObjectStoreOptions(FilterPolicy filters, long routingCacheBytes, boolean verifyChecksums, boolean readOnly) {
    /** The default routing cache per open chain: 2 MiB. */
    public static final long DEFAULT_ROUTING_CACHE_BYTES = 2L << 20;

    public ObjectStoreOptions {
        Objects.requireNonNull(filters, "filters");
        if (routingCacheBytes < 0) {
            throw new IllegalArgumentException("routing cache bytes must be 0 or more, got " + routingCacheBytes);
        }
    }

    /** Options of a store that writes (the form before {@code readOnly} existed). */
    public ObjectStoreOptions(FilterPolicy filters, long routingCacheBytes, boolean verifyChecksums) {
        this(filters, routingCacheBytes, verifyChecksums, false);
    }

    /** Options with checked reads (the form before {@code verifyChecksums} existed). */
    public ObjectStoreOptions(FilterPolicy filters, long routingCacheBytes) {
        this(filters, routingCacheBytes, true);
    }

    /**
     * No key filters (Everett's own files only), a routing cache of
     * {@value #DEFAULT_ROUTING_CACHE_BYTES} bytes per chain, checked reads.
     */
    public static ObjectStoreOptions defaults() {
        return new ObjectStoreOptions(FilterPolicy.none(), DEFAULT_ROUTING_CACHE_BYTES, true, false);
    }

    public ObjectStoreOptions withFilters(FilterPolicy f) {
        return new ObjectStoreOptions(f, routingCacheBytes, verifyChecksums, readOnly);
    }

    public ObjectStoreOptions withRoutingCacheBytes(long bytes) {
        return new ObjectStoreOptions(filters, bytes, verifyChecksums, readOnly);
    }

    /** The same options with natives' body checksums checked before their first read, or not. */
    public ObjectStoreOptions withVerifyChecksums(boolean verify) {
        return new ObjectStoreOptions(filters, routingCacheBytes, verify, readOnly);
    }

    /** The same options for a store that changes nothing under its root, or one that writes. */
    public ObjectStoreOptions withReadOnly(boolean readOnly) {
        return new ObjectStoreOptions(filters, routingCacheBytes, verifyChecksums, readOnly);
    }
}

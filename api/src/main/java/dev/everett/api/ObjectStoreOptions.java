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
 * @param filters           the key filters kept beside each native
 * @param routingCacheBytes memory per open chain for decoded routing samples; 0 for none
 */
public record ObjectStoreOptions(FilterPolicy filters, long routingCacheBytes) {
    /** The default routing cache per open chain: 2 MiB. */
    public static final long DEFAULT_ROUTING_CACHE_BYTES = 2L << 20;

    public ObjectStoreOptions {
        Objects.requireNonNull(filters, "filters");
        if (routingCacheBytes < 0) {
            throw new IllegalArgumentException("routing cache bytes must be 0 or more, got " + routingCacheBytes);
        }
    }

    /** No key filters (Everett's own files only), a routing cache of {@value #DEFAULT_ROUTING_CACHE_BYTES} bytes per chain. */
    public static ObjectStoreOptions defaults() {
        return new ObjectStoreOptions(FilterPolicy.none(), DEFAULT_ROUTING_CACHE_BYTES);
    }

    public ObjectStoreOptions withFilters(FilterPolicy f) {
        return new ObjectStoreOptions(f, routingCacheBytes);
    }

    public ObjectStoreOptions withRoutingCacheBytes(long bytes) {
        return new ObjectStoreOptions(filters, bytes);
    }
}

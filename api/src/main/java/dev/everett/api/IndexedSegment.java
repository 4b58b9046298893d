package dev.everett.api;

/**
 * One native segment with its routing chain: a terminal index over the native and empty
 * routing catalogs above it until the head holds at most K occurrences. Point lookups and
 * seeks run through the cascade.
 */
public interface IndexedSegment extends Chain {
    /** The native segment. */
    SegmentReader natives();

    /** A cursor over every record. */
    default SeekCursor cursor() {
        return cursor(KeyRange.all());
    }

    /** A cursor over the records inside {@code range}. */
    SeekCursor cursor(KeyRange range);
}

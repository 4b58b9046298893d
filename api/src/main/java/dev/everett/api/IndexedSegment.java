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

    /**
     * Whole-file bytes of the files this segment reads, taken from the open files (no
     * file-system call): its native, its index files with the empty native its routing catalogs
     * share, and its key filter (0 when it reads none).
     *
     * @throws IllegalStateException if this segment or its store is closed
     */
    SegmentFileBytes fileBytes();
}

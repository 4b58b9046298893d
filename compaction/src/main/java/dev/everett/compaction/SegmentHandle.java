package dev.everett.compaction;

import dev.everett.api.IndexedSegment;

/**
 * An open segment: its metadata and its indexed reader. Each handle holds one reference; the
 * segment's files stay mapped until every handle is closed. Closing twice does nothing.
 */
public interface SegmentHandle extends AutoCloseable {
    SegmentMeta meta();

    /** The segment's reader: point lookups through its cascade, seek cursors, {@code verify()}. */
    IndexedSegment segment();

    @Override
    void close();
}

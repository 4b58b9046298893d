package dev.everett.api;

import java.lang.foreign.MemorySegment;

/**
 * A bidirectional cursor over an indexed segment, with RocksDB's iterator contract: position it
 * with a seek, then move while {@link #valid()}. Seeks run through the segment's index cascade;
 * moving forward decodes the next record; moving back re-decodes the key's group (at most K
 * records and W − 1 headers per step, amortised over the group). Key and value views are valid
 * until the cursor moves. Tombstones are visible (see {@link #isTombstone()}). One thread.
 */
public interface SeekCursor extends AutoCloseable {
    /** True if the cursor is on a record inside its range. */
    boolean valid();

    /** The first record in range. */
    void seekToFirst();

    /** The last record in range. */
    void seekToLast();

    /** The first record whose key is ≥ {@code target} (and in range). */
    void seek(byte[] target);

    /** The last record whose key is ≤ {@code target} (and in range). */
    void seekForPrev(byte[] target);

    /** The next record in key order. Requires {@link #valid()}. */
    void next();

    /** The previous record in key order. Requires {@link #valid()}. */
    void prev();

    /** The current record's ordinal in the segment. */
    long ordinal();

    int keyLength();

    /** A reused buffer holding the key in bytes [0, keyLength()). */
    MemorySegment keyBuffer();

    default byte[] keyBytes() {
        return SegmentBytes.copy(keyBuffer(), keyLength());
    }

    boolean isTombstone();

    /** The value bytes (a view of the mapped file, or a copy for an unaligned bit-unit value; empty for a tombstone). */
    MemorySegment value();

    /** A copy of the value, or null for a tombstone. */
    default byte[] valueBytes() {
        return isTombstone() ? null : SegmentBytes.copy(value());
    }

    @Override
    void close();
}

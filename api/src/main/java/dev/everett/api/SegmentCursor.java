package dev.everett.api;

import java.lang.foreign.MemorySegment;

/**
 * A forward walk over a segment's records in key order. Stepping allocates nothing: the key and
 * value accessors are views that stay valid only until the next step. A cursor is for one thread.
 *
 * <pre>{@code
 * try (SegmentCursor c = reader.cursor()) {
 *     while (c.next()) {
 *         if (!c.isTombstone()) consume(c.key(), c.value());
 *     }
 * }
 * }</pre>
 */
public interface SegmentCursor extends AutoCloseable {
    /** Moves to the next record; false (and no current record) once past the last. */
    boolean next();

    /** The current record's ordinal, from 0. */
    long ordinal();

    /** The current key's length in bytes. */
    int keyLength();

    /**
     * A reused buffer holding the current key in bytes {@code [0, keyLength())}; the bytes after
     * the key are unspecified. Valid until the next step.
     */
    MemorySegment keyBuffer();

    /** The current key as a view of exactly {@link #keyLength()} bytes (allocates the view). */
    default MemorySegment key() {
        return keyBuffer().asSlice(0, keyLength());
    }

    /** True if the current record is a tombstone (only under {@link ValueGrammar#OPTIONAL}). */
    boolean isTombstone();

    /**
     * The bytes that hold the current value at {@link #valueOffset()}: the mapped file, or for a
     * bit-unit value that does not start on a byte boundary a reused buffer holding a copy.
     */
    MemorySegment valueSource();

    /** Where the current value starts in {@link #valueSource()}. */
    long valueOffset();

    /** The current value's length in bytes (0 for a tombstone). */
    long valueLength();

    /** The current value as a view (allocates the view; empty for a tombstone). */
    default MemorySegment value() {
        return valueSource().asSlice(valueOffset(), valueLength());
    }

    /** A copy of the current key. */
    default byte[] keyBytes() {
        return SegmentBytes.copy(keyBuffer(), keyLength());
    }

    /** A copy of the current value, or {@code null} for a tombstone. */
    default byte[] valueBytes() {
        return isTombstone() ? null : SegmentBytes.copy(value());
    }

    @Override
    void close();
}

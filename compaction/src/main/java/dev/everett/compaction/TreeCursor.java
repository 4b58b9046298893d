package dev.everett.compaction;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A merged cursor over every level of a version, with RocksDB's iterator contract: position it
 * with a seek, then move while {@link #valid()}. It shows each key once with its newest record,
 * hides keys whose newest record is a tombstone, and stays inside its bounds (lower inclusive,
 * upper exclusive; a seek below the lower bound lands on it, a seekForPrev at or past the upper
 * bound lands before it). Key and value views are valid until the cursor moves. The cursor holds
 * its version (and so its files) until it is closed. One thread.
 */
public interface TreeCursor extends AutoCloseable {
    boolean valid();

    void seekToFirst();

    void seekToLast();

    /** The first visible key ≥ {@code target}. */
    void seek(byte[] target);

    /** The last visible key ≤ {@code target}. */
    void seekForPrev(byte[] target);

    /** Requires {@link #valid()}. */
    void next();

    /** Requires {@link #valid()}. */
    void prev();

    /** The current key (a view valid until the cursor moves). */
    MemorySegment key();

    /** The current value (a view valid until the cursor moves). */
    MemorySegment value();

    default byte[] keyBytes() {
        return key().toArray(ValueLayout.JAVA_BYTE);
    }

    default byte[] valueBytes() {
        return value().toArray(ValueLayout.JAVA_BYTE);
    }

    @Override
    void close();
}

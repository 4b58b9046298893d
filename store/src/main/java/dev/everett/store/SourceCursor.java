package dev.everett.store;

/**
 * One source's view for a read (a memtable at a sequence number, or the segments of a version):
 * at most one record per key, in unsigned key order, tombstones included so that a newer source
 * can hide an older one. Positioning methods leave the cursor valid on a record or invalid.
 */
interface SourceCursor extends AutoCloseable {

    /** First record with key ≥ {@code target}. */
    void seek(byte[] target);

    /** Last record with key ≤ {@code target}. */
    void seekForPrev(byte[] target);

    void seekToFirst();

    void seekToLast();

    void next();

    void prev();

    boolean valid();

    /** The current key; the caller must not modify it. Valid until the cursor moves. */
    byte[] key();

    /** The current key in an array of the caller's own. */
    default byte[] keyCopy() {
        return key().clone();
    }

    boolean isTombstone();

    /** The current value (not for tombstones); the caller must not modify it. Valid until the cursor moves. */
    byte[] value();

    /** The current value in an array of the caller's own (a source whose value is already a fresh copy hands it over). */
    default byte[] valueCopy() {
        return value().clone();
    }

    @Override
    void close();
}

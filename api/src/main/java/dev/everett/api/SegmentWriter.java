package dev.everett.api;

import java.io.IOException;
import java.lang.foreign.MemorySegment;

/**
 * Streams a sorted run into a new segment file. Keys must arrive strictly increasing (unsigned
 * lexicographic, a proper prefix first). Nothing is visible at the target path until
 * {@link #finish()} has written a temporary file, forced it, renamed it into place atomically
 * and forced the directory.
 *
 * <p>A writer that refuses a record (out of order, duplicate, wrong value width, a tombstone
 * under a raw grammar), or fails to write one (an {@link IOException} from the file, say a full
 * disk), throws and is then poisoned: it refuses further calls and publishes nothing.
 * {@link #close()} without {@code finish()} discards the temporary file.
 */
public interface SegmentWriter extends AutoCloseable {
    /** Adds a record with a present value. */
    void put(byte[] key, byte[] value) throws IOException;

    /** Adds a record with a present value, read from the given segments. */
    void put(MemorySegment key, MemorySegment value) throws IOException;

    /** Adds a tombstone (only under {@link ValueGrammar#OPTIONAL}). */
    void delete(byte[] key) throws IOException;

    /** Adds a tombstone for a key read from the given segment. */
    void delete(MemorySegment key) throws IOException;

    /** Records accepted so far. */
    long recordCount();

    /** Completes the file and publishes it atomically. Callable once. */
    SegmentInfo finish() throws IOException;

    /** Discards an unfinished file; after {@link #finish()} it does nothing. */
    @Override
    void close() throws IOException;
}

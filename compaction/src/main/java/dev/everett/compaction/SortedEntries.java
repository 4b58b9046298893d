package dev.everett.compaction;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.Iterator;
import java.util.Map;

/**
 * The sorted source a flush reads (a memtable's iterator): each entry a key and then either a
 * value or a tombstone. Keys must be strictly increasing (unsigned lexicographic, a proper prefix
 * first); the flush checks this and fails with {@link dev.everett.api.KeyOrderException} on a key
 * that does not increase. The views returned for the current entry need to stay valid only until
 * the next call to {@link #next()}.
 */
public interface SortedEntries {
    /** Moves to the next entry; false once past the last. */
    boolean next() throws IOException;

    /** The current key. */
    MemorySegment key();

    /** True if the current entry is a tombstone (a delete). */
    boolean tombstone();

    /** The current value (ignored for a tombstone). */
    MemorySegment value();

    /**
     * Entries from a sorted iterator of key/value pairs; a null value is a tombstone. The arrays
     * are read as they are, not copied.
     */
    static SortedEntries of(Iterator<? extends Map.Entry<byte[], byte[]>> sorted) {
        return new SortedEntries() {
            private Map.Entry<byte[], byte[]> current;

            @Override
            public boolean next() {
                if (!sorted.hasNext()) {
                    current = null;
                    return false;
                }
                current = sorted.next();
                return true;
            }

            @Override
            public MemorySegment key() {
                return MemorySegment.ofArray(current.getKey());
            }

            @Override
            public boolean tombstone() {
                return current.getValue() == null;
            }

            @Override
            public MemorySegment value() {
                byte[] v = current.getValue();
                return v == null ? MemorySegment.ofArray(new byte[0]) : MemorySegment.ofArray(v);
            }
        };
    }
}

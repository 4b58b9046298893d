package dev.everett.api;

import java.lang.foreign.MemorySegment;

/**
 * A record addressed by ordinal without walking from the start of the file. Front coding stores
 * only the part of each key that differs from its predecessor: a native file alone can give the
 * record's key length, the length of the prefix it shares with the previous key and the suffix
 * after it, but not the bytes of that prefix, which belong to earlier records (the index cascade
 * supplies them). Views are valid while the reader is open.
 *
 * @param ordinal      record number, from 0
 * @param keyLength    full key length in bytes
 * @param retained     the prefix length shared with the previous key (0 for record 0)
 * @param suffix       key bytes [retained, keyLength)
 * @param tombstone    true if the value is absent
 * @param value        the value bytes (empty for a tombstone)
 */
public record RecordLocation(long ordinal, long keyLength, long retained, MemorySegment suffix,
                             boolean tombstone, MemorySegment value) {
}

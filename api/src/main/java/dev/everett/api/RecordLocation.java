package dev.everett.api;

import java.lang.foreign.MemorySegment;

/**
 * A record addressed by ordinal without walking from the start of the file. Front coding stores
 * only the part of each key that differs from its predecessor: a native file alone can give the
 * record's key length, the length of the prefix it shares with the previous key and the suffix
 * after it, but not the bytes of that prefix, which belong to earlier records (the index cascade
 * supplies them). Views are valid while the reader is open.
 *
 * <p>Bit-unit files share prefixes in bits: {@code retained} then counts bits of the key (a KV03
 * file's sort code is not part of the key and not counted), and {@code suffix} holds the key's
 * bits {@code [retained, 8 · keyLength)} packed MSB-first from bit 7 of its first byte, the
 * unused low bits of its last byte zero (a copy, not a view). Values are whole bytes in every
 * unit; a bit-unit value that does not start on a byte boundary is a copy as well.
 *
 * @param ordinal      record number, from 0
 * @param keyLength    full key length in bytes
 * @param retained     the prefix shared with the previous key, in the file's units: bytes, or
 *                     bits for bit-unit files (0 for record 0)
 * @param suffix       the rest of the key: bytes [retained, keyLength), or for bit-unit files its
 *                     bits as described above
 * @param tombstone    true if the value is absent
 * @param value        the value bytes (empty for a tombstone)
 */
public record RecordLocation(long ordinal, long keyLength, long retained, MemorySegment suffix,
                             boolean tombstone, MemorySegment value) {
}

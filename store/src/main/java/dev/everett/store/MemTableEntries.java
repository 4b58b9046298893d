package dev.everett.store;

import dev.everett.compaction.SortedEntries;

import java.lang.foreign.MemorySegment;

/**
 * A frozen memtable as a flush reads it: one record per key, its newest version. Older versions
 * are left out: the snapshots that could still need them read this memtable itself, which their
 * views keep. A single delete whose put is the key's only other version in this memtable (and
 * none was pruned from the key's chain) cancels with it and neither is written (under the
 * single-delete contract the key read as absent before that put, so the layers below already
 * answer absent), as RocksDB's flush does.
 */
final class MemTableEntries implements SortedEntries {

    private static final MemorySegment EMPTY = MemorySegment.ofArray(new byte[0]);

    private final MemTable table;
    private MemTable.Chain following;
    private MemTable.Chain chain;
    private MemTable.Version current;
    private long written;
    private long cancelled;

    MemTableEntries(MemTable table) {
        this.table = table;
        this.following = table.first();
    }

    @Override
    public boolean next() {
        while (following != null) {
            MemTable.Chain c = following;
            following = table.next(c);
            MemTable.Version newest = c.newest;
            MemTable.Version older = newest.older;
            if (newest.type == WriteBatch.SINGLE_DELETE && older != null && older.type == WriteBatch.PUT
                    && older.older == null && c.complete()) {
                cancelled++;
                continue;
            }
            chain = c;
            current = newest;
            written++;
            return true;
        }
        chain = null;
        current = null;
        return false;
    }

    @Override
    public MemorySegment key() {
        return MemorySegment.ofArray(chain.key);
    }

    @Override
    public boolean tombstone() {
        return current.isDeletion();
    }

    @Override
    public MemorySegment value() {
        return current.isDeletion() ? EMPTY : MemorySegment.ofArray(current.value);
    }

    /** Records handed to the flush. */
    long written() {
        return written;
    }

    /** Single delete and put pairs that cancelled. */
    long cancelled() {
        return cancelled;
    }
}

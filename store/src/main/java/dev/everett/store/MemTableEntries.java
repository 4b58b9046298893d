package dev.everett.store;

import dev.everett.compaction.SortedEntries;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Iterator;

/**
 * A frozen memtable as a flush reads it: one record per key, its newest version. Older versions
 * are left out: the snapshots that could still need them read this memtable itself, which their
 * views keep. A single delete whose put is the key's only other version in this memtable cancels
 * with it and neither is written (under the single-delete contract the key read as absent before
 * that put, so the layers below already answer absent), as RocksDB's flush does.
 */
final class MemTableEntries implements SortedEntries {

    private static final MemorySegment EMPTY = MemorySegment.ofArray(new byte[0]);

    private final Iterator<MemTable.Entry> it;
    private MemTable.Entry pending;
    private MemTable.Entry current;
    private long written;
    private long cancelled;

    MemTableEntries(MemTable table) {
        this.it = table.entries().iterator();
        this.pending = it.hasNext() ? it.next() : null;
    }

    @Override
    public boolean next() {
        while (pending != null) {
            MemTable.Entry newest = pending;
            int versions = 1;
            byte type1 = 0;
            pending = null;
            while (it.hasNext()) {
                MemTable.Entry e = it.next();
                if (!Arrays.equals(e.key(), newest.key())) {
                    pending = e;
                    break;
                }
                if (versions == 1) {
                    type1 = e.type();
                }
                versions++;
            }
            if (newest.type() == WriteBatch.SINGLE_DELETE && versions == 2 && type1 == WriteBatch.PUT) {
                cancelled++;
                continue;
            }
            current = newest;
            written++;
            return true;
        }
        current = null;
        return false;
    }

    @Override
    public MemorySegment key() {
        return MemorySegment.ofArray(current.key());
    }

    @Override
    public boolean tombstone() {
        return current.isDeletion();
    }

    @Override
    public MemorySegment value() {
        return current.isDeletion() ? EMPTY : MemorySegment.ofArray(current.value());
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

package dev.everett.store;

import java.util.Arrays;
import java.util.NavigableSet;

/**
 * A memtable as seen at sequence number {@code seq}: for each key, its newest version with
 * sequence ≤ seq (deletes as tombstones); keys with no such version do not appear.
 */
final class MemTableCursor implements SourceCursor {

    private final NavigableSet<MemTable.Entry> entries;
    private final long seq;
    private MemTable.Entry current;

    MemTableCursor(MemTable table, long seq) {
        this.entries = table.entries();
        this.seq = seq;
    }

    @Override
    public void seek(byte[] target) {
        forwardFrom(entries.ceiling(MemTable.probe(target, seq)));
    }

    @Override
    public void seekForPrev(byte[] target) {
        // The last entry of any key ≤ target (its oldest version), then that key's visible version.
        backwardFrom(entries.floor(MemTable.probe(target, -1)));
    }

    @Override
    public void seekToFirst() {
        forwardFrom(entries.isEmpty() ? null : first());
    }

    @Override
    public void seekToLast() {
        backwardFrom(entries.isEmpty() ? null : last());
    }

    @Override
    public void next() {
        forwardFrom(entries.higher(MemTable.probe(current.key(), -1)));
    }

    @Override
    public void prev() {
        backwardFrom(entries.lower(MemTable.probe(current.key(), Long.MAX_VALUE)));
    }

    @Override
    public boolean valid() {
        return current != null;
    }

    @Override
    public byte[] key() {
        return current.key();
    }

    @Override
    public boolean isTombstone() {
        return current.isDeletion();
    }

    @Override
    public byte[] value() {
        return current.value();
    }

    @Override
    public void close() {
        current = null;
    }

    /** From entry {@code e} forward: the first key at or after e's with a version visible at seq. */
    private void forwardFrom(MemTable.Entry e) {
        while (e != null && e.seq() > seq) {
            // A version too new: look for an older version of the same key, else the next key.
            MemTable.Entry older = entries.ceiling(MemTable.probe(e.key(), seq));
            if (older != null && Arrays.equals(older.key(), e.key())) {
                e = older;
                break;
            }
            e = older;
        }
        current = e;
    }

    /** From entry {@code e} (any version of some key) backward: the last key at or before e's with a visible version. */
    private void backwardFrom(MemTable.Entry e) {
        while (e != null) {
            MemTable.Entry visible = entries.ceiling(MemTable.probe(e.key(), seq));
            if (visible != null && Arrays.equals(visible.key(), e.key())) {
                current = visible;
                return;
            }
            e = entries.lower(MemTable.probe(e.key(), Long.MAX_VALUE));
        }
        current = null;
    }

    private MemTable.Entry first() {
        try {
            return entries.first();
        } catch (java.util.NoSuchElementException empty) {
            return null;
        }
    }

    private MemTable.Entry last() {
        try {
            return entries.last();
        } catch (java.util.NoSuchElementException empty) {
            return null;
        }
    }
}

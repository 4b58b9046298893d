package dev.everett.store;

import java.util.Iterator;

/**
 * A memtable as seen at sequence number {@code seq}: for each key, its newest version with
 * sequence ≤ seq (deletes as tombstones); keys with no such version do not appear. Steps follow
 * the skip list's links (an iterator per direction), so a step costs no search.
 */
final class MemTableCursor implements SourceCursor {

    private final MemTable table;
    private final long seq;
    private Iterator<MemTable.Chain> chains;
    private boolean ascending;
    private MemTable.Chain chain;
    private MemTable.Version current;

    MemTableCursor(MemTable table, long seq) {
        this.table = table;
        this.seq = seq;
    }

    @Override
    public void seek(byte[] target) {
        forward(table.ascending(target, true));
    }

    @Override
    public void seekForPrev(byte[] target) {
        backward(table.descending(target, true));
    }

    @Override
    public void seekToFirst() {
        forward(table.ascending(null, true));
    }

    @Override
    public void seekToLast() {
        backward(table.descending(null, true));
    }

    @Override
    public void next() {
        if (!ascending) {
            chains = table.ascending(chain.key, false);
            ascending = true;
        }
        settle();
    }

    @Override
    public void prev() {
        if (ascending) {
            chains = table.descending(chain.key, false);
            ascending = false;
        }
        settle();
    }

    @Override
    public boolean valid() {
        return current != null;
    }

    @Override
    public byte[] key() {
        return chain.key;
    }

    @Override
    public boolean isTombstone() {
        return current.isDeletion();
    }

    @Override
    public byte[] value() {
        return current.value;
    }

    @Override
    public void close() {
        chains = null;
        chain = null;
        current = null;
    }

    private void forward(Iterator<MemTable.Chain> it) {
        chains = it;
        ascending = true;
        settle();
    }

    private void backward(Iterator<MemTable.Chain> it) {
        chains = it;
        ascending = false;
        settle();
    }

    /** Moves to the next chain in the iterator's direction with a version visible at seq. */
    private void settle() {
        while (chains.hasNext()) {
            MemTable.Chain c = chains.next();
            MemTable.Version v = c.visibleAt(seq);
            if (v != null) {
                chain = c;
                current = v;
                return;
            }
        }
        chain = null;
        current = null;
    }
}

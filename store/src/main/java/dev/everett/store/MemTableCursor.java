package dev.everett.store;

/**
 * A memtable as seen at sequence number {@code seq}: for each key, its newest version with
 * sequence ≤ seq (deletes as tombstones); keys with no such version do not appear. A step forward
 * follows the skip list's bottom link (no search, in either direction of travel before it, since
 * nodes are never unlinked); a step back searches for the predecessor, as RocksDB's memtable does.
 */
final class MemTableCursor implements SourceCursor {

    private final MemTable table;
    private final long seq;
    private MemTable.Chain chain;
    private MemTable.Version current;

    MemTableCursor(MemTable table, long seq) {
        this.table = table;
        this.seq = seq;
    }

    @Override
    public void seek(byte[] target) {
        forward(table.ceiling(target, true));
    }

    @Override
    public void seekForPrev(byte[] target) {
        backward(table.floor(target, true));
    }

    @Override
    public void seekToFirst() {
        forward(table.first());
    }

    @Override
    public void seekToLast() {
        backward(table.last());
    }

    @Override
    public void next() {
        forward(table.next(chain));
    }

    @Override
    public void prev() {
        backward(table.floor(chain.key, false));
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
        chain = null;
        current = null;
    }

    private void forward(MemTable.Chain c) {
        settle(c, true);
    }

    private void backward(MemTable.Chain c) {
        settle(c, false);
    }

    /** Settles on {@code c} or the first chain past it ({@code ahead}: after it, else before) with a version visible at seq. */
    private void settle(MemTable.Chain c, boolean ahead) {
        while (c != null) {
            MemTable.Version v = c.visibleAt(seq);
            if (v != null) {
                chain = c;
                current = v;
                return;
            }
            c = ahead ? table.next(c) : table.floor(c.key, false);
        }
        chain = null;
        current = null;
    }
}

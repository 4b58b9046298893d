package dev.everett.store;

/**
 * A consistent point-in-time view of a store, as RocksDB's: reads and iterators given it (through
 * {@link ReadOptions#setSnapshot}) see exactly the writes committed before it was taken, however
 * many writes, flushes and compactions come later. Release it with
 * {@link EverettDB#releaseSnapshot} or {@link #close()}; while it lives it keeps the memtables and
 * segment files it reads (see the store's documentation for what that costs). Snapshots do not
 * survive a restart.
 */
public final class Snapshot implements AutoCloseable {

    final EverettDB db;
    final ReadView view;
    final long seq;
    private volatile boolean released;

    Snapshot(EverettDB db, ReadView view, long seq) {
        this.db = db;
        this.view = view;
        this.seq = seq;
    }

    /** The sequence number of the last write this snapshot sees. */
    public long getSequenceNumber() {
        return seq;
    }

    /** Same as {@link EverettDB#releaseSnapshot(Snapshot)}; releasing twice does nothing. */
    @Override
    public void close() {
        db.releaseSnapshot(this);
    }

    /** Marks the snapshot released; true the first time only. */
    synchronized boolean markReleased() {
        if (released) {
            return false;
        }
        released = true;
        return true;
    }

    boolean released() {
        return released;
    }
}

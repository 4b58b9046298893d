package dev.everett.store;

import dev.everett.compaction.Version;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What a read consults, fixed at one moment (RocksDB's "super version"): the active memtable, the
 * immutable ones waiting for their flush (newest first) and a reference to the tree's version of
 * segments. A new view is installed (never changed) when the memtable switches, a flush or a
 * compaction lands. Snapshots, iterators and gets hold the view they started with; while any
 * holder remains, its memtables stay in memory and its version's segment files stay on disk,
 * which is how a snapshot goes on seeing exactly its state after later flushes and compactions.
 *
 * <p>Reference counted: the store holds one reference to the current view, and each reader one
 * while it reads. The last release closes the version reference.
 */
final class ReadView {

    final MemTable active;
    final List<MemTable> immutables;
    /** Every memtable, newest first (the active one, then the immutables); never modified. */
    final MemTable[] tables;
    final Version version;
    private final AtomicInteger refs = new AtomicInteger(1);

    /** A view holding {@code version} (the caller's reference passes to the view). */
    ReadView(MemTable active, List<MemTable> immutables, Version version) {
        this.active = active;
        this.immutables = List.copyOf(immutables);
        this.version = version;
        this.tables = new MemTable[1 + immutables.size()];
        tables[0] = active;
        for (int i = 0; i < immutables.size(); i++) {
            tables[i + 1] = immutables.get(i);
        }
    }

    /** Takes a reference unless the view is already fully released; true on success. */
    boolean tryRetain() {
        for (;;) {
            int r = refs.get();
            if (r == 0) {
                return false;
            }
            if (refs.compareAndSet(r, r + 1)) {
                return true;
            }
        }
    }

    /** Drops a reference; the last one closes the version reference. */
    void release() {
        int r = refs.decrementAndGet();
        if (r == 0) {
            version.close();
        } else if (r < 0) {
            throw new IllegalStateException("read view released more often than retained");
        }
    }
}

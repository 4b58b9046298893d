package dev.everett.store;

import java.util.List;

/**
 * What a read consults, fixed at one moment: the active memtable and the immutable ones still
 * waiting for their flush, newest first. A new view is installed (never changed) when the memtable
 * switches; snapshots and iterators keep the view they started with, which is how they go on
 * seeing memtables that later flushes retire.
 */
final class ReadView {

    final MemTable active;
    final List<MemTable> immutables;
    /** Every memtable, newest first (the active one, then the immutables); never modified. */
    final MemTable[] tables;

    ReadView(MemTable active, List<MemTable> immutables) {
        this.active = active;
        this.immutables = List.copyOf(immutables);
        this.tables = new MemTable[1 + immutables.size()];
        tables[0] = active;
        for (int i = 0; i < immutables.size(); i++) {
            tables[i + 1] = immutables.get(i);
        }
    }
}

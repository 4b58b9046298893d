package dev.everett.store;

import java.util.Arrays;
import java.util.Comparator;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The sorted in-memory table that takes writes: every version of every key written since it was
 * created, ordered by key (unsigned bytes) and then by sequence number, newest first, as RocksDB's
 * internal keys are. Readers see a version when its sequence number is at most the one they read
 * at, so concurrent writes of a commit group stay invisible until the group is published.
 *
 * <p>One writer at a time (the commit group's leader) adds entries; any number of readers walk it
 * concurrently. Once {@link #freeze() frozen} it never changes and waits to be flushed.
 */
final class MemTable {

    /** Bytes of bookkeeping charged per entry beyond key and value (skip-list node, entry object, arrays). */
    static final int ENTRY_OVERHEAD = 96;

    /** One version of a key. {@code value} is null for deletes and single deletes. */
    record Entry(byte[] key, long seq, byte type, byte[] value) {
        boolean isDeletion() {
            return type != WriteBatch.PUT;
        }
    }

    /** Key ascending (unsigned), then sequence descending. */
    static final Comparator<Entry> ORDER = (a, b) -> {
        int c = Arrays.compareUnsigned(a.key, b.key);
        return c != 0 ? c : Long.compare(b.seq, a.seq);
    };

    private final ConcurrentSkipListSet<Entry> entries = new ConcurrentSkipListSet<>(ORDER);
    private final AtomicLong approximateBytes = new AtomicLong();
    private final long logNumber;
    private volatile boolean frozen;
    private volatile long maxSeq = -1;
    private volatile long nextLogNumber;
    private volatile long lastSeqAtFreeze;

    /** A memtable whose writes go to log {@code logNumber} (the log started with it). */
    MemTable(long logNumber) {
        this.logNumber = logNumber;
    }

    /** The number of the log started with this memtable. */
    long logNumber() {
        return logNumber;
    }

    void add(byte[] key, long seq, byte type, byte[] value) {
        entries.add(new Entry(key, seq, type, value));
        approximateBytes.addAndGet(ENTRY_OVERHEAD + key.length + (value == null ? 0 : value.length));
        if (seq > maxSeq) {
            maxSeq = seq;
        }
    }

    /**
     * The newest version of {@code key} with sequence ≤ {@code seq}, or null if this table holds
     * none (the caller then looks in older tables).
     */
    Entry get(byte[] key, long seq) {
        Entry e = entries.ceiling(probe(key, seq));
        return e != null && Arrays.equals(e.key, key) ? e : null;
    }

    long approximateBytes() {
        return approximateBytes.get();
    }

    int entryCount() {
        return entries.size();
    }

    boolean isEmpty() {
        return entries.isEmpty();
    }

    long maxSeq() {
        return maxSeq;
    }

    /**
     * Makes the table immutable: later writes go to a new memtable and log {@code nextLogNumber};
     * {@code lastSeq} is the last sequence number allocated before the switch. Once this table is
     * flushed, recovery needs only logs from {@code nextLogNumber} on and restarts after {@code lastSeq}.
     */
    void freeze(long nextLogNumber, long lastSeq) {
        this.nextLogNumber = nextLogNumber;
        this.lastSeqAtFreeze = lastSeq;
        frozen = true;
    }

    long nextLogNumber() {
        return nextLogNumber;
    }

    long lastSeqAtFreeze() {
        return lastSeqAtFreeze;
    }

    boolean frozen() {
        return frozen;
    }

    /** The entries in internal order, for flush and cursors. */
    ConcurrentSkipListSet<Entry> entries() {
        return entries;
    }

    /** A search key sorting just before every version of {@code key} with sequence ≤ {@code seq}. */
    static Entry probe(byte[] key, long seq) {
        return new Entry(key, seq, WriteBatch.PUT, null);
    }
}

package dev.everett.store;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The sorted in-memory table that takes writes: for each key (unsigned byte order) a chain of its
 * versions, newest first, as RocksDB's internal keys order them. Readers see a version when its
 * sequence number is at most the one they read at, so concurrent writes of a commit group stay
 * invisible until the group is published.
 *
 * <p>Multi-version only as far as reads need (RocksDB keeps a version while a snapshot can see
 * it): a version is dropped once a newer one is published and no registered read point (a
 * snapshot or an iterator) lies between the two. The commit leader prunes the chains of the keys
 * its group wrote once the group is published ({@link #prune(Chain, ReadPoints)});
 * {@link #prune(ReadPoints)} sweeps the whole table when snapshots and iterators are released. Point reads are not registered: one that read at a
 * sequence number older than a version dropped meanwhile sees {@link #STALE} and retries at a
 * newer one.
 *
 * <p>One writer at a time (the commit group's leader) adds versions; any number of readers walk
 * the table concurrently. Once {@link #freeze() frozen} it takes no new versions and waits to be
 * flushed (sweeps may still drop versions no snapshot needs).
 *
 * <p>The chains are found through a {@link ChainIndex}, a skip list in {@code long} slabs that
 * compares keys by 16-byte prefixes held in its nodes.
 */
final class MemTable {

    /** Bytes of bookkeeping charged per version beyond key and value (skip-list node, chain, version). */
    static final int ENTRY_OVERHEAD = 96;

    /** Returned by {@link #get} when a version the read may have needed was dropped while it read. */
    static final Version STALE = new Version(Long.MAX_VALUE, WriteBatch.DELETE, null, null);

    /** One version of a key. {@code value} is null for deletes and single deletes. */
    static final class Version {
        final long seq;
        final byte type;
        final byte[] value;
        /** The next older version; only pruning changes it, to skip versions no read needs. */
        volatile Version older;

        Version(long seq, byte type, byte[] value, Version older) {
            this.seq = seq;
            this.type = type;
            this.value = value;
            this.older = older;
        }

        boolean isDeletion() {
            return type != WriteBatch.PUT;
        }
    }

    /** Every version of one key held here, newest first, found through its node in the table's {@link ChainIndex}. */
    static final class Chain {
        final byte[] key;
        /** The key's node in the table's {@link ChainIndex}. */
        final int node;
        volatile Version newest;
        /**
         * Set before a version is unlinked to the sequence number of the version that superseded
         * it, so that a point read at an older, unregistered sequence number sees that it may
         * have missed the version it needed.
         */
        private volatile long prunedUpTo = -1;
        /** Some version was dropped: the chain no longer shows all of the key's history here. */
        private volatile boolean pruned;

        Chain(byte[] key, int node, Version newest) {
            this.key = key;
            this.node = node;
            this.newest = newest;
        }

        /** The newest version with sequence ≤ {@code seq}, or null. */
        Version visibleAt(long seq) {
            Version v = newest;
            while (v != null && v.seq > seq) {
                v = v.older;
            }
            return v;
        }

        /** True if the flush may treat this chain as the key's whole history in this table. */
        boolean complete() {
            return !pruned;
        }

        /**
         * Unlinks every version no read point needs: a version stays while it is the newest at
         * some read point ({@code keep}'s sequence numbers and its published sequence number).
         * Versions newer than the published number are never dropped. Callers synchronize on
         * the chain; {@code table} counts what is dropped.
         */
        void prune(ReadPoints keep, MemTable table) {
            Version newer = newest;
            Version v = newer.older;
            while (v != null) {
                Version next = v.older;
                if (v.seq <= keep.published() && !keep.anyIn(v.seq, newer.seq)) {
                    // newer.seq ≤ published too (published lies outside [v.seq, newer.seq)):
                    // an unregistered read at a sequence number below newer's may have needed v.
                    if (newer.seq > prunedUpTo) {
                        prunedUpTo = newer.seq;
                    }
                    pruned = true;
                    newer.older = next; // readers still on v go on to next, as before
                    table.forget(this, v);
                } else {
                    newer = v;
                }
                v = next;
            }
        }
    }

    /**
     * The sequence numbers reads may still be made at: the last published one (where new reads
     * start) and those of every live snapshot and iterator, sorted ascending.
     */
    record ReadPoints(long published, long[] registered) {

        /** True if a read point lies in [{@code from}, {@code to}). */
        boolean anyIn(long from, long to) {
            if (published >= from && published < to) {
                return true;
            }
            int i = Arrays.binarySearch(registered, from);
            if (i < 0) {
                i = -i - 1;
            }
            return i < registered.length && registered[i] < to;
        }
    }

    private final ChainIndex index = new ChainIndex();
    private final AtomicLong approximateBytes = new AtomicLong();
    private final AtomicLong versions = new AtomicLong();
    private volatile long keys;
    private volatile long extraAfterLastSweep;
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

    /**
     * Adds a version (one writer at a time). Returns the key's chain if it already held versions
     * (the writer prunes it with {@link #prune(Chain, ReadPoints)} once the version is published),
     * else null.
     */
    Chain add(byte[] key, long seq, byte type, byte[] value) {
        Version v = new Version(seq, type, value, null);
        Chain chain = index.addIfAbsent(key, v);
        versions.incrementAndGet();
        approximateBytes.addAndGet(charge(key, value));
        if (chain == null) {
            keys++; // one writer
        } else {
            synchronized (chain) {
                v.older = chain.newest;
                chain.newest = v;
            }
        }
        if (seq > maxSeq) {
            maxSeq = seq;
        }
        return chain;
    }

    /** Drops the versions of {@code chain} (one of this table's) no read point in {@code keep} needs. */
    void prune(Chain chain, ReadPoints keep) {
        synchronized (chain) {
            chain.prune(keep, this);
        }
    }

    private static long charge(byte[] key, byte[] value) {
        return ENTRY_OVERHEAD + key.length + (value == null ? 0 : value.length);
    }

    /** Version {@code v} of {@code chain} was dropped. */
    private void forget(Chain chain, Version v) {
        versions.decrementAndGet();
        approximateBytes.addAndGet(-charge(chain.key, v.value));
    }

    /**
     * Drops, across the whole table, versions no read point in {@code keep} needs, if the walk is
     * worth it: versions beyond one per key amount to an eighth of the keys (at least 16), and
     * either a snapshot was just released ({@code snapshotReleased}) or as many more have built
     * up since the last sweep. (An iterator's versions, short-lived, otherwise go when their key
     * is next written.) Any thread; concurrent with the writer and readers. Returns true if it swept.
     */
    boolean prune(ReadPoints keep, boolean snapshotReleased) {
        if (!sweepDue(snapshotReleased)) {
            return false;
        }
        sweep(keep);
        return true;
    }

    /** Whether {@link #prune(ReadPoints, boolean)} would sweep now. */
    boolean sweepDue(boolean snapshotReleased) {
        long extra = versions.get() - keys;
        long worth = Math.max(16, keys / 8);
        return extra >= worth && (snapshotReleased || extra - extraAfterLastSweep >= worth);
    }

    /** Drops, across the whole table, versions no read point in {@code keep} needs. */
    void sweep(ReadPoints keep) {
        for (Chain chain = first(); chain != null; chain = next(chain)) {
            if (chain.newest.older != null) {
                synchronized (chain) {
                    chain.prune(keep, this);
                }
            }
        }
        extraAfterLastSweep = versions.get() - keys;
    }

    /**
     * The newest version of {@code key} with sequence ≤ {@code seq}, null if this table holds
     * none (the caller then looks in older tables), or {@link #STALE} if {@code unregistered}
     * (the read point is not a snapshot's or iterator's) and a version it may have needed was
     * dropped meanwhile: the caller reads again at the latest sequence number.
     */
    Version get(byte[] key, long seq, boolean unregistered) {
        Chain chain = index.find(key);
        if (chain == null) {
            return null;
        }
        Version v = chain.visibleAt(seq);
        // Read after the walk: an unlink the walk saw was preceded by this write.
        if (unregistered && chain.prunedUpTo > seq) {
            return STALE;
        }
        return v;
    }

    long approximateBytes() {
        return approximateBytes.get();
    }

    /** Versions held (every key's chain). */
    long versionCount() {
        return versions.get();
    }

    /** Keys held. */
    long keyCount() {
        return keys;
    }

    boolean isEmpty() {
        return keys == 0;
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

    /** The first key's chain, or null if the table is empty. */
    Chain first() {
        return index.first();
    }

    /** The chain of the key after {@code chain}'s (one of this table's), or null. */
    Chain next(Chain chain) {
        return index.next(chain);
    }

    /** The last key's chain, or null if the table is empty. */
    Chain last() {
        return index.last();
    }

    /** The chain of the first key ≥ {@code key} (> if not {@code inclusive}), or null. */
    Chain ceiling(byte[] key, boolean inclusive) {
        return index.ceiling(key, inclusive);
    }

    /** Whether the table holds a key in {@code [lo, hi]} (null: unbounded on that side). */
    boolean holdsKeyIn(byte[] lo, byte[] hi) {
        Chain c = lo == null ? first() : ceiling(lo, true);
        return c != null && (hi == null || Arrays.compareUnsigned(c.key, hi) <= 0);
    }

    /** The chain of the last key ≤ {@code key} (< if not {@code inclusive}), or null. */
    Chain floor(byte[] key, boolean inclusive) {
        return index.floor(key, inclusive);
    }
}

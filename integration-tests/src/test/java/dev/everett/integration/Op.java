package dev.everett.integration;

import java.util.List;

/**
 * One step of an equivalence sequence. Writes, reads and maintenance calls are all ops, so a
 * sequence replays exactly and a shrunk one prints as Java ({@link OpPrinter}). Snapshots are
 * named by small integers the sequence chooses; {@link #NO_SNAPSHOT} reads the latest state.
 */
sealed interface Op {
    int NO_SNAPSHOT = -1;

    /** An op that changes the data: allowed alone or inside a {@link Batch}. */
    sealed interface Write extends Op permits Put, Delete, SingleDelete {
        byte[] key();
    }

    record Put(byte[] key, byte[] value) implements Write {}

    record Delete(byte[] key) implements Write {}

    /** Only on keys that keep RocksDB's contract: present, exactly one Put since the last SingleDelete, never Deleted. */
    record SingleDelete(byte[] key) implements Write {}

    /** Applied atomically, in order (each write takes the next sequence number). */
    record Batch(List<Write> writes) implements Op {}

    record TakeSnapshot(int id) implements Op {}

    record ReleaseSnapshot(int id) implements Op {}

    record Get(int snapshot, byte[] key) implements Op {}

    /** Several keys read at one point ({@code multiGetAsList}), repeats allowed; answers in the keys' order. */
    record MultiGet(int snapshot, List<byte[]> keys) implements Op {}

    /**
     * An iterator opened at a snapshot (or the implicit one) with optional bounds (lower inclusive,
     * upper exclusive; null for none), driven through {@code steps}; every step's answer is compared.
     */
    record Scan(int snapshot, byte[] lower, byte[] upper, List<Step> steps) implements Op {}

    /** Flush the memtable to segments (RocksDB: wait for the flush). */
    record Flush() implements Op {}

    /** Full manual compaction (RocksDB: bottommost level forced, so tombstones can be purged). */
    record CompactAll() implements Op {}

    /** Manual compaction of {@code [lower, upper]} (both inclusive; null: unbounded), bottommost level forced. */
    record CompactRange(byte[] lower, byte[] upper) implements Op {}

    /** Close and open again; live snapshots are released first (they do not survive a restart). */
    record Reopen() implements Op {}

    /**
     * db_stress's compaction check: under a fresh snapshot, the hash of {@code [lower, upper)} must be
     * the same before and after a forced full compaction, in each system, and equal across systems.
     */
    record CompactionInvariance(byte[] lower, byte[] upper) implements Op {}

    /** Everett's fingerprint of the whole latest state, compared across systems. */
    record FingerprintCheck() implements Op {}

    /** One iterator movement. */
    sealed interface Step permits SeekToFirst, SeekToLast, Seek, SeekForPrev, Next, Prev {}

    record SeekToFirst() implements Step {}

    record SeekToLast() implements Step {}

    record Seek(byte[] target) implements Step {}

    record SeekForPrev(byte[] target) implements Step {}

    /** Only meaningful on a valid iterator; the runner skips it when both systems are invalid. */
    record Next() implements Step {}

    record Prev() implements Step {}
}

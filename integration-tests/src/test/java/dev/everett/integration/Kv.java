package dev.everett.integration;

import java.util.List;

/**
 * The surface the harnesses drive, implemented over RocksDB ({@link RocksKv}), over EverettDB
 * ({@link EverettKv}) and over an in-memory model ({@link ModelKv}). Snapshots are opaque handles.
 * A failure is whatever the system throws; the runner reports it as that system's answer.
 */
interface Kv extends AutoCloseable {
    String name();

    void put(byte[] key, byte[] value) throws Exception;

    void delete(byte[] key) throws Exception;

    void singleDelete(byte[] key) throws Exception;

    /** Atomically, in order. */
    void write(List<Op.Write> batch) throws Exception;

    Object snapshot() throws Exception;

    void release(Object snapshot) throws Exception;

    /** The value at the snapshot (null: the latest state), or null when absent. */
    byte[] get(Object snapshot, byte[] key) throws Exception;

    /** The values of {@code keys} read at one point at the snapshot (null: the latest state), null where absent. */
    List<byte[]> multiGet(Object snapshot, List<byte[]> keys) throws Exception;

    /** An iterator at the snapshot (null: implicit) with optional bounds (null: none). */
    Cursor cursor(Object snapshot, byte[] lower, byte[] upper) throws Exception;

    void flush() throws Exception;

    void compactAll() throws Exception;

    /** Manual compaction of {@code [lower, upper]} (null: unbounded), bottommost level forced. */
    void compactRange(byte[] lower, byte[] upper) throws Exception;

    /** Close and open the same directory again. Snapshots must have been released. */
    void reopen() throws Exception;

    @Override
    void close() throws Exception;

    /** A RocksDB-style iterator. */
    interface Cursor extends AutoCloseable {
        void seekToFirst() throws Exception;

        void seekToLast() throws Exception;

        void seek(byte[] target) throws Exception;

        void seekForPrev(byte[] target) throws Exception;

        void next() throws Exception;

        void prev() throws Exception;

        boolean isValid() throws Exception;

        byte[] key() throws Exception;

        byte[] value() throws Exception;

        @Override
        void close() throws Exception;
    }
}

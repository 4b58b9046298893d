package dev.everett.cli;

import java.io.IOException;
import java.nio.file.Path;

/** One of the two stores the demo runs the same workload on, through the calls both share. */
interface DemoStore extends AutoCloseable {
    /** The name printed in tables. */
    String name();

    Path directory();

    void put(byte[] key, byte[] value);

    void delete(byte[] key);

    /** The value, or null when absent. */
    byte[] get(byte[] key);

    /** Writes everything in memory out to files, then compacts the whole key range to one level. */
    void flushAndCompact();

    /** A cursor before the first key (RocksDB's iterator contract: seekToFirst, isValid, key, value, next). */
    Cursor newCursor();

    /** A one-line account of the store's files after compaction, for the report. */
    String describeFiles() throws IOException;

    @Override
    void close();

    /** A forward cursor over the live records. */
    interface Cursor extends AutoCloseable {
        void seekToFirst();

        boolean isValid();

        byte[] key();

        byte[] value();

        void next();

        @Override
        void close();
    }
}

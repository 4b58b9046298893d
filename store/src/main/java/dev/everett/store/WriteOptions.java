package dev.everett.store;

/**
 * How a write is made durable, as in RocksJava. By default a write goes to the write-ahead log
 * (written to the operating system, not forced) before it is acknowledged: it survives a crash of
 * the process, not of the machine.
 */
public final class WriteOptions implements AutoCloseable {

    private boolean sync;
    private boolean disableWAL;

    public WriteOptions() {
    }

    /**
     * With {@code true}, the log is forced to stable storage before the write returns (one force
     * per commit group, shared by the writers waiting together), so the write survives a machine
     * crash. Ignored when the log is disabled.
     */
    public WriteOptions setSync(boolean sync) {
        this.sync = sync;
        return this;
    }

    public boolean sync() {
        return sync;
    }

    /**
     * With {@code true}, the write skips the write-ahead log: it is lost on a crash unless a flush
     * wrote its memtable to a segment first.
     */
    public WriteOptions setDisableWAL(boolean disableWAL) {
        this.disableWAL = disableWAL;
        return this;
    }

    public boolean disableWAL() {
        return disableWAL;
    }

    /** Nothing to release (kept so RocksJava's try-with-resources habits carry over). */
    @Override
    public void close() {
    }
}

package dev.everett.integration;

/** How the crash-test child writes, and what survives a kill in that mode. */
enum CrashMode {
    /** {@code setSync(true)}: every acknowledged write survives. */
    SYNC(true, false),
    /**
     * WAL on, {@code setSync(false)}: RocksDB promises that a process crash (the machine stays up)
     * loses nothing acknowledged, since the log write reached the OS before the call returned.
     */
    UNSYNCED(false, false),
    /** {@code setDisableWAL(true)}: only what a finished flush wrote survives; a prefix, never a mix. */
    NOWAL(false, true);

    final boolean sync;
    final boolean disableWal;

    CrashMode(boolean sync, boolean disableWal) {
        this.sync = sync;
        this.disableWal = disableWal;
    }
}

package dev.everett.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;

/**
 * A store's hold on its {@code LOCK} file: exclusive for a read-write open, shared for read-only
 * ones, so a writer excludes every other open and readers exclude a writer, across processes.
 *
 * <p>The operating system's file locks belong to the whole process, and closing <em>any</em>
 * channel of a file releases every lock the process holds on it (the {@link FileLock} contract
 * allows this, and Linux does it). So an open that a lock this JVM already holds refuses must not
 * open a channel on {@code LOCK} at all: this class keeps every hold of this JVM, by the lock
 * file's real path, and answers such opens from that table first. Read-only opens of one store in
 * this JVM share one shared lock, counted, released with the last of them.
 */
final class StoreLock {
    /** Holds of this JVM, by the LOCK file's path under the store directory's real path. */
    private static final Map<Path, StoreLock> HELD = new HashMap<>();
    /** A read-only open of a store without a LOCK file (copied without it): nothing is held. */
    private static final StoreLock NONE = new StoreLock(null, null, null, false);

    private final Path file;
    private final FileChannel channel;
    private final FileLock lock;
    private final boolean exclusive;
    private int holders;

    private StoreLock(Path file, FileChannel channel, FileLock lock, boolean exclusive) {
        this.file = file;
        this.channel = channel;
        this.lock = lock;
        this.exclusive = exclusive;
    }

    /**
     * The exclusive hold of a read-write open of {@code dir} (which exists), creating its LOCK file
     * if missing.
     *
     * @throws IllegalStateException if any open, read-write or read-only, holds the store, in this process or another
     */
    static StoreLock exclusive(Path dir) throws IOException {
        Path key = dir.toRealPath().resolve("LOCK");
        synchronized (HELD) {
            StoreLock held = HELD.get(key);
            if (held != null) {
                throw new IllegalStateException("store at " + dir + " is already open in this process ("
                        + (held.exclusive ? "read-write" : "read-only") + "; its LOCK file is held)");
            }
            FileChannel ch = FileChannel.open(key, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock l = tryLock(ch, false);
            if (l == null) {
                ch.close(); // this JVM holds no lock on the file (the table says so): closing releases none
                throw new IllegalStateException("store at " + dir + " is already open in another process (its LOCK file is held)");
            }
            return hold(key, ch, l, true);
        }
    }

    /**
     * A share of {@code dir}'s LOCK file for one read-only open; nothing if the store has no LOCK file.
     *
     * @throws IllegalStateException if a read-write open holds the store, in this process or another
     */
    static StoreLock shared(Path dir) throws IOException {
        Path real = dir.toRealPath();
        Path key = real.resolve("LOCK");
        if (!Files.exists(key)) {
            return NONE;
        }
        synchronized (HELD) {
            StoreLock held = HELD.get(key);
            if (held != null) {
                if (held.exclusive) {
                    throw writer(dir, "in this process");
                }
                held.holders++;
                return held;
            }
            FileChannel ch = FileChannel.open(key, StandardOpenOption.READ);
            FileLock l = tryLock(ch, true);
            if (l == null) {
                ch.close(); // as above: no lock of this JVM on the file to lose
                throw writer(dir, "in another process");
            }
            return hold(key, ch, l, false);
        }
    }

    private static IllegalStateException writer(Path dir, String where) {
        return new IllegalStateException("store at " + dir + " is open for writing " + where
                + " (its LOCK file is held), so it cannot be opened read-only until that closes");
    }

    private static StoreLock hold(Path key, FileChannel ch, FileLock l, boolean exclusive) {
        StoreLock s = new StoreLock(key, ch, l, exclusive);
        s.holders = 1;
        HELD.put(key, s);
        return s;
    }

    /**
     * Tries the lock. An {@link OverlappingFileLockException} means code outside this class holds
     * a lock on the file in this JVM: the channel is then left open, since closing it would
     * release that lock too.
     */
    private static FileLock tryLock(FileChannel ch, boolean shared) throws IOException {
        try {
            return ch.tryLock(0, Long.MAX_VALUE, shared);
        } catch (OverlappingFileLockException lockedOutsideThisClass) {
            throw new IllegalStateException(ch + ": the LOCK file is locked elsewhere in this process", lockedOutsideThisClass);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    /** Gives up one open's hold; the last one releases the lock and closes the file. */
    void release() {
        if (this == NONE) {
            return;
        }
        synchronized (HELD) {
            if (--holders > 0) {
                return;
            }
            HELD.remove(file);
            try {
                lock.release();
                channel.close();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot release " + file, e);
            }
        }
    }
}

package dev.everett.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashMap;
import java.util.Map;

/**
 * A store's hold on its {@code LOCK} file: exclusive for a read-write open, shared for read-only
 * ones, so a writer excludes every other open and readers exclude a writer, across processes.
 *
 * <p>The operating system's file locks belong to the whole process, and closing <em>any</em>
 * channel of a file releases every lock the process holds on it (the {@link FileLock} contract
 * allows this, and Linux does it; a channel nobody references is closed by the garbage collector,
 * with the same effect). So an open that a hold of this JVM refuses must not open a channel on
 * {@code LOCK} at all: this class keeps every hold of this JVM under two identities on disk
 * (device and inode), the store directory's and its {@code LOCK} file's, so that another path to
 * either, a hard link to the file included, finds the hold before any channel is opened.
 * Read-only opens of one store in this JVM share one shared lock, counted, released with the last
 * of them.
 *
 * <p>A store without a {@code LOCK} file (copied without it) is held by its directory alone: its
 * read-only opens keep out a writer in this JVM, not one in another process, since making the file
 * would be a write. If a writer elsewhere makes the file meanwhile, the next read-only open here
 * takes the file's shared lock for the hold (and is refused while that writer holds it).
 */
final class StoreLock {
    /** Holds of this JVM, each under its directory's identity and its LOCK file's (if it has one). */
    private static final Map<Object, StoreLock> HELD = new HashMap<>();
    /**
     * Channels on LOCK files that code outside this class had locked in this JVM, by the file's
     * identity: closing them, or letting the collector close them, would release that lock, so
     * they are kept open, one per file (a file found here is refused without opening another).
     * Only such outside locking puts one here; this class's own holds are found in {@link #HELD}.
     */
    private static final Map<Object, FileChannel> KEPT = new HashMap<>();

    private final Object directoryKey;
    private final Path file;
    private final boolean exclusive;
    /** The LOCK file's identity, channel and lock; null while a read-only hold has no LOCK file. */
    private Object fileKey;
    private FileChannel channel;
    private FileLock lock;
    private int holders;

    private StoreLock(Object directoryKey, Path file, boolean exclusive) {
        this.directoryKey = directoryKey;
        this.file = file;
        this.exclusive = exclusive;
    }

    /** The identity of {@code path} on disk (device and inode where the file system has them). */
    private static Object identity(Path path) throws IOException {
        Object k = Files.readAttributes(path, BasicFileAttributes.class).fileKey();
        return k != null ? k : path.toRealPath();
    }

    /**
     * The exclusive hold of a read-write open of {@code dir} (which exists), creating its LOCK file
     * if missing.
     *
     * @throws IllegalStateException if any open, read-write or read-only, holds the store, in this process or another
     */
    static StoreLock exclusive(Path dir) throws IOException {
        Path file = dir.resolve("LOCK");
        synchronized (HELD) {
            Object directoryKey = identity(dir);
            StoreLock held = HELD.get(directoryKey);
            if (held == null) {
                try {
                    Files.createFile(file); // a new file: no lock of this process can be on it
                } catch (FileAlreadyExistsException exists) {
                    // the usual case
                }
                held = HELD.get(identity(file));
            }
            if (held != null) {
                throw new IllegalStateException("store at " + dir + " is already open in this process ("
                        + (held.exclusive ? "read-write" : "read-only") + "; its LOCK file is held)");
            }
            StoreLock s = new StoreLock(directoryKey, file, true);
            if (!s.lockFile(false)) {
                throw new IllegalStateException("store at " + dir + " is already open in another process (its LOCK file is held)");
            }
            return s.register();
        }
    }

    /**
     * A share of {@code dir}'s LOCK file for one read-only open.
     *
     * @throws IllegalStateException if a read-write open holds the store, in this process or another
     */
    static StoreLock shared(Path dir) throws IOException {
        Path file = dir.resolve("LOCK");
        synchronized (HELD) {
            Object directoryKey = identity(dir);
            boolean lockFile = Files.exists(file);
            StoreLock held = HELD.get(directoryKey);
            if (held == null && lockFile) {
                held = HELD.get(identity(file));
            }
            if (held != null) {
                if (held.exclusive) {
                    throw writer(dir, "in this process");
                }
                if (held.channel == null && lockFile) {
                    // Held so far without a LOCK file, which a writer elsewhere has made since: share its lock first.
                    StoreLock other = HELD.get(identity(file));
                    if (other != null) {
                        // That file is already another hold's here (a hard link between stores): no channel on it may be opened.
                        throw new IllegalStateException("store at " + dir + ": its LOCK file is the LOCK file of another store open in this process ("
                                + (other.exclusive ? "read-write" : "read-only") + ")");
                    }
                    if (!held.lockFile(true)) {
                        throw writer(dir, "in another process");
                    }
                    HELD.put(held.fileKey, held);
                }
                held.holders++;
                return held;
            }
            StoreLock s = new StoreLock(directoryKey, file, false);
            if (lockFile && !s.lockFile(true)) {
                throw writer(dir, "in another process");
            }
            return s.register();
        }
    }

    private static IllegalStateException writer(Path dir, String where) {
        return new IllegalStateException("store at " + dir + " is open for writing " + where
                + " (its LOCK file is held), so it cannot be opened read-only until that closes");
    }

    /** Registers a new hold (one holder) under its identities. */
    private StoreLock register() {
        holders = 1;
        HELD.put(directoryKey, this);
        if (fileKey != null) {
            HELD.put(fileKey, this);
        }
        return this;
    }

    /**
     * Takes the LOCK file's lock (shared or exclusive) for this hold; false if another process
     * holds it. An {@link OverlappingFileLockException} means code outside this class locks the
     * file in this JVM: the channel is then kept open (see {@link #KEPT}).
     */
    private boolean lockFile(boolean shared) throws IOException {
        Object key = identity(file);
        if (KEPT.containsKey(key)) {
            throw new IllegalStateException(file + " is locked elsewhere in this process");
        }
        FileChannel ch = FileChannel.open(file, shared ? StandardOpenOption.READ : StandardOpenOption.WRITE);
        FileLock l;
        try {
            l = ch.tryLock(0, Long.MAX_VALUE, shared);
        } catch (OverlappingFileLockException lockedOutsideThisClass) {
            KEPT.put(key, ch);
            throw new IllegalStateException(file + " is locked elsewhere in this process", lockedOutsideThisClass);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
        if (l == null) {
            ch.close(); // another process holds it, and this JVM holds no lock on the file: closing releases none
            return false;
        }
        try {
            if (!identity(file).equals(key)) {
                throw new IllegalStateException(file + " was replaced while it was being locked; try again");
            }
        } catch (IOException | RuntimeException e) {
            try {
                l.release(); // ours alone: the table holds nothing on this file, so closing drops no other lock
            } finally {
                ch.close();
            }
            throw e;
        }
        fileKey = key;
        channel = ch;
        lock = l;
        return true;
    }

    /** Gives up one open's hold; the last one releases the lock and closes the file. */
    void release() {
        synchronized (HELD) {
            if (--holders > 0) {
                return;
            }
            HELD.remove(directoryKey);
            if (fileKey != null) {
                HELD.remove(fileKey);
            }
            if (channel == null) {
                return;
            }
            try {
                try {
                    lock.release();
                } finally {
                    channel.close();
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot release " + file, e);
            }
        }
    }
}

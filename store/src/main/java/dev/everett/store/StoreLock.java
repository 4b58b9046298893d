package dev.everett.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A store's hold on its {@code LOCK} file: exclusive for a read-write open, shared for read-only
 * ones, so a writer excludes every other open and readers exclude a writer, across processes.
 *
 * <p>The operating system's file locks belong to the whole process, and closing <em>any</em>
 * channel of a file releases every lock the process holds on it (the {@link FileLock} contract
 * allows this, and Linux does it; a channel nobody references is closed by the garbage collector,
 * with the same effect). So an open that a hold of this JVM refuses must not open a channel on
 * {@code LOCK} at all: this class keeps every hold of this JVM, by the store directory's identity
 * on disk (so another spelling of the path finds it), and answers such opens from that table
 * first. Read-only opens of one store in this JVM share one shared lock, counted, released with
 * the last of them. A store without a {@code LOCK} file (copied without it) is held in the table
 * alone: read-only opens of it exclude a writer in this JVM, but not in another process, since
 * making the file would be a write.
 */
final class StoreLock {
    /** Holds of this JVM, by the store directory's file key. */
    private static final Map<Object, StoreLock> HELD = new HashMap<>();
    /**
     * Channels on a LOCK file that this JVM had locked outside this table (another path to the
     * same file, such as a hard link): closing them, or letting the collector close them, would
     * release that lock, so they are kept open for the life of the JVM.
     */
    private static final List<FileChannel> KEPT = new ArrayList<>();

    private final Object key;
    private final Path file;
    private final FileChannel channel;
    private final FileLock lock;
    private final boolean exclusive;
    private int holders;

    private StoreLock(Object key, Path file, FileChannel channel, FileLock lock, boolean exclusive) {
        this.key = key;
        this.file = file;
        this.channel = channel;
        this.lock = lock;
        this.exclusive = exclusive;
    }

    /** The identity of directory {@code dir} on disk (device and inode where the file system has them). */
    private static Object identity(Path dir) throws IOException {
        Object k = Files.readAttributes(dir, BasicFileAttributes.class).fileKey();
        return k != null ? k : dir.toRealPath();
    }

    /**
     * The exclusive hold of a read-write open of {@code dir} (which exists), creating its LOCK file
     * if missing.
     *
     * @throws IllegalStateException if any open, read-write or read-only, holds the store, in this process or another
     */
    static StoreLock exclusive(Path dir) throws IOException {
        Object key = identity(dir);
        Path file = dir.resolve("LOCK");
        synchronized (HELD) {
            StoreLock held = HELD.get(key);
            if (held != null) {
                throw new IllegalStateException("store at " + dir + " is already open in this process ("
                        + (held.exclusive ? "read-write" : "read-only") + "; its LOCK file is held)");
            }
            FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock l = tryLock(ch, file, false);
            if (l == null) {
                ch.close(); // another process holds it, and this JVM holds no lock on the file: closing releases none
                throw new IllegalStateException("store at " + dir + " is already open in another process (its LOCK file is held)");
            }
            return hold(key, file, ch, l, true);
        }
    }

    /**
     * A share of {@code dir}'s LOCK file for one read-only open.
     *
     * @throws IllegalStateException if a read-write open holds the store, in this process or another
     */
    static StoreLock shared(Path dir) throws IOException {
        Object key = identity(dir);
        Path file = dir.resolve("LOCK");
        synchronized (HELD) {
            StoreLock held = HELD.get(key);
            if (held != null) {
                if (held.exclusive) {
                    throw writer(dir, "in this process");
                }
                held.holders++;
                return held;
            }
            if (!Files.exists(file)) {
                return hold(key, file, null, null, false);
            }
            FileChannel ch = FileChannel.open(file, StandardOpenOption.READ);
            FileLock l = tryLock(ch, file, true);
            if (l == null) {
                ch.close(); // as above: no lock of this JVM on the file to lose
                throw writer(dir, "in another process");
            }
            return hold(key, file, ch, l, false);
        }
    }

    private static IllegalStateException writer(Path dir, String where) {
        return new IllegalStateException("store at " + dir + " is open for writing " + where
                + " (its LOCK file is held), so it cannot be opened read-only until that closes");
    }

    private static StoreLock hold(Object key, Path file, FileChannel ch, FileLock l, boolean exclusive) {
        StoreLock s = new StoreLock(key, file, ch, l, exclusive);
        s.holders = 1;
        HELD.put(key, s);
        return s;
    }

    /**
     * Tries the lock. An {@link OverlappingFileLockException} means this JVM already locks the
     * file through another path: the channel is then kept open (see {@link #KEPT}).
     */
    private static FileLock tryLock(FileChannel ch, Path file, boolean shared) throws IOException {
        try {
            return ch.tryLock(0, Long.MAX_VALUE, shared);
        } catch (OverlappingFileLockException lockedThroughAnotherPath) {
            KEPT.add(ch);
            throw new IllegalStateException(file + " is already locked in this process through another path to the same file"
                    + " (a hard link, or a copy made with links, of a store that is open)", lockedThroughAnotherPath);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    /** Gives up one open's hold; the last one releases the lock and closes the file. */
    void release() {
        synchronized (HELD) {
            if (--holders > 0) {
                return;
            }
            HELD.remove(key);
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

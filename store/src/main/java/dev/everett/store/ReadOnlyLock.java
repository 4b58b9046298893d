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
 * Read-only opens' share of a store's {@code LOCK} file: a shared lock, which the exclusive lock
 * of a read-write open excludes both ways. File locks belong to the whole JVM, and a second lock
 * on the same file from the same JVM is refused even when both are shared, so the read-only opens
 * of one store in this JVM share one lock, counted, released with the last of them.
 */
final class ReadOnlyLock {
    /** Shared locks this JVM holds, by the LOCK file's real path. */
    private static final Map<Path, ReadOnlyLock> HELD = new HashMap<>();
    /** For a store without a LOCK file (copied without it): nothing to share. */
    private static final ReadOnlyLock NONE = new ReadOnlyLock(null, null, null);

    private final Path file;
    private final FileChannel channel;
    private final FileLock lock;
    private int opens;

    private ReadOnlyLock(Path file, FileChannel channel, FileLock lock) {
        this.file = file;
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * A share of {@code dir}'s LOCK file, for one read-only open.
     *
     * @throws IllegalStateException if a read-write open holds the store, in this process or another
     */
    static ReadOnlyLock acquire(Path dir) throws IOException {
        Path lockFile = dir.resolve("LOCK");
        if (!Files.exists(lockFile)) {
            return NONE;
        }
        Path key = lockFile.toRealPath();
        synchronized (HELD) {
            ReadOnlyLock held = HELD.get(key);
            if (held == null) {
                FileChannel ch = FileChannel.open(lockFile, StandardOpenOption.READ);
                FileLock l;
                try {
                    l = ch.tryLock(0, Long.MAX_VALUE, true);
                } catch (OverlappingFileLockException writerInThisJvm) {
                    l = null;
                } catch (IOException | RuntimeException e) {
                    ch.close();
                    throw e;
                }
                if (l == null) {
                    ch.close();
                    throw new IllegalStateException("store at " + dir + " is open for writing (its LOCK file is held), so it cannot be opened read-only until that closes");
                }
                held = new ReadOnlyLock(key, ch, l);
                HELD.put(key, held);
            }
            held.opens++;
            return held;
        }
    }

    /** Gives up one open's share; the last one releases the lock. */
    void release() {
        if (this == NONE) {
            return;
        }
        synchronized (HELD) {
            if (--opens > 0) {
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

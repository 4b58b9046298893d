package dev.everett.segment.io;


import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A file written under a temporary name beside its target and published in one step: force the
 * data, rename atomically over the target, force the directory so the rename itself survives a
 * crash. Until {@link #publish()} the target is untouched.
 */
public final class AtomicFile implements AutoCloseable {
    private final Path target;
    private final Path temp;
    private final FileChannel channel;
    private final boolean durable;
    private boolean published;
    private boolean closed;

    public AtomicFile(Path target) throws IOException {
        this(target, true);
    }

    /**
     * {@code durable = false} skips both forces (data and directory) on publish: for scratch
     * files nobody relies on after a crash, such as the index {@code Catalog.verify()} rebuilds
     * to compare with the file it checks.
     */
    public AtomicFile(Path target, boolean durable) throws IOException {
        this.durable = durable;
        this.target = target.toAbsolutePath();
        Path dir = this.target.getParent();
        String name = "." + this.target.getFileName() + ".tmp-" + Long.toHexString(ThreadLocalRandom.current().nextLong());
        this.temp = dir.resolve(name);
        this.channel = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE);
    }

    public FileChannel channel() {
        return channel;
    }

    public Path temp() {
        return temp;
    }

    public Path target() {
        return target;
    }

    /** Forces the data (if durable), renames the temporary file over the target and forces the directory (if durable). */
    public void publish() throws IOException {
        if (durable) {
            channel.force(true);
        }
        channel.close();
        try {
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            throw new IOException("the file system cannot rename atomically: " + target.getParent(), e);
        }
        published = true;
        closed = true;
        if (durable) {
            forceDirectory(target.getParent());
        }
    }

    static void forceDirectory(Path dir) throws IOException {
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        }
    }

    /** Discards the temporary file unless it was published. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            channel.close();
        } finally {
            if (!published) {
                Files.deleteIfExists(temp);
            }
        }
    }
}

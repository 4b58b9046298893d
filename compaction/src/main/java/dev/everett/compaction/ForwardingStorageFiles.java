package dev.everett.compaction;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * A {@link StorageFiles} that passes every operation on to another, as Lucene's
 * {@code FilterDirectory} does: a host (or a test) that watches, delays or breaks some operations
 * overrides those alone and calls {@code super} for the real work.
 */
public class ForwardingStorageFiles implements StorageFiles {
    private final StorageFiles delegate;

    /** Over the real file system ({@link StorageFiles#system()}). */
    public ForwardingStorageFiles() {
        this(StorageFiles.system());
    }

    public ForwardingStorageFiles(StorageFiles delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    @Override
    public void createDirectories(Path dir) throws IOException {
        delegate.createDirectories(dir);
    }

    @Override
    public void append(Path file, byte[] bytes) throws IOException {
        delegate.append(file, bytes);
    }

    @Override
    public void writeNew(Path file, byte[] bytes) throws IOException {
        delegate.writeNew(file, bytes);
    }

    @Override
    public void move(Path from, Path to) throws IOException {
        delegate.move(from, to);
    }

    @Override
    public void forceDirectory(Path dir) throws IOException {
        delegate.forceDirectory(dir);
    }

    @Override
    public void delete(Path path) throws IOException {
        delegate.delete(path);
    }

    @Override
    public List<Path> list(Path dir) throws IOException {
        return delegate.list(dir);
    }

    @Override
    public boolean isDirectory(Path path) {
        return delegate.isDirectory(path);
    }

    @Override
    public byte[] readAllBytes(Path file) throws IOException {
        return delegate.readAllBytes(file);
    }

    @Override
    public boolean exists(Path path) {
        return delegate.exists(path);
    }

    @Override
    public void link(Path link, Path existing) throws IOException {
        delegate.link(link, existing);
    }
}

package dev.everett.compaction;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** The real file system, every operation passed on: a test seam overrides only the operations it watches or breaks. */
abstract class ForwardingFiles implements StorageFiles {
    final StorageFiles real = StorageFiles.system();

    @Override
    public void createDirectories(Path dir) throws IOException {
        real.createDirectories(dir);
    }

    @Override
    public void append(Path file, byte[] bytes) throws IOException {
        real.append(file, bytes);
    }

    @Override
    public void writeNew(Path file, byte[] bytes) throws IOException {
        real.writeNew(file, bytes);
    }

    @Override
    public void move(Path from, Path to) throws IOException {
        real.move(from, to);
    }

    @Override
    public void forceDirectory(Path dir) throws IOException {
        real.forceDirectory(dir);
    }

    @Override
    public void delete(Path path) throws IOException {
        real.delete(path);
    }

    @Override
    public List<Path> list(Path dir) throws IOException {
        return real.list(dir);
    }

    @Override
    public boolean isDirectory(Path path) {
        return real.isDirectory(path);
    }

    @Override
    public byte[] readAllBytes(Path file) throws IOException {
        return real.readAllBytes(file);
    }

    @Override
    public boolean exists(Path path) {
        return real.exists(path);
    }

    @Override
    public void link(Path link, Path existing) throws IOException {
        real.link(link, existing);
    }
}

package dev.everett.compaction;

import dev.everett.api.DurableDirectories;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** {@link StorageFiles#system()}: the real file system. */
final class SystemFiles implements StorageFiles {
    static final SystemFiles INSTANCE = new SystemFiles();

    private SystemFiles() {
    }

    @Override
    public void createDirectories(Path dir) throws IOException {
        // Each new directory forced into its parent; an existing one costs one stat
        // (Files.createDirectories would raise and catch an exception for it).
        DurableDirectories.create(dir);
    }

    @Override
    public void append(Path file, byte[] bytes) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            writeAll(ch, bytes);
            ch.force(true);
        }
    }

    @Override
    public void writeNew(Path file, byte[] bytes) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            writeAll(ch, bytes);
            ch.force(true);
        }
    }

    private static void writeAll(FileChannel ch, byte[] bytes) throws IOException {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(bytes);
        while (b.hasRemaining()) {
            ch.write(b);
        }
    }

    @Override
    public void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            throw new IOException("the file system cannot rename atomically: " + to.getParent(), e);
        }
    }

    @Override
    public void forceDirectory(Path dir) throws IOException {
        DurableDirectories.force(dir);
    }

    @Override
    public void delete(Path path) throws IOException {
        Files.deleteIfExists(path);
    }

    @Override
    public List<Path> list(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return new ArrayList<>(s.toList());
        } catch (NoSuchFileException e) {
            return new ArrayList<>();
        }
    }

    @Override
    public byte[] readAllBytes(Path file) throws IOException {
        return Files.readAllBytes(file);
    }

    @Override
    public boolean exists(Path path) {
        return Files.exists(path);
    }
}

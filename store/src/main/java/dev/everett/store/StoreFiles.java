package dev.everett.store;

import dev.everett.api.DurableDirectories;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The file-system operations the store's own files (write-ahead logs, the store descriptor) go
 * through. The default works on the real file system; fault tests substitute one that fails or
 * "crashes" at a chosen operation, which is how recovery from a torn write is tested.
 */
interface StoreFiles {

    /**
     * An append-only file (on the real file system a {@link MappedAppendFile}, or a
     * {@link ChannelAppendFile} when mapped writes are off or the file system cannot map it).
     */
    interface AppendFile extends Closeable {
        /** Appends all remaining bytes of {@code buffer}. */
        void append(ByteBuffer buffer) throws IOException;

        /** Forces appended bytes to stable storage. */
        void force() throws IOException;

        long size() throws IOException;

        /**
         * Closes the file, which then holds exactly the bytes appended (room the file took ahead
         * is cut off, durably). Closing twice does nothing.
         */
        @Override
        void close() throws IOException;
    }

    /** Creates {@code file} (it must not exist) for appending, and forces its directory entry. */
    AppendFile create(Path file) throws IOException;

    byte[] readAll(Path file) throws IOException;

    /** Cuts {@code file} to {@code length} bytes and forces it. */
    void truncate(Path file, long length) throws IOException;

    void delete(Path file) throws IOException;

    boolean exists(Path file);

    /** The regular files directly under {@code dir}. */
    List<Path> list(Path dir) throws IOException;

    /** Writes {@code content} to {@code file} so it is either the old file or all of the new: temp file, force, atomic rename, force the directory. */
    void writeAtomically(Path file, byte[] content) throws IOException;

    /** The real file system, logs written through a memory mapping where the file system can map them. */
    StoreFiles DEFAULT = new SystemFiles(true);

    /** The real file system, logs written with one {@code write} call per commit group. */
    StoreFiles CHANNEL_WRITES = new SystemFiles(false);

    /** The real file system; {@code mappedLogs} chooses how appends reach a log. */
    static StoreFiles system(boolean mappedLogs) {
        return mappedLogs ? DEFAULT : CHANNEL_WRITES;
    }

    /** The real file system. */
    final class SystemFiles implements StoreFiles {
        private final boolean mappedLogs;

        private SystemFiles(boolean mappedLogs) {
            this.mappedLogs = mappedLogs;
        }

        @Override
        public AppendFile create(Path file) throws IOException {
            // Read as well as write: a mapping that is written needs both.
            FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE);
            try {
                DurableDirectories.force(file.toAbsolutePath().getParent());
                if (mappedLogs) {
                    MappedAppendFile mapped = MappedAppendFile.mapOrNull(ch);
                    if (mapped != null) {
                        return mapped;
                    }
                }
                return new ChannelAppendFile(ch);
            } catch (IOException | RuntimeException e) {
                ch.close();
                throw e;
            }
        }

        @Override
        public byte[] readAll(Path file) throws IOException {
            return Files.readAllBytes(file);
        }

        @Override
        public void truncate(Path file, long length) throws IOException {
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
                ch.truncate(length);
                ch.force(true);
            }
        }

        @Override
        public void delete(Path file) throws IOException {
            Files.deleteIfExists(file);
        }

        @Override
        public boolean exists(Path file) {
            return Files.exists(file);
        }

        @Override
        public List<Path> list(Path dir) throws IOException {
            List<Path> out = new ArrayList<>();
            try (Stream<Path> s = Files.list(dir)) {
                s.filter(Files::isRegularFile).forEach(out::add);
            }
            return out;
        }

        @Override
        public void writeAtomically(Path file, byte[] content) throws IOException {
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                    StandardOpenOption.WRITE)) {
                ByteBuffer b = ByteBuffer.wrap(content);
                while (b.hasRemaining()) {
                    ch.write(b);
                }
                ch.force(true);
            }
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                throw new IOException("the file system under " + file.getParent() + " cannot rename atomically", e);
            }
            DurableDirectories.force(file.toAbsolutePath().getParent());
        }
    }
}

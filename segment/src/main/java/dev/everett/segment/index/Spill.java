package dev.everett.segment.index;

import dev.everett.segment.io.FileOutput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * Holds one section while the sections before it are still being produced: in memory up to
 * {@link #MEMORY_LIMIT} bytes, then in a temporary file (deleted on close), so that building a
 * file needs bounded memory and the small sections of most indexes cost no file at all.
 */
final class Spill implements AutoCloseable {
    /** Bytes a spill keeps in memory before it moves to a temporary file. */
    static final int MEMORY_LIMIT = 4 << 20;

    private final Held held;
    private final FileOutput out;

    Spill(Path dir) {
        this(dir, MEMORY_LIMIT);
    }

    /** With another memory limit (tests reach the temporary file with a small one). */
    Spill(Path dir, int memoryLimit) {
        this.held = new Held(dir, memoryLimit);
        this.out = new FileOutput(held, 0);
    }

    FileOutput out() {
        return out;
    }

    /** Bytes written so far. */
    long size() {
        return out.position();
    }

    /** True once the bytes moved to a temporary file. */
    boolean onDisk() {
        return held.file != null;
    }

    /** Appends everything written to {@code target}; returns the next position there. */
    long copyTo(FileOutput target) throws IOException {
        out.flush();
        target.flush();
        FileChannel dst = target.channel();
        long at = target.position();
        long size = out.position();
        long done = 0;
        while (done < size) {
            done += held.transferTo(done, size - done, dst.position(at + done));
        }
        target.skip(size, out.crc());
        return target.position();
    }

    @Override
    public void close() throws IOException {
        held.close();
    }

    /**
     * The channel a spill's output writes to: an array until the limit, then a temporary file.
     * It supports what {@link FileOutput} and {@link #copyTo} use (positioned writes, size,
     * transfers out); anything else is refused.
     */
    private static final class Held extends FileChannel {
        private final Path dir;
        private final int limit;
        private byte[] bytes = new byte[0];
        private long size;
        private Path path;
        private FileChannel file;

        Held(Path dir, int limit) {
            this.dir = dir;
            this.limit = limit;
        }

        @Override
        public int write(ByteBuffer src, long position) throws IOException {
            int n = src.remaining();
            if (file == null && position + n > limit) {
                toFile();
            }
            if (file != null) {
                int written = file.write(src, position);
                size = Math.max(size, position + written);
                return written;
            }
            int end = (int) (position + n);
            if (end > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.min(limit, Math.max(end, 2 * bytes.length)));
            }
            src.get(bytes, (int) position, n);
            size = Math.max(size, end);
            return n;
        }

        /** Moves what is held to a temporary file, where everything after it goes too. */
        private void toFile() throws IOException {
            path = Files.createTempFile(dir, ".everett-", ".spill");
            file = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE, StandardOpenOption.DELETE_ON_CLOSE);
            ByteBuffer held = ByteBuffer.wrap(bytes, 0, (int) size);
            while (held.hasRemaining()) {
                file.write(held, held.position());
            }
            bytes = null;
        }

        @Override
        public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
            if (file != null) {
                return file.transferTo(position, count, target);
            }
            int n = (int) Math.min(count, size - position);
            return target.write(ByteBuffer.wrap(bytes, (int) position, n));
        }

        @Override
        public long size() {
            return size;
        }

        @Override
        protected void implCloseChannel() throws IOException {
            bytes = null;
            if (file != null) {
                file.close();
                Files.deleteIfExists(path);
            }
        }

        private static UnsupportedOperationException refused() {
            return new UnsupportedOperationException("a spill takes positioned writes and transfers out only");
        }

        @Override
        public int read(ByteBuffer dst) {
            throw refused();
        }

        @Override
        public long read(ByteBuffer[] dsts, int offset, int length) {
            throw refused();
        }

        @Override
        public int write(ByteBuffer src) {
            throw refused();
        }

        @Override
        public long write(ByteBuffer[] srcs, int offset, int length) {
            throw refused();
        }

        @Override
        public long position() {
            throw refused();
        }

        @Override
        public FileChannel position(long newPosition) {
            throw refused();
        }

        @Override
        public FileChannel truncate(long newSize) {
            throw refused();
        }

        @Override
        public void force(boolean metaData) {
            throw refused();
        }

        @Override
        public long transferFrom(ReadableByteChannel src, long position, long count) {
            throw refused();
        }

        @Override
        public int read(ByteBuffer dst, long position) {
            throw refused();
        }

        @Override
        public MappedByteBuffer map(MapMode mode, long position, long size) {
            throw refused();
        }

        @Override
        public FileLock lock(long position, long size, boolean shared) {
            throw refused();
        }

        @Override
        public FileLock tryLock(long position, long size, boolean shared) {
            throw refused();
        }
    }
}

package dev.everett.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The real file system (logs written through the channel unless told otherwise), recording for
 * each log the bytes appended and the bytes forced.
 */
final class ForceTrackingFiles implements StoreFiles {

    private final StoreFiles real;

    ForceTrackingFiles() {
        this(StoreFiles.CHANNEL_WRITES);
    }

    /** Over {@code real}'s files (for example {@link StoreFiles#DEFAULT}'s mapped logs). */
    ForceTrackingFiles(StoreFiles real) {
        this.real = real;
    }
    /** Per log: bytes appended, bytes appended when last forced, forces. */
    final ConcurrentHashMap<Path, long[]> logs = new ConcurrentHashMap<>();

    long[] state(Path log) {
        return logs.get(log);
    }

    @Override
    public AppendFile create(Path file) throws IOException {
        AppendFile f = real.create(file);
        long[] state = new long[3];
        logs.put(file, state);
        return new AppendFile() {
            @Override
            public void append(ByteBuffer buffer) throws IOException {
                f.append(buffer);
                state[0] = f.size();
            }

            @Override
            public void force() throws IOException {
                f.force();
                state[1] = f.size();
                state[2]++;
            }

            @Override
            public long size() throws IOException {
                return f.size();
            }

            @Override
            public void close() throws IOException {
                f.close();
            }
        };
    }

    @Override
    public byte[] readAll(Path file) throws IOException {
        return real.readAll(file);
    }

    @Override
    public void truncate(Path file, long length) throws IOException {
        real.truncate(file, length);
    }

    @Override
    public void delete(Path file) throws IOException {
        real.delete(file);
    }

    @Override
    public boolean exists(Path file) {
        return real.exists(file);
    }

    @Override
    public List<Path> list(Path dir) throws IOException {
        return real.list(dir);
    }

    @Override
    public void writeAtomically(Path file, byte[] content) throws IOException {
        real.writeAtomically(file, content);
    }
}

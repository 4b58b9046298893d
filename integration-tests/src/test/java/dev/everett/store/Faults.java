package dev.everett.store;

import dev.everett.compaction.ForwardingStorageFiles;
import dev.everett.compaction.StorageFiles;
import dev.everett.integration.FileKinds;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Failing I/O on cue, through both of the store's file-system seams: {@link StoreFiles} (write-ahead
 * logs, the store descriptor) and the compaction tree's {@link StorageFiles} (manifest, segment
 * directories, renames). Armed with a kind and a countdown, the fault fires at that matching call
 * and then on every matching call until {@link #clear()} (a failing disk keeps failing).
 */
final class Faults {
    /** What goes wrong. */
    enum Kind {
        /** A write (append, new file, truncate) throws. */
        WRITE_FAILS,
        /** Forcing a file to stable storage throws. */
        FORCE_FAILS,
        /** A write stores only part of its bytes, then throws "no space left". */
        DISK_FULL,
        /** A read comes back short and the file system says so (EOFException). */
        SHORT_READ,
        /** An atomic rename throws, leaving the old name in place. */
        RENAME_FAILS,
        /** Forcing a directory (publishing a new name) throws. */
        DIR_FORCE_FAILS
    }

    private volatile Kind kind;
    private volatile int countdown;
    private volatile boolean firing;
    private final Map<String, Integer> fired = new TreeMap<>();

    void arm(Kind kind, int countdown) {
        this.kind = kind;
        this.countdown = countdown;
        this.firing = false;
    }

    void clear() {
        kind = null;
        firing = false;
    }

    /** How many times a fault fired, by the kind of file it hit. */
    synchronized Map<String, Integer> fired() {
        return new TreeMap<>(fired);
    }

    synchronized int firedTotal() {
        return fired.values().stream().mapToInt(Integer::intValue).sum();
    }

    /** Throws the injected failure when armed for {@code k} and due. */
    private synchronized void maybe(Kind k, Path file) throws IOException {
        if (kind != k) {
            return;
        }
        if (!firing) {
            if (countdown-- > 0) {
                return;
            }
            firing = true;
        }
        fired.merge(FileKinds.of(file), 1, Integer::sum);
        String what = switch (k) {
            case WRITE_FAILS -> "write failed";
            case FORCE_FAILS -> "force failed";
            case DISK_FULL -> "No space left on device";
            case SHORT_READ -> "short read";
            case RENAME_FAILS -> "rename failed";
            case DIR_FORCE_FAILS -> "directory force failed";
        };
        if (k == Kind.SHORT_READ) {
            throw new EOFException("injected: " + what + " of " + file);
        }
        throw new IOException("injected: " + what + " on " + file);
    }

    private boolean due(Kind k) {
        return kind == k;
    }

    /** The log and descriptor seam with faults. */
    StoreFiles storeFiles() {
        StoreFiles real = StoreFiles.DEFAULT;
        return new StoreFiles() {
            @Override
            public AppendFile create(Path file) throws IOException {
                maybe(Kind.WRITE_FAILS, file);
                AppendFile f = real.create(file);
                maybe(Kind.DIR_FORCE_FAILS, file.getParent());
                return new AppendFile() {
                    @Override
                    public void append(ByteBuffer buffer) throws IOException {
                        maybe(Kind.WRITE_FAILS, file);
                        if (due(Kind.DISK_FULL)) {
                            ByteBuffer half = buffer.duplicate();
                            half.limit(half.position() + half.remaining() / 2);
                            try {
                                maybe(Kind.DISK_FULL, file);
                            } catch (IOException e) {
                                f.append(half);
                                throw e;
                            }
                        }
                        f.append(buffer);
                    }

                    @Override
                    public void force() throws IOException {
                        maybe(Kind.FORCE_FAILS, file);
                        f.force();
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
                maybe(Kind.SHORT_READ, file);
                return real.readAll(file);
            }

            @Override
            public void truncate(Path file, long length) throws IOException {
                maybe(Kind.WRITE_FAILS, file);
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
                maybe(Kind.WRITE_FAILS, file);
                maybe(Kind.RENAME_FAILS, file);
                real.writeAtomically(file, content);
                maybe(Kind.DIR_FORCE_FAILS, file.getParent());
            }
        };
    }

    interface Writer {
        void write(Path file, byte[] bytes) throws IOException;
    }

    /** A tree write (append or new file, each forced): fails whole, fails half-done (disk full), or fails to force. */
    private void write(Path file, byte[] bytes, Writer real) throws IOException {
        maybe(Kind.WRITE_FAILS, file);
        if (due(Kind.DISK_FULL)) {
            try {
                maybe(Kind.DISK_FULL, file);
            } catch (IOException e) {
                real.write(file, java.util.Arrays.copyOf(bytes, bytes.length / 2));
                throw e;
            }
        }
        maybe(Kind.FORCE_FAILS, file);
        real.write(file, bytes);
    }

    /** The compaction tree's seam (manifest, segment directories) with faults. */
    StorageFiles treeFiles() {
        StorageFiles real = StorageFiles.system();
        return new ForwardingStorageFiles(real) {
            @Override
            public void createDirectories(Path dir) throws IOException {
                maybe(Kind.WRITE_FAILS, dir);
                real.createDirectories(dir);
            }

            @Override
            public void append(Path file, byte[] bytes) throws IOException {
                write(file, bytes, real::append);
            }

            @Override
            public void writeNew(Path file, byte[] bytes) throws IOException {
                write(file, bytes, real::writeNew);
            }

            @Override
            public void move(Path from, Path to) throws IOException {
                maybe(Kind.RENAME_FAILS, to);
                real.move(from, to);
            }

            @Override
            public void forceDirectory(Path dir) throws IOException {
                maybe(Kind.DIR_FORCE_FAILS, dir);
                real.forceDirectory(dir);
            }

            @Override
            public byte[] readAllBytes(Path file) throws IOException {
                maybe(Kind.SHORT_READ, file);
                return real.readAllBytes(file);
            }

            @Override
            public void link(Path link, Path existing) throws IOException {
                maybe(Kind.WRITE_FAILS, link);
                real.link(link, existing);
            }
        };
    }
}

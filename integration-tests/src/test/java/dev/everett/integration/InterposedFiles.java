package dev.everett.integration;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.AccessMode;
import java.nio.file.CopyOption;
import java.nio.file.DirectoryStream;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.StandardOpenOption;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.nio.file.spi.FileSystemProvider;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A file system that delegates to the real one and lets a test interpose on every operation:
 * fail it, cut it short, or stop the process right there. A store opened on a directory of this
 * file system ({@link #path}) reaches it through every {@code FileChannel.open} and {@code Files}
 * call it makes, its own and the segment engine's (natives, indexes, filters, renames), because
 * each of those resolves against the store's root path and so dispatches to this provider.
 * Mappings delegate to the real channel, so reads through a mapping are not interposed.
 *
 * <p>Nothing here is registered with {@link FileSystemProvider#installedProviders()}: the only
 * way in is a path made by {@link #path}.
 */
public final class InterposedFiles {
    private InterposedFiles() {}

    /** The operations a {@link Hooks} sees. */
    public enum Op {
        /** A channel opened with CREATE or CREATE_NEW. */
        CREATE,
        /** A write of file bytes (relative, positional or by transfer). */
        WRITE,
        /** Forcing a regular file. */
        FORCE,
        /** Forcing a directory (publishing names created, renamed or deleted in it). */
        DIRECTORY_FORCE,
        /** A rename; the path given is the target. */
        MOVE,
        /** A hard link; the path given is the new name. */
        LINK,
        /** Creating a directory. */
        CREATE_DIRECTORY
    }

    /** What a test does at each operation. Paths given are real ones. Called on the store's threads. */
    public interface Hooks {
        /** Before {@code op} on {@code file}: throw to make it fail (it then does nothing), or block. */
        default void before(Op op, Path file) throws IOException {}

        /** After a write stored its bytes in {@code file} (before any force of them). */
        default void afterWrite(Path file) throws IOException {}

        /**
         * How many of the {@code requested} bytes of a write reach the disk before it is full;
         * {@code requested} when it is not. Fewer makes the write store that many, then throw
         * "No space left on device".
         */
        default int writable(Path file, int requested) {
            return requested;
        }

        /**
         * How many of the {@code requested} bytes a read returns (a short read). Relative reads get
         * at least one byte (a blocking channel never returns 0 while bytes remain); positional
         * reads may return 0, as {@link FileChannel#read(ByteBuffer, long)} allows.
         */
        default int readable(Path file, int requested, boolean positional) {
            return requested;
        }

        /**
         * Whether {@code file} can be mapped in {@code mode}; false makes the map throw
         * {@link UnsupportedOperationException}, as a file system without shared writable
         * mappings does.
         */
        default boolean mappable(Path file, FileChannel.MapMode mode) {
            return true;
        }
    }

    /** {@code real} (a path of the default file system) as a path of a file system interposed by {@code hooks}. */
    public static Path path(Path real, Hooks hooks) {
        Objects.requireNonNull(hooks, "hooks");
        return new Fs(FileSystems.getDefault(), hooks).wrap(real.toAbsolutePath());
    }

    /** The real path behind {@code p} (itself if it is not interposed). */
    public static Path real(Path p) {
        return p instanceof IPath ip ? ip.real : p;
    }

    private static final class Fs extends FileSystem {
        final FileSystem real;
        final Hooks hooks;
        final Provider provider;

        Fs(FileSystem real, Hooks hooks) {
            this.real = real;
            this.hooks = hooks;
            this.provider = new Provider(this);
        }

        IPath wrap(Path p) {
            return p == null ? null : new IPath(this, p);
        }

        @Override
        public FileSystemProvider provider() {
            return provider;
        }

        @Override
        public void close() {
            throw new UnsupportedOperationException("the interposed file system stays open");
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public boolean isReadOnly() {
            return false;
        }

        @Override
        public String getSeparator() {
            return real.getSeparator();
        }

        @Override
        public Iterable<Path> getRootDirectories() {
            List<Path> out = new ArrayList<>();
            real.getRootDirectories().forEach(p -> out.add(wrap(p)));
            return out;
        }

        @Override
        public Iterable<FileStore> getFileStores() {
            return real.getFileStores();
        }

        @Override
        public Set<String> supportedFileAttributeViews() {
            return real.supportedFileAttributeViews();
        }

        @Override
        public Path getPath(String first, String... more) {
            return wrap(real.getPath(first, more));
        }

        @Override
        public PathMatcher getPathMatcher(String syntaxAndPattern) {
            PathMatcher m = real.getPathMatcher(syntaxAndPattern);
            return p -> m.matches(real(p));
        }

        @Override
        public UserPrincipalLookupService getUserPrincipalLookupService() {
            return real.getUserPrincipalLookupService();
        }

        @Override
        public WatchService newWatchService() {
            throw new UnsupportedOperationException("no watch service on the interposed file system");
        }
    }

    /** A path of {@link Fs}: the real path, carried. */
    private static final class IPath implements Path {
        final Fs fs;
        final Path real;

        IPath(Fs fs, Path real) {
            this.fs = fs;
            this.real = real;
        }

        private Path w(Path p) {
            return fs.wrap(p);
        }

        @Override
        public FileSystem getFileSystem() {
            return fs;
        }

        @Override
        public boolean isAbsolute() {
            return real.isAbsolute();
        }

        @Override
        public Path getRoot() {
            return w(real.getRoot());
        }

        @Override
        public Path getFileName() {
            return w(real.getFileName());
        }

        @Override
        public Path getParent() {
            return w(real.getParent());
        }

        @Override
        public int getNameCount() {
            return real.getNameCount();
        }

        @Override
        public Path getName(int index) {
            return w(real.getName(index));
        }

        @Override
        public Path subpath(int beginIndex, int endIndex) {
            return w(real.subpath(beginIndex, endIndex));
        }

        @Override
        public boolean startsWith(Path other) {
            return real.startsWith(real(other));
        }

        @Override
        public boolean endsWith(Path other) {
            return real.endsWith(real(other));
        }

        @Override
        public Path normalize() {
            return w(real.normalize());
        }

        @Override
        public Path resolve(Path other) {
            return w(real.resolve(real(other)));
        }

        @Override
        public Path relativize(Path other) {
            return w(real.relativize(real(other)));
        }

        @Override
        public URI toUri() {
            return real.toUri();
        }

        @Override
        public Path toAbsolutePath() {
            return w(real.toAbsolutePath());
        }

        @Override
        public Path toRealPath(LinkOption... options) throws IOException {
            return w(real.toRealPath(options));
        }

        @Override
        public WatchKey register(WatchService watcher, WatchEvent.Kind<?>[] events, WatchEvent.Modifier... modifiers) {
            throw new UnsupportedOperationException("no watch service on the interposed file system");
        }

        @Override
        public int compareTo(Path other) {
            return real.compareTo(real(other));
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof IPath p && p.fs == fs && p.real.equals(real);
        }

        @Override
        public int hashCode() {
            return real.hashCode();
        }

        @Override
        public String toString() {
            return real.toString();
        }
    }

    private static final class Provider extends FileSystemProvider {
        final Fs fs;
        final FileSystemProvider real;

        Provider(Fs fs) {
            this.fs = fs;
            this.real = fs.real.provider();
        }

        @Override
        public String getScheme() {
            return "everett-interposed";
        }

        @Override
        public FileSystem newFileSystem(URI uri, Map<String, ?> env) {
            throw new UnsupportedOperationException("made by InterposedFiles.path only");
        }

        @Override
        public FileSystem getFileSystem(URI uri) {
            throw new UnsupportedOperationException("made by InterposedFiles.path only");
        }

        @Override
        public Path getPath(URI uri) {
            return fs.wrap(real.getPath(uri));
        }

        @Override
        public SeekableByteChannel newByteChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
                throws IOException {
            return newFileChannel(path, options, attrs);
        }

        @Override
        public FileChannel newFileChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs) throws IOException {
            Path file = real(path);
            if (options.contains(StandardOpenOption.CREATE) || options.contains(StandardOpenOption.CREATE_NEW)) {
                fs.hooks.before(Op.CREATE, file);
            }
            FileChannel ch = real.newFileChannel(file, options, attrs);
            return new Channel(fs.hooks, file, ch, Files.isDirectory(file));
        }

        @Override
        public DirectoryStream<Path> newDirectoryStream(Path dir, DirectoryStream.Filter<? super Path> filter) throws IOException {
            DirectoryStream<Path> s = real.newDirectoryStream(real(dir), p -> filter.accept(fs.wrap(p)));
            return new DirectoryStream<>() {
                @Override
                public Iterator<Path> iterator() {
                    Iterator<Path> it = s.iterator();
                    return new Iterator<>() {
                        @Override
                        public boolean hasNext() {
                            return it.hasNext();
                        }

                        @Override
                        public Path next() {
                            return fs.wrap(it.next());
                        }
                    };
                }

                @Override
                public void close() throws IOException {
                    s.close();
                }
            };
        }

        @Override
        public void createDirectory(Path dir, FileAttribute<?>... attrs) throws IOException {
            fs.hooks.before(Op.CREATE_DIRECTORY, real(dir));
            real.createDirectory(real(dir), attrs);
        }

        @Override
        public void createLink(Path link, Path existing) throws IOException {
            fs.hooks.before(Op.LINK, real(link));
            real.createLink(real(link), real(existing));
        }

        @Override
        public void delete(Path path) throws IOException {
            real.delete(real(path));
        }

        @Override
        public void copy(Path source, Path target, CopyOption... options) throws IOException {
            fs.hooks.before(Op.WRITE, real(target));
            real.copy(real(source), real(target), options);
        }

        @Override
        public void move(Path source, Path target, CopyOption... options) throws IOException {
            fs.hooks.before(Op.MOVE, real(target));
            real.move(real(source), real(target), options);
        }

        @Override
        public boolean isSameFile(Path path, Path path2) throws IOException {
            return real.isSameFile(real(path), real(path2));
        }

        @Override
        public boolean isHidden(Path path) throws IOException {
            return real.isHidden(real(path));
        }

        @Override
        public FileStore getFileStore(Path path) throws IOException {
            return real.getFileStore(real(path));
        }

        @Override
        public void checkAccess(Path path, AccessMode... modes) throws IOException {
            real.checkAccess(real(path), modes);
        }

        @Override
        public <V extends FileAttributeView> V getFileAttributeView(Path path, Class<V> type, LinkOption... options) {
            return real.getFileAttributeView(real(path), type, options);
        }

        @Override
        public <A extends BasicFileAttributes> A readAttributes(Path path, Class<A> type, LinkOption... options) throws IOException {
            return real.readAttributes(real(path), type, options);
        }

        @Override
        public Map<String, Object> readAttributes(Path path, String attributes, LinkOption... options) throws IOException {
            return real.readAttributes(real(path), attributes, options);
        }

        @Override
        public void setAttribute(Path path, String attribute, Object value, LinkOption... options) throws IOException {
            real.setAttribute(real(path), attribute, value, options);
        }
    }

    /** A file channel whose reads, writes and forces go through the hooks; mappings and locks delegate. */
    private static final class Channel extends FileChannel {
        private static final int TRANSFER_CHUNK = 1 << 16;
        final Hooks hooks;
        final Path file;
        final FileChannel real;
        final boolean directory;

        Channel(Hooks hooks, Path file, FileChannel real, boolean directory) {
            this.hooks = hooks;
            this.file = file;
            this.real = real;
            this.directory = directory;
        }

        /** {@code dst} limited to {@code n} bytes from its position. */
        private static ByteBuffer part(ByteBuffer b, int n) {
            return b.slice(b.position(), n);
        }

        private int readLimit(ByteBuffer dst, boolean positional) {
            int want = dst.remaining();
            int n = hooks.readable(file, want, positional);
            return Math.max(positional ? 0 : Math.min(1, want), Math.min(want, n));
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            int limit = readLimit(dst, false);
            if (limit == dst.remaining()) {
                return real.read(dst);
            }
            int n = real.read(part(dst, limit));
            if (n > 0) {
                dst.position(dst.position() + n);
            }
            return n;
        }

        @Override
        public int read(ByteBuffer dst, long position) throws IOException {
            int limit = readLimit(dst, true);
            if (limit == dst.remaining()) {
                return real.read(dst, position);
            }
            if (limit == 0) {
                return position >= real.size() ? -1 : 0;
            }
            int n = real.read(part(dst, limit), position);
            if (n > 0) {
                dst.position(dst.position() + n);
            }
            return n;
        }

        @Override
        public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
            for (int i = offset; i < offset + length; i++) {
                if (dsts[i].hasRemaining()) {
                    return read(dsts[i]);
                }
            }
            return 0;
        }

        /** Writes through the hooks: a full disk stores part of the bytes, then throws. */
        private int hookedWrite(ByteBuffer src, long position) throws IOException {
            hooks.before(Op.WRITE, file);
            int want = src.remaining();
            int allowed = Math.clamp(hooks.writable(file, want), 0, want);
            if (allowed < want) {
                ByteBuffer head = part(src, allowed);
                long at = position;
                while (head.hasRemaining()) {
                    at += position < 0 ? real.write(head) : real.write(head, at);
                }
                src.position(src.position() + allowed);
                throw new IOException("No space left on device (injected) writing " + file);
            }
            int n = position < 0 ? real.write(src) : real.write(src, position);
            hooks.afterWrite(file);
            return n;
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            return hookedWrite(src, -1);
        }

        @Override
        public int write(ByteBuffer src, long position) throws IOException {
            if (position < 0) {
                throw new IllegalArgumentException("negative position " + position);
            }
            return hookedWrite(src, position);
        }

        @Override
        public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
            long total = 0;
            for (int i = offset; i < offset + length; i++) {
                while (srcs[i].hasRemaining()) {
                    total += write(srcs[i]);
                }
            }
            return total;
        }

        @Override
        public long position() throws IOException {
            return real.position();
        }

        @Override
        public FileChannel position(long newPosition) throws IOException {
            real.position(newPosition);
            return this;
        }

        @Override
        public long size() throws IOException {
            return real.size();
        }

        @Override
        public FileChannel truncate(long size) throws IOException {
            hooks.before(Op.WRITE, file);
            real.truncate(size);
            return this;
        }

        @Override
        public void force(boolean metaData) throws IOException {
            hooks.before(directory ? Op.DIRECTORY_FORCE : Op.FORCE, file);
            real.force(metaData);
        }

        /** Through this channel's reads, so short reads and faults apply to transfers as well. */
        @Override
        public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
            ByteBuffer b = ByteBuffer.allocate((int) Math.min(TRANSFER_CHUNK, Math.max(1, count)));
            long done = 0;
            while (done < count) {
                b.clear().limit((int) Math.min(b.capacity(), count - done));
                int n = read(b, position + done);
                if (n < 0) {
                    break;
                }
                b.flip();
                while (b.hasRemaining()) {
                    target.write(b);
                }
                done += n;
            }
            return done;
        }

        /** Through this channel's writes, so faults apply to transfers as well. */
        @Override
        public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
            ByteBuffer b = ByteBuffer.allocate((int) Math.min(TRANSFER_CHUNK, Math.max(1, count)));
            long done = 0;
            while (done < count) {
                b.clear().limit((int) Math.min(b.capacity(), count - done));
                int n = src.read(b);
                if (n <= 0) {
                    break;
                }
                b.flip();
                while (b.hasRemaining()) {
                    done += hookedWrite(b, position + done);
                }
            }
            return done;
        }

        @Override
        public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
            checkMappable(mode);
            return real.map(mode, position, size);
        }

        @Override
        public MemorySegment map(MapMode mode, long offset, long size, Arena arena) throws IOException {
            checkMappable(mode);
            return real.map(mode, offset, size, arena);
        }

        private void checkMappable(MapMode mode) {
            if (!hooks.mappable(file, mode)) {
                throw new UnsupportedOperationException("injected: " + file + " cannot be mapped " + mode);
            }
        }

        @Override
        public FileLock lock(long position, long size, boolean shared) throws IOException {
            return real.lock(position, size, shared);
        }

        @Override
        public FileLock tryLock(long position, long size, boolean shared) throws IOException {
            return real.tryLock(position, size, shared);
        }

        @Override
        protected void implCloseChannel() throws IOException {
            real.close();
        }
    }
}

package dev.everett.store;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.ArrayList;
import java.util.List;

/**
 * An append-only file written through a shared memory mapping: the write-ahead log's file on the
 * real file system. An append is a copy into the file's pages in the operating system's page
 * cache, as a {@code write} call is, without the system call: a commit group of one 16-byte put
 * spent about half of its time in {@code write} (its entry, the file's locks and time stamps).
 * The durability is the same: appended bytes are in the page cache when the append returns, so
 * they survive the process (a crash, a kill) though not the machine; {@link #force()} puts them
 * on stable storage.
 *
 * <p>The file grows {@link #WINDOW} bytes at a time, each extension written as zeros through the
 * channel before it is mapped: a full disk then fails that write with an {@link IOException}
 * rather than a store into a mapped page that has no block behind it (which the JVM can only
 * report as an internal error). Until {@link #close()} cuts it to the bytes appended, the file
 * therefore ends in up to a window of zeros, which is what a crash leaves behind; a replay reads
 * zeros after the last record as a torn tail and cuts them off (see {@link LogReplay}).
 *
 * <p>Created through {@link #mapOrNull}, which maps the first window at once, so that a file
 * system that cannot map the log is found before anything is appended.
 *
 * <p>Windows stay mapped until the file is closed, so that {@link #force()} can force exactly the
 * appended bytes not yet forced, whichever windows hold them. One appender at a time (the commit
 * leader); not thread-safe.
 */
final class MappedAppendFile implements StoreFiles.AppendFile {

    /** Bytes the file grows by and maps at a time. */
    static final int WINDOW = 1 << 20;
    private static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(64 << 10).asReadOnlyBuffer();

    private final FileChannel channel;
    /** The mappings' lifetime: all of them are unmapped when it closes. */
    private final Arena arena = Arena.ofShared();
    /** Every window mapped so far, in file order; window {@code i} covers {@code [i * WINDOW, (i + 1) * WINDOW)}. */
    private final List<MemorySegment> windows = new ArrayList<>();
    /** The last window, as a buffer (its absolute puts copy without allocating). */
    private ByteBuffer current;
    /** Bytes appended: the file's length once closed. */
    private long size;
    /** Appended bytes below this offset are forced. */
    private long forcedUpTo;
    /** The file's length on disk (appended bytes and the zeros after them); forced up to {@link #forcedLength}. */
    private long length;
    private long forcedLength;
    private boolean closed;

    private MappedAppendFile(FileChannel channel) {
        this.channel = channel;
    }

    /**
     * The empty file behind {@code channel} written through a mapping, its first window taken
     * ahead; or null, with the file left empty, if the file system cannot map it (the caller then
     * writes through the channel). A failure to write the window's zeros (a full disk) is thrown.
     */
    static MappedAppendFile mapOrNull(FileChannel channel) throws IOException {
        MappedAppendFile f = new MappedAppendFile(channel);
        try {
            f.extend();
        } catch (MapFailed e) {
            f.arena.close();
            channel.truncate(0);
            return null;
        }
        return f;
    }

    /** Mapping a window failed, its zeros written: the file system cannot map this file. */
    private static final class MapFailed extends IOException {
        MapFailed(Exception cause) {
            super(cause);
        }
    }

    @Override
    public void append(ByteBuffer buffer) throws IOException {
        while (buffer.hasRemaining()) {
            int at = (int) (size % WINDOW);
            if (at == 0 && size / WINDOW == windows.size()) {
                extend();
            }
            int n = Math.min(buffer.remaining(), WINDOW - at);
            current.put(at, buffer, buffer.position(), n);
            buffer.position(buffer.position() + n);
            size += n;
        }
    }

    /** Writes the next window's zeros through the channel, then maps it. */
    private void extend() throws IOException {
        long start = (long) windows.size() * WINDOW;
        for (long p = start; p < start + WINDOW; ) {
            p += channel.write(ZEROS.duplicate(), p);
        }
        length = start + WINDOW;
        MemorySegment window;
        try {
            window = channel.map(FileChannel.MapMode.READ_WRITE, start, WINDOW, arena);
        } catch (UnsupportedOperationException | IOException e) {
            throw new MapFailed(e);
        }
        windows.add(window);
        current = window.asByteBuffer();
    }

    /**
     * Forces the appended bytes not yet forced (every window holding some) and, if the file grew
     * since, its length.
     */
    @Override
    public void force() throws IOException {
        if (forcedUpTo < size) {
            for (long from = forcedUpTo; from < size; ) {
                int w = (int) (from / WINDOW);
                long to = Math.min(size, (w + 1L) * WINDOW);
                windows.get(w).asSlice(from - (long) w * WINDOW, to - from).force();
                from = to;
            }
            forcedUpTo = size;
        }
        if (forcedLength != length) {
            channel.force(true);
            forcedLength = length;
        }
    }

    @Override
    public long size() {
        return size;
    }

    /**
     * Unmaps the windows, cuts the file to the bytes appended and forces the cut (so that only a
     * log still open at a crash can end in zeros), then closes the channel. Callers that need the
     * appended bytes durable call {@link #force()} first. Closing twice does nothing.
     */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            current = null;
            arena.close();
            if (length != size) {
                channel.truncate(size);
                channel.force(true);
            }
        } finally {
            channel.close();
        }
    }
}

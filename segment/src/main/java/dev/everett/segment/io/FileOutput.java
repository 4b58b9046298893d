package dev.everett.segment.io;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.util.zip.CRC32C;

/**
 * A buffered, positioned writer over a file channel: the payload streams through one buffer.
 * It keeps the CRC32C of everything written through it, so a writer can checksum a body as it
 * streams instead of reading the file back.
 *
 * <p>The buffer is off-heap: the channel writes it as it is, where a heap buffer would first be
 * copied into the JDK's temporary direct buffer, and a mapped input (the native merger's
 * literals, kilobytes each) is copied into it once, memory to memory.
 */
public final class FileOutput {
    /** The buffer starts small (many outputs write a header or a directory only) and grows to this. */
    private static final int MAX_BUFFER = 1 << 16;
    private static final int FIRST_BUFFER = 1 << 12;
    private static final ValueLayout.OfLong BE64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private final FileChannel channel;
    private ByteBuffer wrapped = ByteBuffer.allocateDirect(FIRST_BUFFER);
    /** The same memory as {@link #wrapped}, for the puts and copies. */
    private MemorySegment buffer = MemorySegment.ofBuffer(wrapped);
    private int capacity = FIRST_BUFFER;
    private int used;
    private long flushedTo;
    private final CRC32C crc = new CRC32C();
    private long crcValue;
    private boolean crcCombined;
    private long bytesSinceCombine;

    public FileOutput(FileChannel channel, long position) {
        this.channel = channel;
        this.flushedTo = position;
    }

    public FileChannel channel() {
        return channel;
    }

    /**
     * Moves past {@code n} bytes written to the channel directly (the buffer must be empty),
     * whose CRC32C is {@code crcOfSkipped}.
     */
    public void skip(long n, long crcOfSkipped) throws IOException {
        if (used != 0) {
            throw new IllegalStateException("skip with buffered bytes");
        }
        crcValue = Crc32cCombine.combine(crc(), crcOfSkipped, n);
        crcCombined = true;
        crc.reset();
        bytesSinceCombine = 0;
        flushedTo += n;
    }

    /** CRC32C of every byte written through this output so far (flushes first). */
    public long crc() throws IOException {
        flush();
        return crcCombined ? Crc32cCombine.combine(crcValue, crc.getValue(), bytesSinceCombine) : crc.getValue();
    }

    /** File position of the next byte written. */
    public long position() {
        return flushedTo + used;
    }

    public void writeByte(int b) throws IOException {
        if (used == capacity) {
            flushFull();
        }
        buffer.set(ValueLayout.JAVA_BYTE, used++, (byte) b);
    }

    /** Eight bytes, most significant first (a bit writer's full reservoir). */
    public void writeLongBigEndian(long v) throws IOException {
        if (used > capacity - 8) {
            flushFull();
        }
        buffer.set(BE64, used, v);
        used += 8;
    }

    /** Flushes a full buffer, growing it first if it is still small: this output is a long one. */
    private void flushFull() throws IOException {
        flush();
        if (capacity < MAX_BUFFER) {
            capacity = Math.min(MAX_BUFFER, capacity * 4);
            wrapped = ByteBuffer.allocateDirect(capacity);
            buffer = MemorySegment.ofBuffer(wrapped);
        }
    }

    /** Unsigned LEB128, canonical. */
    public void writeVarint(long v) throws IOException {
        if (used > capacity - 10) {
            flushFull();
        }
        while ((v & ~0x7FL) != 0) {
            buffer.set(ValueLayout.JAVA_BYTE, used++, (byte) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        buffer.set(ValueLayout.JAVA_BYTE, used++, (byte) v);
    }

    public void write(byte[] b, int off, int len) throws IOException {
        if (len > capacity - used) {
            flushFull();
            if (len > capacity / 2) {
                writeFully(ByteBuffer.wrap(b, off, len));
                return;
            }
        }
        MemorySegment.copy(b, off, buffer, ValueLayout.JAVA_BYTE, used, len);
        used += len;
    }

    /** Copies {@code length} bytes of {@code src} from {@code at}. */
    public void write(MemorySegment src, long at, long length) throws IOException {
        if (length <= 16 && used + length <= capacity) {
            // Short literals and values: a plain loop beats the general copy's checks.
            MemorySegment b = buffer;
            int u = used;
            for (int i = 0; i < length; i++) {
                b.set(ValueLayout.JAVA_BYTE, u + i, src.get(ValueLayout.JAVA_BYTE, at + i));
            }
            used = u + (int) length;
            return;
        }
        while (length > 0) {
            if (used == capacity) {
                flushFull();
            }
            int n = (int) Math.min(length, capacity - used);
            MemorySegment.copy(src, at, buffer, used, n);
            used += n;
            at += n;
            length -= n;
        }
    }

    public void write(long[] words) throws IOException {
        byte[] tmp = new byte[8];
        for (long word : words) {
            LittleEndian.putU64(tmp, 0, word);
            write(tmp, 0, 8);
        }
    }

    public void zeros(long n) throws IOException {
        for (long i = 0; i < n; i++) {
            writeByte(0);
        }
    }

    public void flush() throws IOException {
        wrapped.clear().limit(used);
        writeFully(wrapped);
        used = 0;
    }

    private void writeFully(ByteBuffer b) throws IOException {
        crc.update(b.duplicate());
        bytesSinceCombine += b.remaining();
        while (b.hasRemaining()) {
            flushedTo += channel.write(b, flushedTo);
        }
    }
}

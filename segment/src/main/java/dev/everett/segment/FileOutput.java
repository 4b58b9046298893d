package dev.everett.segment;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/** A buffered, positioned writer over a file channel: the payload streams through one buffer. */
final class FileOutput {
    private static final int BUFFER = 1 << 16;

    private final FileChannel channel;
    private final byte[] buffer = new byte[BUFFER];
    private final ByteBuffer wrapped = ByteBuffer.wrap(buffer);
    private int used;
    private long flushedTo;

    FileOutput(FileChannel channel, long position) {
        this.channel = channel;
        this.flushedTo = position;
    }

    /** File position of the next byte written. */
    long position() {
        return flushedTo + used;
    }

    void writeByte(int b) throws IOException {
        if (used == BUFFER) {
            flush();
        }
        buffer[used++] = (byte) b;
    }

    /** Unsigned LEB128, canonical. */
    void writeVarint(long v) throws IOException {
        if (used > BUFFER - 10) {
            flush();
        }
        while ((v & ~0x7FL) != 0) {
            buffer[used++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        buffer[used++] = (byte) v;
    }

    void write(byte[] b, int off, int len) throws IOException {
        if (len > BUFFER - used) {
            flush();
            if (len > BUFFER / 2) {
                writeFully(ByteBuffer.wrap(b, off, len));
                return;
            }
        }
        System.arraycopy(b, off, buffer, used, len);
        used += len;
    }

    void write(long[] words) throws IOException {
        byte[] tmp = new byte[8];
        for (long word : words) {
            Le.putU64(tmp, 0, word);
            write(tmp, 0, 8);
        }
    }

    void zeros(long n) throws IOException {
        for (long i = 0; i < n; i++) {
            writeByte(0);
        }
    }

    void flush() throws IOException {
        wrapped.clear().limit(used);
        writeFully(wrapped);
        used = 0;
    }

    private void writeFully(ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            flushedTo += channel.write(b, flushedTo);
        }
    }
}

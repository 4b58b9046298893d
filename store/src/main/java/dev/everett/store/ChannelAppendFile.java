package dev.everett.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * An append-only file written with one {@code write} call per append: the write-ahead log's file
 * when memory-mapped writes are off ({@link DBOptions#setAllowMmapWrites}) or when the file system
 * cannot map the log. Appended bytes are in the page cache when an append returns, as with
 * {@link MappedAppendFile}; the file never holds more than the bytes appended, so it needs no cut
 * at close.
 */
final class ChannelAppendFile implements StoreFiles.AppendFile {

    private final FileChannel channel;
    private long size;

    ChannelAppendFile(FileChannel channel) throws IOException {
        this.channel = channel;
        this.size = channel.size();
    }

    @Override
    public void append(ByteBuffer buffer) throws IOException {
        while (buffer.hasRemaining()) {
            size += channel.write(buffer, size);
        }
    }

    @Override
    public void force() throws IOException {
        // fdatasync: the data and the length it needs to be read back, not the time stamps.
        channel.force(false);
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}

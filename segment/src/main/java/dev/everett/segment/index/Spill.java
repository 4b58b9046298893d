package dev.everett.segment.index;

import dev.everett.segment.io.FileOutput;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A temporary file that holds one section while the sections before it are still being
 * produced, so that building a file needs bounded memory. Deleted on close.
 */
final class Spill implements AutoCloseable {
    private final Path path;
    private final FileChannel channel;
    private final FileOutput out;

    Spill(Path dir) throws IOException {
        this.path = Files.createTempFile(dir, ".everett-", ".spill");
        this.channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE, StandardOpenOption.DELETE_ON_CLOSE);
        this.out = new FileOutput(channel, 0);
    }

    FileOutput out() {
        return out;
    }

    /** Bytes written so far. */
    long size() {
        return out.position();
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
            done += channel.transferTo(done, size - done, dst.position(at + done));
        }
        target.skip(size, out.crc());
        return target.position();
    }

    @Override
    public void close() throws IOException {
        channel.close();
        Files.deleteIfExists(path);
    }
}

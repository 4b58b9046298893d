package dev.everett.segment.index;

import dev.everett.segment.io.FileOutput;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One section held while the sections before it are still being produced: in memory up to
 * {@link #MEMORY} bytes, past that in a temporary file (deleted on close), so that building a
 * file needs bounded memory. Most sections are small (a routing catalog's, or a bottom
 * catalog's cut words: 8 bytes per K records), and a temporary file each would cost a file
 * creation and deletion per section for a few kilobytes.
 */
final class Spill implements AutoCloseable {
    /** Bytes a section keeps in memory before it moves to a temporary file. */
    static final int MEMORY = 4 << 20;

    private final Path dir;
    private FileChannel channel;
    private final FileOutput out;

    Spill(Path dir) {
        this(dir, MEMORY);
    }

    Spill(Path dir, int memory) {
        this.dir = dir;
        this.out = FileOutput.memoryFirst(memory, this::openFile);
    }

    private FileChannel openFile() throws IOException {
        Path path = Files.createTempFile(dir, ".everett-", ".spill");
        channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE, StandardOpenOption.DELETE_ON_CLOSE);
        return channel;
    }

    FileOutput out() {
        return out;
    }

    /** Whether the section outgrew its memory and moved to a temporary file. */
    boolean inFile() {
        return channel != null;
    }

    /** Bytes written so far. */
    long size() {
        return out.position();
    }

    /** Appends everything written to {@code target}; returns the next position there. */
    long copyTo(FileOutput target) throws IOException {
        out.flush();
        if (channel == null) {
            out.copyHeldTo(target);
            return target.position();
        }
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
        if (channel != null) {
            channel.close(); // opened DELETE_ON_CLOSE: closing unlinks the file
        }
    }
}

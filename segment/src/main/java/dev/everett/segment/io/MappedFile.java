package dev.everett.segment.io;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Maps whole files read-only into an arena: the channel is closed at once, the mapping lives with the arena. */
public final class MappedFile {
    private MappedFile() {
    }

    /**
     * @throws IllegalArgumentException if {@code path} is a directory (mapping one fails with an
     *                                  error that names no file)
     */
    public static MemorySegment readOnly(Path path, Arena arena) throws IOException {
        java.util.Objects.requireNonNull(path, "path");
        // A directory opens for reading on Linux; only mapping it fails (or, when it reports no
        // bytes, nothing fails at all). So the directory check runs on those paths alone, not as
        // a stat before every file this process maps.
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size == 0) {
                refuseDirectory(path);
            }
            return ch.map(FileChannel.MapMode.READ_ONLY, 0, size, arena);
        } catch (IOException e) {
            refuseDirectory(path);
            throw e;
        }
    }

    private static void refuseDirectory(Path path) {
        if (java.nio.file.Files.isDirectory(path)) {
            throw new IllegalArgumentException(path + " is a directory, not an Everett file (a native .kv, an .index or a .filter)");
        }
    }
}

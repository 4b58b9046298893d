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
        if (java.nio.file.Files.isDirectory(path)) {
            throw new IllegalArgumentException(path + " is a directory, not an Everett file (a native .kv, an .index or a .filter)");
        }
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            return ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena);
        }
    }
}

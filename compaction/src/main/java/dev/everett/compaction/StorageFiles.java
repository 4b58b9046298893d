package dev.everett.compaction;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The file-system operations this module performs itself (manifest records, directories,
 * deletions, listing for cleanup), behind one seam so that a test can make any of them fail.
 * Segment bytes are written by the segment and merge engines, which publish atomically on their
 * own. {@link #system()} is the real file system; a test wraps it and throws where it likes.
 */
public interface StorageFiles {
    /** Creates a directory and its parents if missing. */
    void createDirectories(Path dir) throws IOException;

    /** Appends {@code bytes} at the end of {@code file} (creating it) and forces them to the device. */
    void append(Path file, byte[] bytes) throws IOException;

    /** Writes {@code bytes} as the whole of a new file {@code file} (which must not exist) and forces it. */
    void writeNew(Path file, byte[] bytes) throws IOException;

    /** Renames {@code from} over {@code to} atomically. */
    void move(Path from, Path to) throws IOException;

    /** Forces a directory, so that names created, renamed or deleted in it survive a crash. */
    void forceDirectory(Path dir) throws IOException;

    /** Deletes a file or an empty directory; nothing if it does not exist. */
    void delete(Path path) throws IOException;

    /** The entries of a directory (none if it does not exist). */
    List<Path> list(Path dir) throws IOException;

    /** True if the path is a directory. */
    default boolean isDirectory(Path path) {
        return java.nio.file.Files.isDirectory(path);
    }

    /** The whole content of a file. */
    byte[] readAllBytes(Path file) throws IOException;

    /** True if the path exists. */
    boolean exists(Path path);

    /**
     * Makes {@code link} a second name of the existing file {@code existing} (a hard link), so
     * an immutable file can belong to two directories without a copy.
     */
    default void link(Path link, Path existing) throws IOException {
        java.nio.file.Files.createLink(link, existing);
    }

    /** The real file system, through {@link java.nio.file.Files} and file channels. */
    static StorageFiles system() {
        return SystemFiles.INSTANCE;
    }
}

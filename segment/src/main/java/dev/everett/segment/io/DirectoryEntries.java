package dev.everett.segment.io;

import java.io.IOException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Whether a directory entry exists, as {@code Files.exists(p, NOFOLLOW_LINKS)} answers, without
 * its cost when the entry is missing: that call reads the attributes and turns a missing file into
 * an exception it catches (its one-argument form asks the system without one, but follows links).
 * Stores ask this of every new object and every store they open; the provider's
 * {@code readAttributesIfExists} answers a missing entry with null instead.
 */
public final class DirectoryEntries {
    private DirectoryEntries() {
    }

    /**
     * True if {@code p} names an entry (a final symbolic link counts as one, whatever it points
     * to); false if it does not or, as for {@code Files.exists}, if that cannot be told (an
     * unreadable directory on the way).
     */
    public static boolean exists(Path p) {
        try {
            return p.getFileSystem().provider().readAttributesIfExists(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS) != null;
        } catch (IOException e) {
            return false;
        }
    }
}

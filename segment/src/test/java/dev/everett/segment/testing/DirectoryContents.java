package dev.everett.segment.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Every path under a directory (directories too) with each file's bytes: what a test takes
 * before an operation that must change nothing on disk (a read-only open, a reading command) and
 * compares after it.
 */
public final class DirectoryContents {
    private DirectoryContents() {
    }

    /** The paths under {@code root}, relative to it, each with its file's bytes (empty for a directory). */
    public static Map<String, byte[]> of(Path root) throws IOException {
        Map<String, byte[]> out = new TreeMap<>();
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.toList()) {
                out.put(root.relativize(p).toString(), Files.isRegularFile(p) ? Files.readAllBytes(p) : new byte[0]);
            }
        }
        return out;
    }

    /**
     * Fails unless {@code root} holds exactly the paths of {@code before}, each file with the same
     * bytes; {@code what} names what ran in between, for the messages.
     */
    public static void assertUnchanged(Map<String, byte[]> before, Path root, String what) throws IOException {
        Map<String, byte[]> after = of(root);
        Set<String> added = new TreeSet<>(after.keySet());
        added.removeAll(before.keySet());
        Set<String> removed = new TreeSet<>(before.keySet());
        removed.removeAll(after.keySet());
        assertEquals("added [] removed []", "added " + added + " removed " + removed, "paths " + what + " changed");
        for (String k : before.keySet()) {
            assertArrayEquals(before.get(k), after.get(k), what + " changed " + k);
        }
    }
}

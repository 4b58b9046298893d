package dev.everett.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Stream;

/** Bytes on disk of directory trees. */
final class Sizes {
    private Sizes() {
    }

    /** Bytes of every regular file under {@code root}, each inode once (0 if it does not exist). */
    static long treeBytes(Path root) throws IOException {
        if (!Files.exists(root)) {
            return 0;
        }
        // Whole-run trees hard-link each native into their chain directory: count every file
        // (inode) once, as du does, or those natives would count twice.
        Set<Object> seen = new HashSet<>();
        long sum = 0;
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
                if (a.isRegularFile() && (a.fileKey() == null || seen.add(a.fileKey()))) {
                    sum += a.size();
                }
            }
        }
        return sum;
    }

    /**
     * Bytes an index chain adds beside its segment: every file under its directory except the
     * native, which is the segment file itself (a hard link, or a copy where links fail).
     */
    static long chainBytes(Path chainDir, long nativeBytes) throws IOException {
        return Files.exists(chainDir) ? treeBytes(chainDir) - nativeBytes : 0;
    }
}

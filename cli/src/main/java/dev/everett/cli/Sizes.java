package dev.everett.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** Bytes on disk of directory trees. */
final class Sizes {
    private Sizes() {
    }

    /** Bytes of every regular file under {@code root} (0 if it does not exist). */
    static long treeBytes(Path root) throws IOException {
        if (!Files.exists(root)) {
            return 0;
        }
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(Files::isRegularFile).mapToLong(p -> {
                try {
                    return Files.size(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).sum();
        }
    }

    /**
     * Bytes an index chain adds beside its segment: every file under its directory except the
     * native, which is the segment file itself (a hard link, or a copy where links fail).
     */
    static long chainBytes(Path chainDir, long nativeBytes) throws IOException {
        return Files.exists(chainDir) ? treeBytes(chainDir) - nativeBytes : 0;
    }
}

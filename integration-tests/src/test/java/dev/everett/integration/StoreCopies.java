package dev.everett.integration;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** Copies of a store's directory as a crash leaves them to another process. */
public final class StoreCopies {
    private StoreCopies() {}

    /**
     * Copies every file under {@code from} to {@code to} as it is now (an open store's files too),
     * except the {@code LOCK} file, which a killed process's lock no longer holds.
     */
    public static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else if (!p.getFileName().toString().equals("LOCK")) {
                    Files.copy(p, target);
                }
            }
        }
    }
}

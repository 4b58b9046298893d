package dev.everett.cli;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Checks of a file a command is about to write, made before any work, so that a wrong path fails
 * at once with one line naming the path the user gave (not a temporary file beside it, and not
 * after a long run).
 */
final class OutputFile {
    private OutputFile() {
    }

    /** Refuses {@code file} when it is a directory or a device, or its directory does not exist. */
    static void check(String label, Path file) {
        if (Files.isDirectory(file)) {
            throw new CliException(file + ": is a directory (" + label + " names the file to write)");
        }
        if (Files.exists(file) && !Files.isRegularFile(file)) {
            throw new CliException(file + ": not a regular file (" + label + " names the file to write)");
        }
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null && !Files.isDirectory(parent)) {
            Path given = file.getParent() != null ? file.getParent() : parent;
            throw new CliException(given + ": " + (Files.exists(parent) ? "not a directory" : "no such directory")
                    + " (" + label + " " + file + ")");
        }
    }

    /** Refuses an input file that is a directory (reading one fails with a message that names no file). */
    static void checkInput(String label, Path file) {
        if (Files.isDirectory(file)) {
            throw new CliException(file + ": is a directory (" + label + " names a file to read)");
        }
    }
}

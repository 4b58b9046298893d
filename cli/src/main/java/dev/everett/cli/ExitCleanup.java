package dev.everett.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Deletes a temporary file or directory tree if the JVM exits while it is in use (Ctrl-C, a
 * kill), when the command's own cleanup in a finally block does not run. Close it once the path
 * is renamed into place or deleted.
 */
final class ExitCleanup implements AutoCloseable {
    private final Thread hook;

    ExitCleanup(Path path) {
        this.hook = new Thread(() -> deleteQuietly(path), "everett-cleanup " + path.getFileName());
        Runtime.getRuntime().addShutdownHook(hook);
    }

    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the JVM is exiting: the hook runs
        }
    }

    /**
     * A test seam: {@code -Deverett.test.pause-ms=N} holds a command for N ms with its temporary
     * path in place (an index chain being built, an SST being exported), so that a test can
     * interrupt it there.
     */
    static void pauseForTests() {
        long millis = Long.getLong("everett.test.pause-ms", 0);
        if (millis > 0) {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Deletes {@code path}'s tree; the command may still be creating files in it, so a few passes. */
    private static void deleteQuietly(Path path) {
        for (int attempt = 0; attempt < 5 && Files.exists(path); attempt++) {
            try {
                IndexChain.deleteTree(path);
            } catch (IOException | RuntimeException e) {
                // a file was created or removed under the walk: try again
            }
        }
    }
}

package dev.everett.cli;

import dev.everett.api.TemporaryFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * Deletes a temporary file or directory tree if the JVM exits while it is in use (Ctrl-C, a
 * kill), when the command's own cleanup in a finally block does not run. Close it once the path
 * is renamed into place or deleted.
 */
final class ExitCleanup implements AutoCloseable {
    private final Thread hook;

    private ExitCleanup(Runnable cleanup) {
        this.hook = new Thread(cleanup, "everett-cleanup");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** Deletes {@code path} (a file or a directory tree) if the JVM exits before this is closed. */
    static ExitCleanup of(Path path) {
        return new ExitCleanup(() -> deleteQuietly(path));
    }

    /**
     * Deletes the temporary files a segment writer keeps beside {@code target} until it publishes
     * ({@link TemporaryFiles}: {@code .<name>.tmp-<hex>}) if the JVM exits before this is closed.
     */
    static ExitCleanup temporariesBeside(Path target) {
        Path dir = target.toAbsolutePath().getParent();
        return new ExitCleanup(() -> {
            try (Stream<Path> files = Files.list(dir)) {
                for (Path p : files.filter(p -> TemporaryFiles.isTemporaryOf(p, target)).toList()) {
                    deleteQuietly(p);
                }
            } catch (IOException | RuntimeException e) {
                // nothing to clean, or the directory is gone
            }
        });
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

    /**
     * Deletes {@code path}'s tree. The command runs on while shutdown hooks run and may still be
     * creating files in it (or, making a store's directories, the tree again): so passes until it
     * has stayed gone for a moment, within about a second.
     */
    private static void deleteQuietly(Path path) {
        for (int attempt = 0; attempt < 50; attempt++) {
            if (Files.exists(path, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                try {
                    IndexChain.deleteTree(path);
                } catch (IOException | RuntimeException e) {
                    // a file was created or removed under the walk: try again
                }
                continue;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                return;
            }
            if (!Files.exists(path, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                return;
            }
        }
    }
}

package dev.everett.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.AnnotatedElementContext;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDirFactory;

/**
 * Temporary directories on a memory file system when the machine has one ({@code /dev/shm}),
 * else the default temporary directory: for tests that open stores many times, where forces to a
 * disk would dominate their time.
 */
public final class MemoryTempDir implements TempDirFactory {
    @Override
    public Path createTempDirectory(AnnotatedElementContext element, ExtensionContext context) throws IOException {
        Path shm = Path.of("/dev/shm");
        return Files.isDirectory(shm) && Files.isWritable(shm)
                ? Files.createTempDirectory(shm, "everett-store-")
                : Files.createTempDirectory("everett-store-");
    }
}

package dev.everett.compaction;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.AnnotatedElementContext;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDirFactory;

/**
 * Temporary directories on a memory file system when the machine has one ({@code /dev/shm}),
 * else the default temporary directory: every segment, index and manifest edit is forced to its
 * device, and on a disk those forces dominate these tests' time.
 */
public final class MemoryTempDir implements TempDirFactory {
    @Override
    public Path createTempDirectory(AnnotatedElementContext element, ExtensionContext context) throws IOException {
        Path shm = Path.of("/dev/shm");
        return Files.isDirectory(shm) && Files.isWritable(shm)
                ? Files.createTempDirectory(shm, "everett-compaction-")
                : Files.createTempDirectory("everett-compaction-");
    }
}

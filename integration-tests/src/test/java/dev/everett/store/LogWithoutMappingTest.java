package dev.everett.store;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.integration.InterposedFiles;
import dev.everett.integration.StoreCopies;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The write-ahead log on a file system that cannot map it for writing (shared writable mappings
 * refused, read-only ones allowed, as some network and FUSE file systems do): the store writes the
 * log with {@code write} calls instead, and a crash copy of its files reopens with every write.
 */
class LogWithoutMappingTest {

    @TempDir
    Path tempDir;

    @Test
    void aLogThatCannotBeMappedIsWrittenWithWriteCalls() throws IOException {
        AtomicInteger refused = new AtomicInteger();
        InterposedFiles.Hooks noWritableMaps = new InterposedFiles.Hooks() {
            @Override
            public boolean mappable(Path file, FileChannel.MapMode mode) {
                if (mode == FileChannel.MapMode.READ_WRITE) {
                    refused.incrementAndGet();
                    return false;
                }
                return true;
            }
        };
        Path real = Files.createDirectories(tempDir.resolve("db"));
        Path crashed = tempDir.resolve("crashed");
        int n = 20_000; // more than a mapped log's first window
        try (EverettDB db = EverettDB.open(InterposedFiles.path(real, noWritableMaps))) {
            for (int i = 0; i < n; i++) {
                db.put(("k" + i).getBytes(UTF_8), ("value " + i).getBytes(UTF_8));
            }
            assertTrue(refused.get() > 0, "the store tried to map its log");
            Path log = onlyLog(real);
            long size = Files.size(log);
            assertNotEquals(0, size % MappedAppendFile.WINDOW, "an open log written with write calls holds no zeros ahead: " + size);
            assertNotEquals(0, Files.readAllBytes(log)[(int) size - 1], "the log ends in its last record");
            StoreCopies.copyTree(real, crashed);
        }
        try (EverettDB db = EverettDB.open(crashed)) {
            for (int i = 0; i < n; i++) {
                assertArrayEquals(("value " + i).getBytes(UTF_8), db.get(("k" + i).getBytes(UTF_8)));
            }
            assertEquals(n, db.getLatestSequenceNumber());
            assertTrue(db.recovery().stream().allMatch(r -> r.droppedBytes() == 0), "nothing to cut: " + db.recovery());
        }
    }

    private static Path onlyLog(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            List<Path> logs = s.filter(p -> p.getFileName().toString().endsWith(".log")).toList();
            assertEquals(1, logs.size(), "logs: " + logs);
            return logs.get(0);
        }
    }
}

package dev.everett.store;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The write-ahead log stays bounded by the memtable size, whatever the memtable's pruning frees. */
class LogGrowthTest {

    @TempDir
    Path dir;

    private static long logBytes(Path db) throws IOException {
        try (Stream<Path> s = Files.list(db)) {
            return s.filter(p -> WriteAheadLog.numberOf(p) >= 0).mapToLong(p -> p.toFile().length()).sum();
        }
    }

    @Test
    void overwritingOneKeyStillSwitchesTheLog() throws IOException {
        Path db = dir.resolve("db");
        int bufferSize = 4096;
        byte[] value = new byte[200];
        // Mapped logs take room ahead; write through the channel so a file's length is what it holds.
        try (EverettDB d = EverettDB.open(db, new DBOptions().setWriteBufferSize(bufferSize).setAllowMmapWrites(false))) {
            for (int i = 0; i < 2_000; i++) { // about 460 KB of log records for one key
                value[0] = (byte) i;
                d.put("k".getBytes(UTF_8), value);
            }
            long bytes = logBytes(db);
            // The memtable keeps one version of the key (each overwrite prunes the one before), so
            // its size never reaches the buffer size; the log must not grow without bound anyway.
            assertTrue(bytes <= 4L * bufferSize + 2 * MemTable.ENTRY_OVERHEAD, "logs hold " + bytes + " bytes with a " + bufferSize + "-byte write buffer");
            assertArrayEquals(value, d.get("k".getBytes(UTF_8)));
        }
    }

    /**
     * RocksDB flushes at close when writes skipped the log (has_unpersisted_data_, unless
     * avoid_flush_during_shutdown), so a clean close loses none of them; only a crash does.
     */
    @Test
    void writesWithoutTheLogSurviveACleanClose() {
        Path db = dir.resolve("db");
        WriteOptions noLog = new WriteOptions().setDisableWAL(true);
        try (EverettDB d = EverettDB.open(db, new DBOptions().setWriteBufferSize(4096))) {
            d.put(noLog, "switched".getBytes(UTF_8), new byte[5000]); // fills the memtable: the next write switches it out
            d.put(noLog, "active".getBytes(UTF_8), "1".getBytes(UTF_8));
            d.put("logged".getBytes(UTF_8), "2".getBytes(UTF_8));
        }
        try (EverettDB d = EverettDB.open(db)) {
            assertArrayEquals(new byte[5000], d.get("switched".getBytes(UTF_8)));
            assertArrayEquals("1".getBytes(UTF_8), d.get("active".getBytes(UTF_8)));
            assertArrayEquals("2".getBytes(UTF_8), d.get("logged".getBytes(UTF_8)));
        }
    }

    /**
     * Open reads a log back in one array (at most {@code Integer.MAX_VALUE - 8} bytes), so no log
     * may grow past that, whatever the write buffer size (a 4 GiB buffer was accepted and its log
     * could not be replayed). Here the limit is lowered to 10,000 bytes under a 1 MiB buffer.
     */
    @Test
    void noLogGrowsPastWhatOpenCanReadBack() throws IOException {
        Path db = dir.resolve("db");
        long limit = 10_000;
        DBOptions options = new DBOptions().setWriteBufferSize(1 << 20).setAllowMmapWrites(false).setMaxLogBytes(limit);
        try (EverettDB d = EverettDB.open(db, options)) {
            for (int i = 0; i < 100; i++) {
                d.put(("k" + i).getBytes(UTF_8), new byte[1000]);
                try (Stream<Path> s = Files.list(db)) {
                    for (Path p : s.filter(p -> WriteAheadLog.numberOf(p) >= 0).toList()) {
                        assertTrue(p.toFile().length() <= limit, p.getFileName() + " holds " + p.toFile().length() + " bytes");
                    }
                }
            }
        }
        try (EverettDB d = EverettDB.open(db, options)) {
            for (int i = 0; i < 100; i++) {
                assertArrayEquals(new byte[1000], d.get(("k" + i).getBytes(UTF_8)));
            }
        }
    }
}

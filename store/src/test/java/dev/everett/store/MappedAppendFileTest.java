package dev.everett.store;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The write-ahead log's file on the real file system: what it holds while open (the bytes
 * appended, then zeros up to a window boundary, as a crash leaves it), after close (exactly the
 * bytes appended), and a store reopened from the files a crash left.
 */
class MappedAppendFileTest {

    @TempDir
    Path dir;

    @Test
    void appendsAcrossWindowsReadBackAndCloseCutsTheZeros() throws Exception {
        long seed = Seeds.seed();
        Seeds.run("MappedAppendFileTest", seed, () -> {
            SplittableRandom rnd = new SplittableRandom(seed);
            Path file = dir.resolve("f-" + seed);
            byte[] expected = new byte[3 * MappedAppendFile.WINDOW + 12345];
            rnd.nextBytes(expected);
            StoreFiles.AppendFile f = StoreFiles.DEFAULT.create(file);
            int at = 0;
            while (at < expected.length) {
                // Sizes from one byte to more than a window, heap and direct buffers alike.
                int n = Math.min(expected.length - at, rnd.nextInt(4) == 0 ? rnd.nextInt(MappedAppendFile.WINDOW + 2) : 1 + rnd.nextInt(300));
                ByteBuffer b = rnd.nextBoolean() ? ByteBuffer.allocate(n + 8) : ByteBuffer.allocateDirect(n + 8);
                b.position(3).put(expected, at, n).flip().position(3);
                f.append(b);
                assertEquals(0, b.remaining(), "append consumes the buffer");
                at += n;
                assertEquals(at, f.size());
                if (rnd.nextInt(8) == 0) {
                    f.force();
                }
            }
            // Open: the appended bytes, then zeros to the end of the last window.
            byte[] open = Files.readAllBytes(file);
            assertEquals(0, open.length % MappedAppendFile.WINDOW, "an open file ends at a window boundary");
            assertArrayEquals(expected, Arrays.copyOf(open, expected.length));
            for (int i = expected.length; i < open.length; i++) {
                assertEquals(0, open[i], "byte " + i + " after the appended ones");
            }
            f.close();
            f.close();
            assertArrayEquals(expected, Files.readAllBytes(file), "a closed file holds exactly the appended bytes");
        });
    }

    @Test
    void emptyFileClosesEmpty() throws IOException {
        Path file = dir.resolve("empty");
        StoreFiles.DEFAULT.create(file).close();
        assertEquals(0, Files.size(file));
    }

    /** The files of an open store, copied as a process crash would leave them, reopen with every write. */
    @Test
    void storeCopiedWhileOpenRecoversEveryWrite() throws IOException {
        storeCopiedWhileOpen(new DBOptions(), true);
    }

    /** The same with the log written by {@code write} calls: its open log ends in its last record, nothing to cut. */
    @Test
    void storeWithoutMappedWritesCopiedWhileOpenRecoversEveryWrite() throws IOException {
        storeCopiedWhileOpen(new DBOptions().setAllowMmapWrites(false), false);
    }

    private void storeCopiedWhileOpen(DBOptions options, boolean mapped) throws IOException {
        Path db = dir.resolve("db");
        Path crashed = dir.resolve("crashed");
        int n = 20_000; // more than a window of log
        try (EverettDB d = EverettDB.open(db, options)) {
            for (int i = 0; i < n; i++) {
                d.put(("k" + i).getBytes(UTF_8), ("value " + i).getBytes(UTF_8));
            }
            copyTree(db, crashed);
        }
        try (EverettDB d = EverettDB.open(crashed)) {
            for (int i = 0; i < n; i++) {
                assertArrayEquals(("value " + i).getBytes(UTF_8), d.get(("k" + i).getBytes(UTF_8)));
            }
            assertEquals(n, d.getLatestSequenceNumber());
            if (mapped) {
                assertTrue(d.recovery().stream().anyMatch(r -> r.batches() == n && r.droppedBytes() > 0 && r.zeroTail()),
                        "the zeros after the last record are cut off: " + d.recovery());
                String stats = d.getProperty("everett.stats");
                assertTrue(stats.contains("bytes of zeros after the last record cut") && !stats.contains("torn tail"), stats);
            } else {
                assertTrue(d.recovery().stream().allMatch(r -> r.droppedBytes() == 0), "nothing to cut: " + d.recovery());
            }
        }
    }

    /**
     * Copies a store's files as a crash would leave them, except {@code LOCK}: reading it would
     * open (and close) a channel on it, and closing any channel on a file drops every lock this
     * process holds on it, the open store's among them.
     */
    static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path q = to.resolve(from.relativize(p).toString());
                if (p.equals(from.resolve("LOCK"))) {
                    continue;
                }
                if (Files.isDirectory(p)) {
                    Files.createDirectories(q);
                } else {
                    Files.copy(p, q);
                }
            }
        }
    }
}

package dev.everett.store;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Reopen after a crash: torn log tails, flipped bytes, damaged descriptors. */
class RecoveryTest {

    @TempDir
    Path dir;

    static byte[] b(String s) {
        return s.getBytes(UTF_8);
    }

    private Path onlyLog(Path db) throws IOException {
        List<Path> logs = new ArrayList<>();
        try (Stream<Path> s = Files.list(db)) {
            s.filter(p -> WriteAheadLog.numberOf(p) >= 0).forEach(logs::add);
        }
        logs.sort(null);
        // The last log is the empty one the store opened for new writes; the data is in the one before.
        return logs.get(logs.size() - 1);
    }

    /** Writes keys k0..k{n-1} and "closes" without the store's help (the log as a crash leaves it). */
    private Path writeAndAbandon(Path db, int n) throws IOException {
        EverettDB d = EverettDB.open(db);
        for (int i = 0; i < n; i++) {
            d.put(b("k" + i), b("v" + i));
        }
        Path log = onlyLog(db);
        d.close();
        return log;
    }

    @Test
    void reopenReplaysEveryAcknowledgedWrite() throws IOException {
        Path db = dir.resolve("db");
        writeAndAbandon(db, 100);
        try (EverettDB d = EverettDB.open(db)) {
            for (int i = 0; i < 100; i++) {
                assertArrayEquals(b("v" + i), d.get(b("k" + i)));
            }
            assertEquals(100, d.getLatestSequenceNumber());
        }
    }

    @Test
    void tornTailRecoversToTheLastCompleteRecordAndReportsTheDrop() throws IOException {
        // Cut the last record at every length from one byte short down to its header alone.
        for (int short_ = 1; short_ <= 20; short_ += 3) {
            Path db = dir.resolve("db" + short_);
            Path log = writeAndAbandon(db, 10);
            try (FileChannel ch = FileChannel.open(log, StandardOpenOption.WRITE)) {
                ch.truncate(ch.size() - short_);
            }
            try (EverettDB d = EverettDB.open(db)) {
                assertNull(d.get(b("k9")), "the torn last write is gone");
                assertArrayEquals(b("v8"), d.get(b("k8")), "everything before it is kept");
                LogReplay.Result r = d.recovery().stream().filter(x -> x.file().equals(log)).findFirst().orElseThrow();
                assertTrue(r.droppedBytes() > 0, "the drop is reported");
                assertTrue(d.getProperty("everett.stats").contains("torn tail of " + r.droppedBytes() + " bytes"), d.getProperty("everett.stats"));
                d.put(b("k9"), b("again"));
            }
            try (EverettDB d = EverettDB.open(db)) {
                assertArrayEquals(b("again"), d.get(b("k9")), "writes after the recovery survive the next reopen");
                assertArrayEquals(b("v8"), d.get(b("k8")));
            }
        }
    }

    @Test
    void zeroFilledTailIsATornTail() throws IOException {
        Path db = dir.resolve("db");
        Path log = writeAndAbandon(db, 5);
        try (FileChannel ch = FileChannel.open(log, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            ch.write(java.nio.ByteBuffer.allocate(4096));
        }
        try (EverettDB d = EverettDB.open(db)) {
            assertArrayEquals(b("v4"), d.get(b("k4")));
        }
    }

    /**
     * The newest log killed after its file grew by a window of zeros and before (or while) its
     * header was copied in, as a mapped log can be: nothing was logged there, and the older log's
     * writes all come back. A header that is no prefix of the expected one is still refused.
     */
    @Test
    void newestLogOfZerosAfterAnIncompleteHeaderHeldNothing() throws IOException {
        for (int headerBytes : new int[] {0, 5, WriteAheadLog.HEADER_BYTES - 1}) {
            Path db = dir.resolve("db-" + headerBytes);
            Path log = writeAndAbandon(db, 5);
            long next = WriteAheadLog.numberOf(log) + 1;
            byte[] bytes = new byte[64 << 10];
            java.nio.ByteBuffer.wrap(bytes).order(java.nio.ByteOrder.LITTLE_ENDIAN).put(WriteAheadLog.MAGIC).putLong(next);
            java.util.Arrays.fill(bytes, headerBytes, bytes.length, (byte) 0);
            Files.write(db.resolve(WriteAheadLog.fileName(next)), bytes);
            try (EverettDB d = EverettDB.open(db)) {
                assertArrayEquals(b("v4"), d.get(b("k4")), "header bytes " + headerBytes);
            }
        }
        Path db = dir.resolve("db-foreign");
        Path log = writeAndAbandon(db, 5);
        Path foreign = db.resolve(WriteAheadLog.fileName(WriteAheadLog.numberOf(log) + 1));
        byte[] bytes = new byte[64 << 10];
        bytes[0] = 'X';
        Files.write(foreign, bytes);
        CorruptFileException e = assertThrows(CorruptFileException.class, () -> EverettDB.open(db));
        assertEquals(foreign, e.file());
    }

    @Test
    void flippedByteInsideTheLogIsRefusedNamingFileAndOffset() throws IOException {
        Path db = dir.resolve("db");
        Path log = writeAndAbandon(db, 20);
        byte[] bytes = Files.readAllBytes(log);
        int at = WriteAheadLog.HEADER_BYTES + 40; // inside the second record
        bytes[at] ^= 0x10;
        Files.write(log, bytes);
        CorruptFileException e = assertThrows(CorruptFileException.class, () -> EverettDB.open(db));
        assertEquals(log, e.file());
        assertTrue(e.offset() >= WriteAheadLog.HEADER_BYTES && e.offset() <= at, "offset " + e.offset());
        assertTrue(e.getMessage().contains("intact record follows"), e.getMessage());
        // Refusing to open left the store unlocked and unchanged: repairing the byte recovers everything.
        bytes[at] ^= 0x10;
        Files.write(log, bytes);
        try (EverettDB d = EverettDB.open(db)) {
            assertArrayEquals(b("v19"), d.get(b("k19")));
        }
    }

    @Test
    void flippedByteInTheLastRecordIsATornTail() throws IOException {
        Path db = dir.resolve("db");
        Path log = writeAndAbandon(db, 3);
        byte[] bytes = Files.readAllBytes(log);
        bytes[bytes.length - 1] ^= 0x01;
        Files.write(log, bytes);
        try (EverettDB d = EverettDB.open(db)) {
            assertNull(d.get(b("k2")));
            assertArrayEquals(b("v1"), d.get(b("k1")));
        }
    }

    @Test
    void badMagicAndMisnamedLogsAreRefused() throws IOException {
        Path db = dir.resolve("db");
        Path log = writeAndAbandon(db, 3);
        byte[] bytes = Files.readAllBytes(log);
        bytes[0] = 'X';
        Files.write(log, bytes);
        CorruptFileException e = assertThrows(CorruptFileException.class, () -> EverettDB.open(db));
        assertEquals(0, e.offset());
        assertTrue(e.rule().contains("magic"), e.rule());
        bytes[0] = 'E';
        java.nio.ByteBuffer.wrap(bytes).order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(8, 77);
        Files.write(log, bytes);
        e = assertThrows(CorruptFileException.class, () -> EverettDB.open(db));
        assertEquals(8, e.offset());
        assertTrue(e.rule().contains("names log 77"), e.rule());
    }

    @Test
    void damagedDescriptorIsRefused() throws IOException {
        Path db = dir.resolve("db");
        writeAndAbandon(db, 1);
        Path store = db.resolve(StoreDescriptor.FILE_NAME);
        String text = Files.readString(store).replace("blockWidth=15", "blockWidth=16");
        Files.writeString(store, text);
        CorruptFileException e = assertThrows(CorruptFileException.class, () -> EverettDB.open(db));
        assertEquals(store, e.file());
        assertTrue(e.rule().contains("CRC32C"), e.rule());
    }

    /** Writes until a flush is attempted under an armed crash; returns the keys acknowledged. */
    private int writeUntilCrash(Path db, CrashingTreeFiles crash) {
        EverettDB d = EverettDB.open(db, new DBOptions().setWriteBufferSize(4096).setTreeFiles(crash));
        crash.arm();
        int acknowledged = 0;
        try {
            for (int i = 0; i < 100_000 && !crash.crashed(); i++) {
                d.put(b("k" + i), b("value-" + i));
                acknowledged = i + 1;
            }
            // Writes after the crash are refused once the failed flush is noticed; keep going until then.
            for (int i = acknowledged; i < acknowledged + 100_000; i++) {
                d.put(b("k" + i), b("value-" + i));
                acknowledged = i + 1;
            }
        } catch (IllegalStateException refused) {
            assertTrue(refused.getMessage().contains("refuses writes"), refused.getMessage());
        }
        assertTrue(crash.crashed(), "the flush reached its manifest edit");
        try {
            d.close();
        } catch (UncheckedIOException expected) {
            // The crashed file system fails the tree's close too.
        }
        return acknowledged;
    }

    @Test
    void crashBetweenFlushOutputAndManifestEditLosesNoAcknowledgedWrite() throws IOException {
        Path db = dir.resolve("db");
        int acknowledged = writeUntilCrash(db, new CrashingTreeFiles());
        try (EverettDB d = EverettDB.open(db)) {
            for (int i = 0; i < acknowledged; i++) {
                assertArrayEquals(b("value-" + i), d.get(b("k" + i)), "k" + i);
            }
            assertNull(d.get(b("k" + acknowledged)));
            d.compactRange();
            for (int i = 0; i < acknowledged; i += 7) {
                assertArrayEquals(b("value-" + i), d.get(b("k" + i)), "k" + i + " after compaction");
            }
        }
        assertTrue(assertNoOrphanSegments(db, new DBOptions()) > 0, "the compaction left segments");
    }

    @Test
    void tornTailInAnEarlierLogIsDamage() throws IOException {
        Path db = dir.resolve("db");
        writeUntilCrash(db, new CrashingTreeFiles());
        List<Path> logs = new ArrayList<>();
        try (Stream<Path> s = Files.list(db)) {
            s.filter(p -> WriteAheadLog.numberOf(p) >= 0).sorted().forEach(logs::add);
        }
        assertTrue(logs.size() >= 2, "a switched-out memtable's log and the active one remain: " + logs);
        try (FileChannel ch = FileChannel.open(logs.getFirst(), StandardOpenOption.WRITE)) {
            ch.truncate(ch.size() - 2);
        }
        CorruptFileException e = assertThrows(CorruptFileException.class, () -> EverettDB.open(db));
        assertEquals(logs.getFirst(), e.file());
        assertTrue(e.rule().contains("later log"), e.rule());
    }

    /** Every segment directory on disk belongs to the tree's current version. */
    static long assertNoOrphanSegments(Path db, DBOptions options) throws IOException {
        Path segments = db.resolve(EverettDB.TREE_DIR).resolve("segments");
        // No compaction may start while the directory is counted: it would be writing outputs that
        // no version names yet.
        try (EverettDB d = EverettDB.open(db, options.setDisableAutoCompactions(true))) {
            // Opened and idle (the replayed logs flushed, nothing pinned): the files are the version's.
            d.flush();
            long onDisk;
            try (Stream<Path> s = Files.exists(segments) ? Files.list(segments) : Stream.empty()) {
                onDisk = s.count();
            }
            int[] counts = d.segmentCounts();
            assertEquals(counts[0], counts[1], "with nothing pinned, the live segments are the version's");
            assertEquals(counts[0], onDisk, "segment directories on disk vs segments in the version");
            return onDisk;
        }
    }
}

package dev.everett.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.everett.segment.testing.FuzzInputs;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Fuzz targets of the store's own decoders: the write-ahead log as recovery replays it
 * ({@link LogReplay}, with every batch walked by {@link BatchDecoder}), one batch's operations,
 * and the {@code STORE} descriptor ({@link StoreDescriptor#read}).
 *
 * <p>Damage may be refused only with {@link CorruptFileException} naming the file and an offset
 * inside it ({@link BatchDecoder.Malformed} for a bare batch); anything else is a finding. What is
 * accepted must be consistent: a replay accounts for every byte of the log (replayed or dropped
 * as a torn tail) and hands on sequence numbers that only grow, a decoded batch written again
 * through {@link WriteBatch} decodes to the same operations, and an accepted descriptor written
 * again reads back the same.
 *
 * <p>Seeds: {@code src/test/resources/dev/everett/store/LogFuzzTestInputs/<method>/}, written by
 * {@link LogFuzzCorpusTest}. Regression mode runs them in every build; fuzz with (pick a method)
 * <pre>
 * JAZZER_FUZZ=1 ./.ci/with-jdk25 ./mvnw -pl store -am test \
 *     -Dtest='LogFuzzTest#log' -Dsurefire.failIfNoSpecifiedTests=false -Djazzer.max_duration=5m
 * </pre>
 */
class LogFuzzTest {
    private static final Path DIR = FuzzInputs.scratchDirectory("everett-log-fuzz-");
    static final long LOG_NUMBER = 7;

    /** One operation as the decoder reported it. */
    record Op(byte type, byte[] key, byte[] value) {
    }

    /**
     * A log file. The first byte chooses: bit 0 clear, the log's header followed by records, each
     * read from the input as a 2-byte big-endian payload length and the payload (sequence number,
     * count, operations), framed with a correct length and CRC32C so mutations reach the batches;
     * the bytes after the last whole record follow unframed (a torn or damaged tail). Bit 0 set,
     * the rest of the input is the file as it is.
     */
    @FuzzTest(maxDuration = "2m")
    void log(byte[] data) throws IOException {
        if (data.length == 0) {
            return;
        }
        byte[] bytes = (data[0] & 1) == 0 ? logFile(data) : Arrays.copyOfRange(data, 1, data.length);
        Path file = DIR.resolve(WriteAheadLog.fileName(LOG_NUMBER));
        Files.write(file, bytes);
        long[] lastSeq = {0};
        LogReplay.Result r;
        try {
            r = LogReplay.replay(StoreFiles.DEFAULT, file, 0, (firstSeq, count, d, off, len) -> {
                assertTrue(firstSeq > lastSeq[0], "sequence numbers go back");
                List<Op> ops = decode(d, off, len, count);
                assertEquals(count, ops.size());
                lastSeq[0] = firstSeq + count - 1;
            });
        } catch (CorruptFileException e) {
            assertEquals(file, e.file());
            assertTrue(e.offset() >= 0 && e.offset() <= bytes.length, "offset " + e.offset() + " outside the log");
            return;
        }
        assertEquals(bytes.length, r.validBytes() + r.droppedBytes(), "replay does not account for every byte");
        assertEquals(lastSeq[0], r.lastSeq());
    }

    /** One batch: the first byte is its operation count, the rest its encoded operations. */
    @FuzzTest(maxDuration = "1m")
    void batch(byte[] data) throws BatchDecoder.Malformed {
        if (data.length == 0) {
            return;
        }
        int count = data[0] & 0xFF;
        List<Op> ops;
        try {
            ops = decode(data, 1, data.length - 1, count);
        } catch (BatchDecoder.Malformed e) {
            assertTrue(e.at >= 0 && e.at <= data.length - 1, "offset " + e.at + " outside the batch");
            return;
        }
        WriteBatch again = new WriteBatch();
        for (Op op : ops) {
            switch (op.type()) {
                case WriteBatch.PUT -> again.put(op.key(), op.value());
                case WriteBatch.DELETE -> again.delete(op.key());
                default -> again.singleDelete(op.key());
            }
        }
        List<Op> reread = decode(again.data(), 0, again.size(), again.count());
        assertEquals(ops.size(), reread.size());
        for (int i = 0; i < ops.size(); i++) {
            assertEquals(ops.get(i).type(), reread.get(i).type());
            assertArrayEquals(ops.get(i).key(), reread.get(i).key());
            assertArrayEquals(ops.get(i).value(), reread.get(i).value());
        }
    }

    /** The {@code STORE} descriptor file, as it is. */
    @FuzzTest(maxDuration = "1m")
    void descriptor(byte[] data) throws IOException {
        Path dir = Files.createTempDirectory(DIR, "d");
        Path file = dir.resolve(StoreDescriptor.FILE_NAME);
        try {
            Files.write(file, data);
            StoreDescriptor d;
            try {
                d = StoreDescriptor.read(StoreFiles.DEFAULT, dir);
            } catch (CorruptFileException e) {
                assertEquals(file, e.file());
                assertTrue(e.offset() >= 0 && e.offset() <= data.length, "offset " + e.offset() + " outside the descriptor");
                return;
            }
            Files.delete(file);
            StoreDescriptor.write(StoreFiles.DEFAULT, dir, d);
            assertEquals(d, StoreDescriptor.read(StoreFiles.DEFAULT, dir), "descriptor written again reads back otherwise");
        } finally {
            Files.deleteIfExists(file);
            Files.delete(dir);
        }
    }

    /** Every operation of a batch, copied out, each checked to lie inside the batch. */
    static List<Op> decode(byte[] d, int off, int len, int count) throws BatchDecoder.Malformed {
        List<Op> ops = new ArrayList<>();
        BatchDecoder.forEach(d, off, len, count, (type, data, keyOff, keyLen, valueOff, valueLen) -> {
            assertTrue(keyOff >= off && keyLen >= 0 && keyOff + keyLen <= off + len, "key outside the batch");
            byte[] value = null;
            if (type == WriteBatch.PUT) {
                assertTrue(valueOff >= keyOff + keyLen && valueLen >= 0 && valueOff + valueLen <= off + len, "value outside the batch");
                value = Arrays.copyOfRange(data, valueOff, valueOff + valueLen);
            }
            ops.add(new Op(type, Arrays.copyOfRange(data, keyOff, keyOff + keyLen), value));
        });
        return ops;
    }

    /** The log file a structured {@link #log} input stands for. */
    static byte[] logFile(byte[] data) {
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        ByteBuffer header = ByteBuffer.allocate(WriteAheadLog.HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        header.put(WriteAheadLog.MAGIC).putLong(LOG_NUMBER);
        file.writeBytes(header.array());
        int at = 1;
        while (at + 2 <= data.length) {
            int length = ((data[at] & 0xFF) << 8) | (data[at + 1] & 0xFF);
            if (at + 2 + length > data.length) {
                break;
            }
            CRC32C crc = new CRC32C();
            crc.update(data, at + 2, length);
            ByteBuffer record = ByteBuffer.allocate(WriteAheadLog.RECORD_HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
            record.putInt(length).putInt((int) crc.getValue());
            file.writeBytes(record.array());
            file.write(data, at + 2, length);
            at += 2 + length;
        }
        file.write(data, at, data.length - at);
        return file.toByteArray();
    }
}

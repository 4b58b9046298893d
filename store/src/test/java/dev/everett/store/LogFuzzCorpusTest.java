package dev.everett.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.everett.api.Policy;
import dev.everett.compaction.Layout;
import dev.everett.segment.testing.FuzzCorpusHarness;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The seed corpus of {@link LogFuzzTest}: logs, batches and descriptors as the store writes them
 * ({@code valid-*}) and a few damaged ones ({@code mut-*}: a torn tail, a damaged record before
 * an intact one, a batch with bytes after its operations, a descriptor with a bad checksum or an
 * impossible policy). Regenerate with
 * <pre>
 * ./.ci/with-jdk25 ./mvnw -pl store -am test -Dtest=LogFuzzCorpusTest \
 *     -Dsurefire.failIfNoSpecifiedTests=false -Deverett.fuzz.writeCorpus=true
 * </pre>
 */
class LogFuzzCorpusTest extends FuzzCorpusHarness {
    @Override
    protected String resourceDir() {
        return "src/test/resources/dev/everett/store/LogFuzzTestInputs";
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static List<WriteBatch> batches() {
        return List.of(
                new WriteBatch().put(b("apple"), b("red")).put(new byte[0], new byte[0]),
                new WriteBatch().delete(b("apple")),
                new WriteBatch().singleDelete(b("banana")).put(b("cherry"), new byte[300]));
    }

    /** A structured {@link LogFuzzTest#log} seed: selector 0, then each record's payload with its 2-byte length. */
    private static byte[] structured(List<WriteBatch> batches, byte[] tail) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0);
        long seq = 1;
        for (WriteBatch w : batches) {
            ByteBuffer p = ByteBuffer.allocate(WriteAheadLog.PAYLOAD_PREFIX_BYTES + w.size()).order(ByteOrder.LITTLE_ENDIAN);
            p.putLong(seq).putInt(w.count()).put(w.data(), 0, w.size());
            seq += w.count();
            out.write(p.capacity() >>> 8);
            out.write(p.capacity());
            out.writeBytes(p.array());
        }
        out.writeBytes(tail);
        return out.toByteArray();
    }

    private static byte[] raw(byte[] file) {
        byte[] out = new byte[file.length + 1];
        out[0] = 1;
        System.arraycopy(file, 0, out, 1, file.length);
        return out;
    }

    @Override
    protected Map<String, Map<String, byte[]>> corpus(Path scratch) throws IOException {
        List<WriteBatch> batches = batches();
        Map<String, byte[]> logs = new LinkedHashMap<>();
        byte[] whole = structured(batches, new byte[0]);
        logs.put("valid-three-records", whole);
        logs.put("valid-raw-three-records", raw(LogFuzzTest.logFile(whole)));
        logs.put("valid-raw-header-only", raw(LogFuzzTest.logFile(new byte[] {0})));
        logs.put("valid-raw-short-header", raw(Arrays.copyOf(LogFuzzTest.logFile(new byte[] {0}), 10)));
        byte[] lastRecord = Arrays.copyOfRange(LogFuzzTest.logFile(structured(batches.subList(2, 3), new byte[0])), WriteAheadLog.HEADER_BYTES,
                WriteAheadLog.HEADER_BYTES + 20);
        logs.put("mut-torn-tail", structured(batches.subList(0, 2), lastRecord));
        byte[] damaged = LogFuzzTest.logFile(whole);
        damaged[WriteAheadLog.HEADER_BYTES + WriteAheadLog.RECORD_HEADER_BYTES + WriteAheadLog.PAYLOAD_PREFIX_BYTES + 2] ^= 0x40;
        logs.put("mut-raw-damaged-first-record", raw(damaged));

        Map<String, byte[]> ops = new LinkedHashMap<>();
        for (int i = 0; i < batches.size(); i++) {
            WriteBatch w = batches.get(i);
            byte[] seed = new byte[w.size() + 1];
            seed[0] = (byte) w.count();
            System.arraycopy(w.data(), 0, seed, 1, w.size());
            ops.put("valid-" + i, seed);
        }
        byte[] trailing = Arrays.copyOf(ops.get("valid-1"), ops.get("valid-1").length + 1);
        ops.put("mut-trailing-byte", trailing);

        Map<String, byte[]> descriptors = new LinkedHashMap<>();
        for (Layout layout : Layout.values()) {
            for (Policy p : List.of(Policy.defaultBytes(), Policy.stringPolicy())) {
                Path dir = Files.createTempDirectory(scratch, "d");
                StoreDescriptor.write(StoreFiles.DEFAULT, dir, new StoreDescriptor(p, layout));
                descriptors.put("valid-" + layout.name().toLowerCase() + "-" + p.unit().name().toLowerCase(),
                        Files.readAllBytes(dir.resolve(StoreDescriptor.FILE_NAME)));
            }
        }
        byte[] badCrc = descriptors.values().iterator().next().clone();
        badCrc[badCrc.length - 2] ^= 1;
        descriptors.put("mut-crc", badCrc);

        Map<String, Map<String, byte[]>> out = new LinkedHashMap<>();
        out.put("log", logs);
        out.put("batch", ops);
        out.put("descriptor", descriptors);
        return out;
    }

    /** The seeds say what they are: every valid one is accepted, every damaged one refused or cut as it should be. */
    @Test
    void seedsAreWhatTheirNamesSay(@TempDir Path scratch) throws Exception {
        Map<String, Map<String, byte[]>> seeds = corpus(scratch);
        Map<String, byte[]> logs = seeds.get("log");
        assertEquals(3, replay(scratch, logs.get("valid-three-records")).batches());
        assertEquals(0, replay(scratch, logs.get("valid-three-records")).droppedBytes());
        assertEquals(3, replay(scratch, logs.get("valid-raw-three-records")).batches());
        assertEquals(0, replay(scratch, logs.get("valid-raw-header-only")).batches());
        assertEquals(10, replay(scratch, logs.get("valid-raw-short-header")).droppedBytes());
        LogReplay.Result torn = replay(scratch, logs.get("mut-torn-tail"));
        assertEquals(2, torn.batches());
        assertEquals(20, torn.droppedBytes());
        assertThrows(CorruptFileException.class, () -> replay(scratch, logs.get("mut-raw-damaged-first-record")));

        assertSeedsAsNamed(seeds.get("batch"), BatchDecoder.Malformed.class, d -> LogFuzzTest.decode(d, 1, d.length - 1, d[0]));
        assertSeedsAsNamed(seeds.get("descriptor"), CorruptFileException.class, d -> {
            Path dir = Files.createTempDirectory(scratch, "r");
            Files.write(dir.resolve(StoreDescriptor.FILE_NAME), d);
            StoreDescriptor.read(StoreFiles.DEFAULT, dir);
        });
    }

    private static LogReplay.Result replay(Path dir, byte[] seed) throws IOException {
        byte[] file = (seed[0] & 1) == 0 ? LogFuzzTest.logFile(seed) : Arrays.copyOfRange(seed, 1, seed.length);
        Path log = dir.resolve(WriteAheadLog.fileName(LogFuzzTest.LOG_NUMBER));
        Files.write(log, file);
        return LogReplay.replay(StoreFiles.DEFAULT, log, 0, (firstSeq, count, d, off, len) -> LogFuzzTest.decode(d, off, len, count));
    }
}

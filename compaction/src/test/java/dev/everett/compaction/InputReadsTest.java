package dev.everett.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.api.CorruptSegmentException;
import dev.everett.api.ObjectStoreOptions;
import dev.everett.api.Policy;
import dev.everett.api.TombstonePolicy;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How a compaction reads its inputs: mapped or copied, as this machine's probes find faster. */
class InputReadsTest {
    @TempDir(factory = MemoryTempDir.class)
    Path dir;

    @AfterEach
    void forget() {
        InputReads.reset();
    }

    /** Small inputs copy until a probe has answered; the median of the first probes then decides for good. */
    @Test
    void theMedianOfTheFirstProbesDecides() {
        InputReads.reset();
        long big = InputReads.PROBE_MIN_BYTES;
        assertEquals(InputReads.Way.COPIED, InputReads.next(big - 1, true), "no probe yet: copy, as before any probe");
        assertEquals(InputReads.Way.COPIED, InputReads.next(big, false), "a job that probed does not probe again");
        assertEquals(InputReads.Way.PROBE, InputReads.next(big, true));
        // Mapped three times as slow: copies.
        assertEquals(InputReads.Way.COPIED, InputReads.probed(3_000, 1_000));
        assertEquals(InputReads.Way.COPIED, InputReads.next(big - 1, true), "small inputs go by the probes so far");
        assertEquals(InputReads.Way.PROBE, InputReads.next(big, true), "until the answer is fixed, large inputs probe");
        // Mapped twice as fast: the median of {3, 0.5} is 1.75, still copies.
        assertEquals(InputReads.Way.COPIED, InputReads.probed(1_000, 2_000));
        assertEquals(InputReads.Way.PROBE, InputReads.next(big, true));
        // Again: the median of {0.5, 0.5, 3} maps, and the answer is fixed.
        assertEquals(InputReads.Way.MAPPED, InputReads.probed(1_000, 2_000));
        assertEquals(InputReads.Way.MAPPED, InputReads.next(big, true));
        assertEquals(InputReads.Way.MAPPED, InputReads.next(1, true));
        assertEquals(InputReads.Way.MAPPED, InputReads.probed(9_000, 1_000), "a probe after the answer is fixed changes nothing");
    }

    /** No more probes start than are still wanted; an abandoned probe frees its place. */
    @Test
    void probesAreReserved() {
        InputReads.reset();
        long big = InputReads.PROBE_MIN_BYTES;
        for (int i = 0; i < InputReads.PROBES; i++) {
            assertEquals(InputReads.Way.PROBE, InputReads.next(big, true), "probe " + i);
        }
        assertEquals(InputReads.Way.COPIED, InputReads.next(big, true), "every wanted probe is running");
        InputReads.abandoned();
        assertEquals(InputReads.Way.PROBE, InputReads.next(big, true), "an abandoned probe's place is free again");
        assertEquals(0, InputReads.probesTaken());
    }

    /** A near tie maps: the copy must beat the mapped pass by the margin. */
    @Test
    void aNearTieMaps() {
        InputReads.reset();
        long within = (long) (1_000 * InputReads.COPY_MARGIN);
        assertEquals(InputReads.Way.MAPPED, InputReads.probed(within, 1_000));
        InputReads.reset();
        assertEquals(InputReads.Way.COPIED, InputReads.probed(within + 10, 1_000));
    }

    /**
     * A compaction with inputs large enough probes once (both ways over its first input), then
     * merges from whichever readers it chose; the outputs are the model's either way, and with
     * the answer fixed to copies or to mappings.
     */
    @Test
    void aProbingCompactionMergesTheSameRecords() throws IOException {
        InputReads.reset();
        try (SegmentFiles files = SegmentFiles.open(dir.resolve("segments"), Policy.defaultBytes(), ObjectStoreOptions.defaults(),
                StorageFiles.system())) {
            TreeMap<byte[], byte[]> older = Fixtures.newModel();
            TreeMap<byte[], byte[]> newer = Fixtures.newModel();
            byte[] value = new byte[200];
            for (int i = 0; i < 48_000; i++) {
                byte[] key = String.format("key%08d", i).getBytes();
                value[0] = (byte) i;
                older.put(key, value.clone());
                value[1] = 1; // every key again, so that both inputs are large enough to probe
                newer.put(key, value.clone());
                value[1] = 0;
            }
            List<SegmentMeta> inputs = new ArrayList<>();
            inputs.addAll(files.flush(SortedEntries.of(older.entrySet().iterator()), Long.MAX_VALUE, null));
            inputs.addAll(files.flush(SortedEntries.of(newer.entrySet().iterator()), Long.MAX_VALUE, null));
            for (SegmentMeta m : inputs) {
                assertTrue(m.nativeBytes() >= InputReads.PROBE_MIN_BYTES, "every input is large enough to probe");
            }
            TreeMap<byte[], byte[]> expected = Fixtures.newModel();
            expected.putAll(older);
            expected.putAll(newer);
            // Two probing compactions (each probes once, whichever way the timing goes), then one
            // with the answer fixed to each way.
            for (int round = 0; round < 4; round++) {
                if (round >= 2) {
                    InputReads.reset();
                    for (int p = 0; p < InputReads.PROBES; p++) {
                        InputReads.probed(round == 2 ? 3_000 : 1_000, 1_000); // round 2 copies, round 3 maps
                    }
                }
                long probesBefore = InputReads.probesTaken();
                long copiesBefore = SegmentCompaction.inputCopies.get();
                List<SegmentMeta> outputs;
                try (CompactionJob job = files.compaction(inputs).targetFileBytes(4L << 20).tombstones(TombstonePolicy.DROP).start()) {
                    while (!job.done()) {
                        job.step(4096);
                    }
                    outputs = job.finish();
                }
                assertEquals(round < 2 ? probesBefore + 1 : probesBefore, InputReads.probesTaken(),
                        round < 2 ? "the compaction probed its first input, once" : "the answer was fixed: no probe");
                assertEquals(0, InputReads.probesRunning(), "no probe left reserved");
                long copied = SegmentCompaction.inputCopies.get() - copiesBefore;
                if (round == 2) {
                    assertEquals(inputs.size(), copied, "the answer is copies: every input was merged from a copy");
                } else if (round == 3) {
                    assertEquals(0, copied, "the answer is mappings: no input was copied");
                } else {
                    assertTrue(copied == 0 || copied == inputs.size(), "one way for every input of a job: " + copied);
                }
                SegmentFilesTest.assertSameModel(expected, SegmentFilesTest.read(files, outputs));
                for (SegmentMeta m : outputs) {
                    files.delete(m.id());
                }
            }
            // A probe over a damaged input fails the job, naming the file, and frees its place.
            InputReads.reset();
            SegmentMeta first = inputs.getFirst();
            Fixtures.damageBody(first.id().path(files.segmentDirectory(first.id()), ".kv"));
            try (CompactionJob job = files.compaction(inputs).start()) {
                CorruptSegmentException e = assertThrows(CorruptSegmentException.class, () -> job.step(1));
                assertTrue(e.getMessage().contains(first.id().path(files.segmentDirectory(first.id()), ".kv").getFileName().toString()), e.getMessage());
            }
            assertEquals(0, InputReads.probesRunning(), "the failed probe's place is free again");
            assertEquals(0, InputReads.probesTaken());
        }
    }
}

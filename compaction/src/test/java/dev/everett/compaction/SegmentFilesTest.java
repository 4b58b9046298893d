package dev.everett.compaction;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.api.FilterPolicy;
import dev.everett.api.KeyOrderException;
import dev.everett.api.ObjectStoreOptions;
import dev.everett.api.Policy;
import dev.everett.api.SegmentCursor;
import dev.everett.api.TombstonePolicy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Flush and compaction through {@link SegmentFiles} against a TreeMap model. */
class SegmentFilesTest {
    @TempDir(factory = MemoryTempDir.class)
    Path dir;

    private SegmentFiles open() throws IOException {
        return SegmentFiles.open(dir.resolve("segments"), Policy.defaultBytes(), ObjectStoreOptions.defaults(), StorageFiles.system());
    }

    /** The records of the segments, in order, each segment verified; checks their metadata too. */
    static TreeMap<byte[], byte[]> read(SegmentFiles files, List<SegmentMeta> segments) throws IOException {
        TreeMap<byte[], byte[]> out = Fixtures.newModel();
        byte[] last = null;
        for (SegmentMeta m : segments) {
            try (SegmentHandle h = files.open(m)) {
                h.segment().verify();
                h.segment().natives().verify();
                long records = 0;
                long tombstones = 0;
                byte[] first = null;
                byte[] k = null;
                try (SegmentCursor c = h.segment().natives().cursor()) {
                    while (c.next()) {
                        k = c.keyBytes();
                        if (first == null) {
                            first = k;
                        }
                        records++;
                        if (c.isTombstone()) {
                            tombstones++;
                        }
                        out.put(k, c.valueBytes());
                    }
                }
                assertArrayEquals(first, m.smallestKey(), "smallest key of " + m);
                assertArrayEquals(k, m.largestKey(), "largest key of " + m);
                assertEquals(records, m.records());
                assertEquals(tombstones, m.tombstones());
                assertTrue(m.nativeBytes() > 0 && m.indexBytes() > 0, m.toString());
                Fixtures.assertFileBytesOnDisk(files, m);
                if (last != null) {
                    assertTrue(java.util.Arrays.compareUnsigned(last, first) < 0, "segments in key order, disjoint");
                }
                last = k;
                SegmentMeta back = SegmentMeta.fromBytes(m.toBytes(), 0, m.toBytes().length, Path.of("meta"), 0);
                assertEquals(m, back);
            }
        }
        return out;
    }

    static void assertSameModel(Map<byte[], byte[]> expected, Map<byte[], byte[]> actual) {
        List<String> e = new ArrayList<>();
        expected.forEach((k, v) -> e.add(Fixtures.hex(k) + "=" + Fixtures.hex(v)));
        List<String> a = new ArrayList<>();
        actual.forEach((k, v) -> a.add(Fixtures.hex(k) + "=" + Fixtures.hex(v)));
        assertEquals(e, a);
    }

    @Test
    void flushAndCompactionMatchTheModelAtEverySplitSize() {
        Fixtures.seeded("flushAndCompactionMatchTheModelAtEverySplitSize", r -> {
            try (SegmentFiles files = open()) {
                for (int round = 0; round < 6; round++) {
                    long target = switch (round) {
                        case 0 -> 1;                       // one record per file
                        case 1 -> 20 + r.nextInt(40);
                        case 2 -> 200 + r.nextInt(400);
                        default -> 1L << (10 + r.nextInt(10));
                    };
                    roundTrip(files, r, target);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    private void roundTrip(SegmentFiles files, Random r, long target) throws IOException {
        List<byte[]> pool = Fixtures.keyPool(r, 20 + r.nextInt(300));
        TreeMap<byte[], byte[]> model = Fixtures.newModel();
        List<SegmentMeta> inputs = new ArrayList<>();
        int runs = 1 + r.nextInt(4);
        for (int i = 0; i < runs; i++) {
            // One record per file makes a segment (several forced files) per record: keep those runs short.
            TreeMap<byte[], byte[]> run = Fixtures.run(r, pool, 1 + r.nextInt(target == 1 ? 25 : 150), 4);
            List<SegmentMeta> flushed = files.flush(SortedEntries.of(run.entrySet().iterator()), target, new byte[] {(byte) i});
            if (target == 1) {
                assertEquals(run.size(), flushed.size(), "one record per file");
            }
            assertSameModel(run, read(files, flushed));
            inputs.addAll(flushed);
            Fixtures.apply(model, run);
        }
        boolean drop = r.nextBoolean();
        // Inputs read into memory (the default, when they fit) or through their mappings.
        long inMemory = r.nextBoolean() ? CompactionBuilder.DEFAULT_INPUTS_IN_MEMORY_BYTES : 0;
        List<SegmentMeta> outputs;
        try (CompactionJob job = files.compaction(inputs).targetFileBytes(target).inputsInMemory(inMemory)
                .tombstones(drop ? TombstonePolicy.DROP : TombstonePolicy.KEEP).start()) {
            while (!job.done()) {
                job.step(1 + r.nextInt(50));
            }
            assertEquals(job.progress().totalInputRecords(), job.progress().inputRecords());
            outputs = job.finish();
        }
        TreeMap<byte[], byte[]> expected = drop ? Fixtures.visible(model) : model;
        assertSameModel(expected, read(files, outputs));
        if (target == 1) {
            for (SegmentMeta m : outputs) {
                assertEquals(1, m.records(), "one record per output");
            }
        }
        for (SegmentMeta m : inputs) {
            files.delete(m.id());
        }
        for (SegmentMeta m : outputs) {
            files.delete(m.id());
        }
        assertEquals(0, files.list().size(), "nothing left behind");
    }

    /**
     * Outputs of a compaction whose files keep key filters: their writers keep every key's hash as
     * the merge writes it, and each output's filter is byte for byte the one a walk of the output
     * builds.
     */
    @Test
    void compactedFiltersAreTheWalkedOnes() throws IOException {
        FilterPolicy bloom = FilterPolicy.bloom(10);
        try (SegmentFiles files = SegmentFiles.open(dir.resolve("segments"), Policy.defaultBytes(),
                ObjectStoreOptions.defaults().withFilters(bloom), StorageFiles.system())) {
            Random r = new Random(Fixtures.seed());
            List<byte[]> pool = Fixtures.keyPool(r, 3_000);
            List<SegmentMeta> inputs = new ArrayList<>();
            for (int run = 0; run < 3; run++) {
                inputs.addAll(files.flush(SortedEntries.of(Fixtures.run(r, pool, 1_500, 4).entrySet().iterator()), Long.MAX_VALUE, null));
            }
            java.util.Set<Path> before = natives(dir);
            List<SegmentMeta> outputs;
            try (CompactionJob job = files.compaction(inputs).targetFileBytes(1 << 10).start()) {
                while (!job.done()) {
                    job.step(256);
                }
                // The outputs rolled over so far are sealed; their hashes wait for the filter build.
                java.util.Set<Path> rolled = natives(dir);
                rolled.removeAll(before);
                assertTrue(rolled.size() > 1, "several outputs were published during the merge");
                Path taken = rolled.iterator().next();
                java.nio.ByteBuffer header = java.nio.ByteBuffer.wrap(java.nio.file.Files.readAllBytes(taken)).order(java.nio.ByteOrder.LITTLE_ENDIAN);
                long[] hashes = dev.everett.segment.io.WrittenFiles.takeHashes(taken, header.capacity(),
                        header.getInt(dev.everett.segment.io.Envelope.HEADER_CRC_OFFSET));
                assertTrue(hashes != null && hashes.length > 0, "the merge's writer kept the keys' hashes of " + taken);
                // Every output but the one whose hashes were just taken here builds its filter from them.
                long fromHashes = dev.everett.segment.io.WrittenFiles.hashesTaken();
                outputs = job.finish();
                assertEquals(fromHashes + outputs.size() - 1, dev.everett.segment.io.WrittenFiles.hashesTaken(),
                        "every other output's filter was built from its writer's hashes");
            }
            for (SegmentMeta m : outputs) {
                Path filter = m.id().path(files.segmentDirectory(m.id()), ".filter");
                byte[] built = java.nio.file.Files.readAllBytes(filter);
                java.nio.file.Files.delete(filter);
                try (SegmentHandle h = files.open(m)) {
                    assertTrue(h.segment().filtered());
                }
                assertArrayEquals(java.nio.file.Files.readAllBytes(filter), built, "filter of " + m.id() + ", rebuilt by a walk");
            }
        }
    }

    /** Every native file under {@code root}. */
    private static java.util.Set<Path> natives(Path root) throws IOException {
        try (java.util.stream.Stream<Path> all = java.nio.file.Files.walk(root)) {
            return all.filter(p -> p.toString().endsWith(".kv")).collect(java.util.stream.Collectors.toCollection(java.util.HashSet::new));
        }
    }

    /** The builder's sizes: a target under one byte and a negative memory budget are refused, naming the argument. */
    @Test
    void builderSizesOutOfRangeAreRefused() throws IOException {
        try (SegmentFiles files = open()) {
            TreeMap<byte[], byte[]> run = Fixtures.run(new Random(3), Fixtures.keyPool(new Random(3), 10), 10, 4);
            List<SegmentMeta> inputs = files.flush(SortedEntries.of(run.entrySet().iterator()), Long.MAX_VALUE, new byte[0]);
            CompactionBuilder b = files.compaction(inputs);
            assertTrue(assertThrows(IllegalArgumentException.class, () -> b.targetFileBytes(0)).getMessage().contains("target file bytes"));
            assertTrue(assertThrows(IllegalArgumentException.class, () -> b.inputsInMemory(-1)).getMessage().contains("inputs in memory"));
            assertTrue(SegmentCompaction.fitsInMemory(inputs, inputs.getFirst().nativeBytes()));
            assertTrue(!SegmentCompaction.fitsInMemory(inputs, inputs.getFirst().nativeBytes() - 1));
        }
    }

    @Test
    void aFlushOutOfOrderFailsAndLeavesNothing() throws IOException {
        try (SegmentFiles files = open()) {
            List<Map.Entry<byte[], byte[]>> entries = List.of(Map.entry(new byte[] {1}, new byte[] {1}),
                    Map.entry(new byte[] {2}, new byte[] {2}), Map.entry(new byte[] {2}, new byte[] {3}));
            assertThrows(KeyOrderException.class, () -> files.flush(SortedEntries.of(entries.iterator()), 1 << 20, null));
            // Across a split boundary too (one record per file).
            assertThrows(KeyOrderException.class, () -> files.flush(SortedEntries.of(entries.iterator()), 1, null));
            assertEquals(0, files.list().size());
        }
    }
}

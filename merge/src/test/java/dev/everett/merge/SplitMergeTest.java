package dev.everett.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.api.CommonWidthRule;
import dev.everett.api.MergeEngine;
import dev.everett.api.MergeJob;
import dev.everett.api.MergeOutput;
import dev.everett.api.OpenMode;
import dev.everett.api.Policy;
import dev.everett.api.SegmentCursor;
import dev.everett.api.SegmentEngine;
import dev.everett.api.SegmentReader;
import dev.everett.api.SegmentWriter;
import dev.everett.api.TombstonePolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Split merges ({@code MergeBuilder.splitInto}): the outputs, read one after another, hold exactly
 * what one unsplit merge would, each is a valid segment on its own (its first key in full), and an
 * abandoned split merge deletes the outputs it had already published.
 */
class SplitMergeTest {
    @TempDir
    Path dir;

    private static long seed() {
        String s = System.getProperty("everett.seed", "");
        return s.isBlank() ? new Random().nextLong() : Long.parseLong(s.trim());
    }

    private static TreeMap<byte[], byte[]> run(Random r, byte[] prefix, int n) {
        TreeMap<byte[], byte[]> m = new TreeMap<>(Arrays::compareUnsigned);
        for (int i = 0; i < n; i++) {
            int p = r.nextInt(prefix.length + 1);
            byte[] k = Arrays.copyOf(prefix, p + r.nextInt(4));
            for (int j = p; j < k.length; j++) {
                k[j] = (byte) r.nextInt(3);
            }
            byte[] v = r.nextInt(4) == 0 ? null : new byte[r.nextInt(9)];
            if (v != null) {
                r.nextBytes(v);
            }
            m.put(k, v);
        }
        return m;
    }

    private SegmentReader write(SegmentEngine engine, Policy policy, Path file, TreeMap<byte[], byte[]> run) throws Exception {
        try (SegmentWriter w = engine.newWriter(file, policy, CommonWidthRule.policy())) {
            for (var e : run.entrySet()) {
                if (e.getValue() == null) {
                    w.delete(e.getKey());
                } else {
                    w.put(e.getKey(), e.getValue());
                }
            }
            w.finish();
        }
        return engine.open(file, policy, OpenMode.TYPED);
    }

    private static List<String> records(SegmentReader r) {
        List<String> out = new ArrayList<>();
        try (SegmentCursor c = r.cursor()) {
            while (c.next()) {
                out.add(HexFormat.of().formatHex(c.keyBytes()) + "=" + (c.isTombstone() ? "-" : HexFormat.of().formatHex(c.valueBytes())));
            }
        }
        return out;
    }

    @Test
    void splitOutputsHoldWhatOneMergeWouldInByteAndBitUnits() throws Exception {
        long seed = seed();
        Random r = new Random(seed);
        SegmentEngine engine = SegmentEngine.load();
        for (Policy policy : List.of(Policy.defaultBytes(), Policy.stringPolicy())) {
            for (int round = 0; round < 6; round++) {
                Path d = Files.createDirectories(dir.resolve(policy.unit() + "-" + round));
                byte[] prefix = new byte[20 + r.nextInt(30)];
                r.nextBytes(prefix);
                List<SegmentReader> inputs = new ArrayList<>();
                int k = 1 + r.nextInt(4);
                for (int i = 0; i < k; i++) {
                    inputs.add(write(engine, policy, d.resolve("in" + i + ".kv"), run(r, prefix, 1 + r.nextInt(120))));
                }
                TombstonePolicy tombstones = r.nextBoolean() ? TombstonePolicy.DROP : TombstonePolicy.KEEP;
                boolean cap = r.nextBoolean();
                long target = round == 0 ? 1 : 1 + r.nextInt(400);
                Path whole = d.resolve("whole.kv");
                try (MergeJob job = MergeEngine.load().merge(inputs).into(whole).tombstones(tombstones).capTombstoneLiterals(cap).start()) {
                    while (!job.done()) {
                        job.step(100);
                    }
                    job.finish();
                }
                List<MergeOutput> outs;
                try (MergeJob job = MergeEngine.load().merge(inputs).splitInto(target, i -> d.resolve("part" + i + ".kv"))
                        .tombstones(tombstones).capTombstoneLiterals(cap).start()) {
                    while (!job.done()) {
                        job.step(1 + r.nextInt(20));
                    }
                    outs = job.finishAll();
                }
                List<String> expected;
                try (SegmentReader w = engine.open(whole, policy, OpenMode.TYPED)) {
                    expected = records(w);
                }
                List<String> got = new ArrayList<>();
                for (MergeOutput o : outs) {
                    try (SegmentReader part = engine.open(o.segment().path(), policy, OpenMode.TYPED)) {
                        part.verify();
                        List<String> recs = records(part);
                        assertEquals(recs.size(), o.segment().recordCount());
                        assertEquals(recs.stream().filter(s -> s.endsWith("=-")).count(), o.tombstones(), "tombstone count");
                        if (target == 1 && outs.size() > 1) {
                            assertEquals(1, recs.size(), "one record per output at a 1-byte target (seed " + seed + ")");
                        }
                        got.addAll(recs);
                    }
                }
                assertEquals(expected, got, "split outputs = one merge (seed " + seed + ", " + policy.unit() + ", target " + target + ")");
                for (SegmentReader in : inputs) {
                    in.close();
                }
            }
        }
    }

    @Test
    void anAbandonedSplitMergeDeletesTheOutputsItPublished() throws Exception {
        SegmentEngine engine = SegmentEngine.load();
        Policy policy = Policy.defaultBytes();
        Random r = new Random(7);
        byte[] prefix = new byte[8];
        Path in = Files.createDirectories(dir.resolve("in"));
        Path out = Files.createDirectories(dir.resolve("out"));
        try (SegmentReader a = write(engine, policy, in.resolve("a.kv"), run(r, prefix, 200));
             SegmentReader b = write(engine, policy, in.resolve("b.kv"), run(r, prefix, 200))) {
            try (MergeJob job = MergeEngine.load().merge(List.of(a, b)).splitInto(16, i -> out.resolve("part" + i + ".kv")).start()) {
                job.step(50);
                try (Stream<Path> s = Files.list(out)) {
                    assertTrue(s.anyMatch(p -> p.getFileName().toString().startsWith("part")), "outputs rolled over and were published");
                }
            }
            try (Stream<Path> s = Files.list(out)) {
                assertEquals(List.of(), s.toList(), "closing the unfinished merge left nothing");
            }
        }
    }
}

package dev.everett.merge;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.api.CommonWidthRule;
import dev.everett.api.MergeEngine;
import dev.everett.api.MergeJob;
import dev.everett.api.MergeOutput;
import dev.everett.api.OpenMode;
import dev.everett.api.Policy;
import dev.everett.api.SegmentCursor;
import dev.everett.api.SegmentEngine;
import dev.everett.api.SegmentInfo;
import dev.everett.api.SegmentReader;
import dev.everett.api.SegmentWriter;
import dev.everett.api.ValueGrammar;
import dev.everett.api.ValueWidth;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Misused merges: each gives a specific exception (or a right answer), never a wrong one or lost data. */
class MergeMisuseTest {
    @TempDir
    Path dir;
    private final SegmentEngine engine = SegmentEngine.load();

    /** A run of keys k000.. (step apart) with one-byte values {@code v}. */
    private Path run(String name, Policy policy, int from, int count, int step, byte v) throws IOException {
        Path p = dir.resolve(name);
        try (SegmentWriter w = engine.newWriter(p, policy, CommonWidthRule.policy())) {
            for (int i = 0; i < count; i++) {
                w.put(String.format("k%03d", from + i * step).getBytes(), new byte[] {v});
            }
            w.finish();
        }
        return p;
    }

    private SegmentReader open(Path p, Policy policy) throws IOException {
        return engine.open(p, policy, OpenMode.TYPED);
    }

    private static List<String> keys(SegmentReader r) {
        List<String> keys = new ArrayList<>();
        try (SegmentCursor c = r.cursor()) {
            while (c.next()) {
                keys.add(new String(c.keyBytes()));
            }
        }
        return keys;
    }

    private static void drain(MergeJob job) throws IOException {
        while (!job.done()) {
            job.step(1000);
        }
    }

    /** A split merge whose OutputFiles names one path twice would publish the second output over the first. */
    @Test
    void splitOutputsNamedTwiceAreRefused() throws Exception {
        Policy policy = Policy.defaultBytes();
        Path same = dir.resolve("out.kv");
        try (SegmentReader a = open(run("a", policy, 0, 20, 2, (byte) 1), policy);
             SegmentReader b = open(run("b", policy, 1, 20, 2, (byte) 2), policy)) {
            try (MergeJob job = NativeMerger.of(a, b).splitInto(16, i -> same).start()) {
                java.nio.file.FileAlreadyExistsException e = assertThrows(java.nio.file.FileAlreadyExistsException.class, () -> drain(job));
                assertTrue(e.getMessage().contains(same.toString()) && e.getMessage().contains("output 0"), e.getMessage());
                assertThrows(IllegalStateException.class, job::finishAll);
            }
            assertTrue(Files.notExists(same), "a refused split merge leaves nothing");
        }
    }

    /** An output over an input would replace the input (and a failed split merge would then delete it). */
    @Test
    void anOutputOverAnInputIsRefused() throws Exception {
        Policy policy = Policy.defaultBytes();
        Path pa = run("a", policy, 0, 20, 2, (byte) 1);
        Path pb = run("b", policy, 1, 20, 2, (byte) 2);
        byte[] before = Files.readAllBytes(pa);
        try (SegmentReader a = open(pa, policy); SegmentReader b = open(pb, policy)) {
            java.nio.file.FileAlreadyExistsException e = assertThrows(java.nio.file.FileAlreadyExistsException.class, () -> NativeMerger.of(a, b).into(pa).start());
            assertTrue(e.getMessage().contains(pa.toString()), e.getMessage());
            // A split merge whose second output is an input, and which then fails: the input must survive.
            try (MergeJob job = NativeMerger.of(a, b).splitInto(16, i -> i == 1 ? dir.resolve(".").resolve("a") : dir.resolve("part" + i)).start()) {
                assertThrows(java.nio.file.FileAlreadyExistsException.class, () -> drain(job));
            }
        }
        assertArrayEquals(before, Files.readAllBytes(pa), "the input is untouched");
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(List.of("a", "b"), s.map(p -> p.getFileName().toString()).sorted().toList());
        }
    }

    /** The same run given twice would fold every value with itself (a counter would double). */
    @Test
    void theSameRunTwiceIsRefused() throws Exception {
        Policy policy = Policy.defaultBytes();
        Path pa = run("a", policy, 0, 5, 1, (byte) 1);
        try (SegmentReader a = open(pa, policy); SegmentReader again = open(pa, policy)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> MergeEngine.load().merge(List.of(a, a)));
            assertTrue(e.getMessage().contains(pa.toString()), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> MergeEngine.load().merge(List.of(a, again)));
        }
    }

    /** MergeEngine.merge promises IllegalArgumentException for runs that mix policies (not only at start). */
    @Test
    void runsOfDifferentPoliciesAreRefusedByMerge() throws Exception {
        Policy optional = Policy.defaultBytes();
        Policy raw = optional.withGrammar(ValueGrammar.RAW);
        Path pa = run("a", optional, 0, 5, 1, (byte) 1);
        Path pb = run("b", raw, 0, 5, 1, (byte) 1);
        try (SegmentReader a = open(pa, optional); SegmentReader b = open(pb, raw)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> MergeEngine.load().merge(List.of(a, b)));
            assertTrue(e.getMessage().contains(pb.toString()), e.getMessage());
        }
    }

    /** A budget below one key is a misused call, as for a compaction's step; the job stays usable. */
    @Test
    void aBudgetBelowOneIsRefused() throws Exception {
        Policy policy = Policy.defaultBytes();
        try (SegmentReader a = open(run("a", policy, 0, 5, 1, (byte) 1), policy);
             MergeJob job = NativeMerger.of(List.of(a)).into(dir.resolve("out")).start()) {
            assertThrows(IllegalArgumentException.class, () -> job.step(0));
            assertThrows(IllegalArgumentException.class, () -> job.step(-1));
            drain(job);
            assertEquals(5, job.finish().recordCount());
        }
    }

    /** Value callbacks that misbehave: each poisons the merge with a specific exception and publishes nothing. */
    @Test
    void misbehavingValueMergersPoisonTheMerge() throws Exception {
        Policy raw = Policy.defaultBytes().withGrammar(ValueGrammar.RAW);
        Policy fixed = raw.withValueWidth(ValueWidth.fixed(1));
        Object[][] cases = {
            {raw, (dev.everett.api.ValueMerger) (o, n) -> null},
            {fixed, (dev.everett.api.ValueMerger) (o, n) -> MemorySegment.ofArray(new byte[2])},
            {raw, (dev.everett.api.ValueMerger) (o, n) -> MemorySegment.NULL.reinterpret(1L << 40)},
        };
        for (int i = 0; i < cases.length; i++) {
            Policy p = (Policy) cases[i][0];
            Path out = dir.resolve("out" + i);
            try (SegmentReader a = open(run("a" + i, p, 0, 5, 1, (byte) 1), p);
                 SegmentReader b = open(run("b" + i, p, 0, 5, 1, (byte) 2), p);
                 MergeJob job = NativeMerger.of(a, b).values((dev.everett.api.ValueMerger) cases[i][1]).into(out).start()) {
                RuntimeException e = assertThrows(RuntimeException.class, () -> drain(job));
                assertTrue(e instanceof IllegalArgumentException || e instanceof IllegalStateException, i + ": " + e);
                assertThrows(IllegalStateException.class, job::finish);
            }
            assertTrue(Files.notExists(out), "case " + i);
        }
    }

    /** Only empty inputs: the merge is done at once and publishes an empty segment. */
    @Test
    void emptyInputsMergeIntoAnEmptySegment() throws Exception {
        Policy policy = Policy.defaultBytes();
        Path out = dir.resolve("out");
        try (SegmentReader a = open(run("a", policy, 0, 0, 1, (byte) 1), policy);
             SegmentReader b = open(run("b", policy, 0, 0, 1, (byte) 1), policy);
             MergeJob job = NativeMerger.of(a, b).into(out).start()) {
            assertTrue(job.done());
            assertEquals(0, job.step(10).keys());
            SegmentInfo info = job.finish();
            assertEquals(0, info.recordCount());
            assertThrows(IllegalStateException.class, job::finish);
            assertThrows(IllegalStateException.class, () -> job.step(1));
        }
        try (SegmentReader r = open(out, policy)) {
            assertEquals(List.of(), keys(r));
        }
        assertThrows(IllegalArgumentException.class, () -> MergeEngine.load().merge(List.of()));
    }

    /** A closed input is refused at start, and one closed during the merge fails the step, each naming the file. */
    @Test
    void closedInputs() throws Exception {
        Policy policy = Policy.defaultBytes();
        Path pa = run("a", policy, 0, 50, 2, (byte) 1);
        Path pb = run("b", policy, 1, 50, 2, (byte) 2);
        SegmentReader a = open(pa, policy);
        a.close();
        try (SegmentReader b = open(pb, policy)) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> NativeMerger.of(a, b).into(dir.resolve("out")).start());
            assertTrue(e.getMessage().contains(pa.toString()), e.getMessage());
            SegmentReader a2 = open(pa, policy);
            try (MergeJob job = NativeMerger.of(a2, b).into(dir.resolve("out")).start()) {
                job.step(3);
                a2.close();
                IllegalStateException e2 = assertThrows(IllegalStateException.class, () -> drain(job));
                assertTrue(e2.getMessage().contains(pa.toString()), e2.getMessage());
                assertThrows(IllegalStateException.class, job::finish);
            }
        }
        assertTrue(Files.notExists(dir.resolve("out")));
    }

    /**
     * An input truncated on disk while it is merged: the mapped read past the new end faults,
     * which the JVM reports as an InternalError naming no file; the step names the file instead.
     */
    @Test
    void anInputTruncatedOnDiskFailsTheStepNamingIt() throws Exception {
        Policy policy = Policy.defaultBytes();
        Path pa = run("a", policy, 0, 400, 2, (byte) 1);
        Path big = dir.resolve("big");
        try (SegmentWriter w = engine.newWriter(big, policy, CommonWidthRule.policy())) {
            for (int i = 0; i < 20_000; i++) {
                w.put(String.format("k%06d", i).getBytes(), new byte[24]);
            }
            w.finish();
        }
        Path out = dir.resolve("out");
        try (SegmentReader a = open(pa, policy); SegmentReader b = open(big, policy);
             MergeJob job = NativeMerger.of(a, b).into(out).start()) {
            job.step(10);
            try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(big, java.nio.file.StandardOpenOption.WRITE)) {
                ch.truncate(4096);
            }
            dev.everett.api.CorruptSegmentException e = assertThrows(dev.everett.api.CorruptSegmentException.class, () -> drain(job));
            assertEquals(big, e.file());
            assertTrue(e.getMessage().contains("truncated"), e.getMessage());
            assertThrows(IllegalStateException.class, job::finish);
        }
        assertTrue(Files.notExists(out));
    }

    /** Split targets at the edges: 1 byte gives one key per output, Long.MAX_VALUE one output. */
    @Test
    void splitTargetsAtTheEdges() throws Exception {
        Policy policy = Policy.defaultBytes();
        try (SegmentReader a = open(run("a", policy, 0, 5, 2, (byte) 1), policy);
             SegmentReader b = open(run("b", policy, 1, 5, 2, (byte) 2), policy)) {
            for (long bad : new long[] {0, -1, Long.MIN_VALUE}) {
                assertThrows(IllegalArgumentException.class, () -> NativeMerger.of(a, b).splitInto(bad, i -> dir.resolve("x" + i)));
            }
            try (MergeJob job = NativeMerger.of(a, b).splitInto(1, i -> dir.resolve("one" + i)).start()) {
                drain(job);
                List<MergeOutput> outs = job.finishAll();
                assertEquals(10, outs.size());
                for (MergeOutput o : outs) {
                    assertEquals(1, o.segment().recordCount());
                }
            }
            try (MergeJob job = NativeMerger.of(a, b).splitInto(Long.MAX_VALUE, i -> dir.resolve("all" + i)).start()) {
                drain(job);
                List<MergeOutput> outs = job.finishAll();
                assertEquals(1, outs.size());
                assertEquals(10, outs.get(0).segment().recordCount());
            }
        }
    }
}

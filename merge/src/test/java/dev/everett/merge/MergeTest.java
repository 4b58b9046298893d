package dev.everett.merge;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.api.BackspaceCode;
import dev.everett.api.CommonWidthRule;
import dev.everett.api.CorruptSegmentException;
import dev.everett.api.KeyedValueMerger;
import dev.everett.api.MergeJob;
import dev.everett.api.MergeProgress;
import dev.everett.api.OpenMode;
import dev.everett.api.Policy;
import dev.everett.api.SegmentCursor;
import dev.everett.api.SegmentEngine;
import dev.everett.api.SegmentFormat;
import dev.everett.api.SegmentReader;
import dev.everett.api.SegmentWriter;
import dev.everett.api.TombstonePolicy;
import dev.everett.api.ValueGrammar;
import dev.everett.api.ValueMerger;
import dev.everett.segment.encoded.EncodedRecords;
import dev.everett.segment.natives.NativeFuzzTest;
import dev.everett.segment.testing.Rec;
import dev.everett.segment.testing.SegmentFixtures;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The encoded merger against the materialising reference merger and a sorted-map model, on
 * seeded random inputs; then its errors and lifecycle. Every differential case runs for each
 * {@link Profile}: byte-unit KV02, KV02 with bit units (exponential-Golomb and Golomb
 * backspaces) and KV03. A failure prints the seed; replay with -Deverett.seed=.
 */
class MergeTest {
    /** The native profiles a merge runs under; bit-unit profiles draw their backspace code. */
    public enum Profile {
        BYTES, KV02_BITS_EXP_GOLOMB, KV02_BITS_GOLOMB, KV03;

        /** The profile's base policy (K = W = 15, variable optional values); a random backspace for bits. */
        public Policy base(Random rnd) {
            return switch (this) {
                case BYTES -> Policy.defaultBytes();
                case KV02_BITS_EXP_GOLOMB -> Policy.stringPolicy().withFormat(SegmentFormat.KV02).withBackspace(BackspaceCode.expGolomb(rnd.nextInt(6)));
                case KV02_BITS_GOLOMB -> Policy.stringPolicy().withFormat(SegmentFormat.KV02).withBackspace(BackspaceCode.golomb(1 + rnd.nextInt(9)));
                case KV03 -> Policy.stringPolicy().withBackspace(rnd.nextBoolean()
                        ? BackspaceCode.expGolomb(rnd.nextInt(6)) : BackspaceCode.golomb(1 + rnd.nextInt(9)));
            };
        }
    }

    @TempDir
    Path dir;
    private final SegmentEngine engine = SegmentEngine.load();

    static long seed() {
        String s = System.getProperty("everett.seed", "").strip();
        return s.isEmpty() ? new Random().nextLong() : Long.parseLong(s);
    }

    /** Keys shaped for front coding: shared stems, proper prefixes, the empty key, edge bytes. */
    static List<byte[]> universe(Random rnd, int n) {
        TreeSet<byte[]> keys = new TreeSet<>(Arrays::compareUnsigned);
        List<byte[]> stems = new ArrayList<>();
        stems.add(new byte[0]);
        for (int i = 0; i < 6; i++) {
            byte[] s = new byte[rnd.nextInt(i == 0 ? 80 : 12)];
            rnd.nextBytes(s);
            stems.add(s);
        }
        while (keys.size() < n) {
            byte[] stem = stems.get(rnd.nextInt(stems.size()));
            byte[] tail = new byte[rnd.nextInt(5)];
            for (int i = 0; i < tail.length; i++) {
                tail[i] = (byte) (rnd.nextInt(4) == 0 ? rnd.nextInt(256) : new int[] {0, 1, 0x7F, 0x80, 0xFF}[rnd.nextInt(5)]);
            }
            byte[] k = Arrays.copyOf(stem, stem.length + tail.length);
            System.arraycopy(tail, 0, k, stem.length, tail.length);
            keys.add(k);
        }
        return new ArrayList<>(keys);
    }

    private Path write(String name, Policy policy, TreeMap<byte[], byte[]> records) throws IOException {
        Path p = dir.resolve(name);
        try (SegmentWriter w = engine.newWriter(p, policy, CommonWidthRule.policy())) {
            for (Map.Entry<byte[], byte[]> e : records.entrySet()) {
                if (e.getValue() == null) {
                    w.delete(e.getKey());
                } else {
                    w.put(e.getKey(), e.getValue());
                }
            }
            w.finish();
        }
        return p;
    }

    private static TreeMap<byte[], byte[]> read(SegmentReader r) {
        TreeMap<byte[], byte[]> m = new TreeMap<>(Arrays::compareUnsigned);
        try (SegmentCursor c = r.cursor()) {
            while (c.next()) {
                m.put(c.keyBytes(), c.valueBytes());
            }
        }
        return m;
    }

    private static String show(TreeMap<byte[], byte[]> m) {
        StringBuilder sb = new StringBuilder();
        HexFormat h = HexFormat.of();
        m.forEach((k, v) -> sb.append(h.formatHex(k)).append('=').append(v == null ? "∅" : h.formatHex(v)).append('\n'));
        return sb.toString();
    }

    static final ValueMerger CONCAT = (older, newer) -> {
        if (older == null || newer == null) {
            return newer;
        }
        byte[] a = older.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
        byte[] b = newer.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
        byte[] c = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return MemorySegment.ofArray(c);
    };

    static final KeyedValueMerger KEYED = (key, older, newer) -> {
        if (newer == null) {
            return null;
        }
        byte[] b = newer.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
        byte[] c = Arrays.copyOf(b, b.length + 1);
        c[b.length] = (byte) key.byteSize();
        return MemorySegment.ofArray(c);
    };

    @ParameterizedTest
    @EnumSource(Profile.class)
    void encodedMergeEqualsTheReferenceByteForByte(Profile profile) throws Exception {
        long seed = seed();
        Random rnd = new Random(seed);
        for (int round = 0; round < 40; round++) {
            String tag = profile + " seed " + seed + " round " + round;
            boolean optional = rnd.nextInt(4) != 0;
            Policy policy = profile.base(rnd).withBlockWidth(1 + rnd.nextInt(16)).withGroupSize(new long[] {3, 7, 15, 31}[rnd.nextInt(4)])
                    .withGrammar(optional ? ValueGrammar.OPTIONAL : ValueGrammar.RAW);
            List<byte[]> keys = universe(rnd, 1 + rnd.nextInt(400));
            int k = 1 + rnd.nextInt(round % 3 == 0 ? 2 : 6);
            List<SegmentReader> runs = new ArrayList<>();
            try {
                for (int i = 0; i < k; i++) {
                    TreeMap<byte[], byte[]> run = new TreeMap<>(Arrays::compareUnsigned);
                    double p = rnd.nextDouble();
                    for (byte[] key : keys) {
                        if (rnd.nextDouble() < p) {
                            byte[] v = new byte[rnd.nextInt(4)];
                            rnd.nextBytes(v);
                            run.put(key, optional && rnd.nextInt(4) == 0 ? null : v);
                        }
                    }
                    Path input = write(profile + "-in-" + round + "-" + i, policy, run);
                    if (optional && rnd.nextInt(3) == 0) {
                        input = redundant(input, policy);
                    }
                    runs.add(engine.open(input, policy, OpenMode.TYPED));
                }
                int mode = rnd.nextInt(3);
                ValueMerger values = mode == 1 ? CONCAT : ValueMerger.NEWER_WINS;
                KeyedValueMerger keyed = mode == 2 && optional ? KEYED : null;
                TombstonePolicy tombstones = optional && rnd.nextBoolean() ? TombstonePolicy.DROP : TombstonePolicy.KEEP;
                TreeMap<byte[], byte[]> expected = ReferenceMerger.merge(runs, values, keyed, tombstones);
                Path reference = dir.resolve(profile + "-ref-" + round);
                // An inferred common width makes the writer rewrite the stream without value lengths at finish().
                CommonWidthRule rule = rnd.nextInt(4) == 0 ? CommonWidthRule.infer() : CommonWidthRule.policy();
                ReferenceMerger.write(expected, reference, runs.get(0), rule);

                Path out = dir.resolve(profile + "-out-" + round);
                boolean checkAsRead = rnd.nextBoolean();
                NativeMerger m = NativeMerger.of(runs).into(out).tombstones(tombstones).values(values).widthRule(rule)
                        .checkInputsAsRead(checkAsRead);
                if (keyed != null) {
                    m.values(keyed);
                }
                long total = 0;
                try (MergeJob job = m.start()) {
                    long budget = 1 + rnd.nextInt(50);
                    while (!job.done()) {
                        MergeProgress p = job.step(budget);
                        assertTrue(p.keys() <= budget, tag);
                        total += p.inputRecords();
                    }
                    assertEquals(0, job.step(budget).keys(), tag);
                    job.finish();
                }
                long inputs = 0;
                for (SegmentReader r : runs) {
                    inputs += r.recordCount();
                }
                assertEquals(inputs, total, tag + " input records consumed");
                assertEquals(HexFormat.of().formatHex(Files.readAllBytes(reference)), HexFormat.of().formatHex(Files.readAllBytes(out)),
                        tag + " k=" + k + " mode " + mode + " " + tombstones + " " + rule + " checkAsRead " + checkAsRead + "\nexpected\n" + show(expected));
            } finally {
                runs.forEach(SegmentReader::close);
            }
        }
        assertTrue(redundantInputs > 0, profile + " seed " + seed + ": no input had redundant front coding");
    }

    /** Inputs made with redundant front coding so far (the test checks some were). */
    private int redundantInputs;

    /**
     * The same records with redundant (non-maximal) front coding: split them alternately into
     * two runs and merge those with the tombstone literal cap, so each tombstone keeps at most
     * the prefix it shared with its neighbour in its own half, usually less than it shares with
     * its neighbour in the whole.
     */
    private Path redundant(Path input, Policy policy) throws IOException {
        TreeMap<byte[], byte[]> even = new TreeMap<>(Arrays::compareUnsigned);
        TreeMap<byte[], byte[]> odd = new TreeMap<>(Arrays::compareUnsigned);
        try (SegmentReader r = engine.open(input, policy, OpenMode.TYPED)) {
            int i = 0;
            for (Map.Entry<byte[], byte[]> e : read(r).entrySet()) {
                (i++ % 2 == 0 ? even : odd).put(e.getKey(), e.getValue());
            }
        }
        Path out = dir.resolve("redundant-" + input.getFileName());
        try (SegmentReader a = engine.open(write("even-" + input.getFileName(), policy, even), policy, OpenMode.TYPED);
             SegmentReader b = engine.open(write("odd-" + input.getFileName(), policy, odd), policy, OpenMode.TYPED);
             MergeJob job = NativeMerger.of(a, b).into(out).capTombstoneLiterals(true).start()) {
            job.step(Long.MAX_VALUE);
            job.finish();
        }
        try (SegmentReader r = engine.open(out, policy, OpenMode.TYPED)) {
            if (!r.verify().canonical()) {
                redundantInputs++;
            }
        }
        return out;
    }

    @ParameterizedTest
    @EnumSource(Profile.class)
    void cappedTombstonesKeepTheirInputPrefixAndStayReadable(Profile profile) throws Exception {
        Policy policy = profile.base(new Random(1));
        // The fixture of the notes: older {ab8:1, ab9:1}, newer {ab9: tombstone}: ab9 is written
        // with retained 0 because newer's ab9 was the first record of its stream.
        TreeMap<byte[], byte[]> older = new TreeMap<>(Arrays::compareUnsigned);
        older.put("ab8".getBytes(), new byte[] {1});
        older.put("ab9".getBytes(), new byte[] {1});
        TreeMap<byte[], byte[]> newer = new TreeMap<>(Arrays::compareUnsigned);
        newer.put("ab9".getBytes(), null);
        try (SegmentReader o = engine.open(write("o", policy, older), policy, OpenMode.TYPED);
             SegmentReader n = engine.open(write("n", policy, newer), policy, OpenMode.TYPED)) {
            Path out = dir.resolve("capped");
            try (MergeJob job = NativeMerger.of(o, n).into(out).capTombstoneLiterals(true).start()) {
                job.step(Long.MAX_VALUE);
                job.finish();
            }
            try (SegmentReader r = engine.open(out, policy, OpenMode.TYPED)) {
                var loc = r.recordAt(1);
                assertEquals(0, loc.retained());
                assertTrue(loc.tombstone());
                var report = r.verify();
                assertEquals(false, report.canonical());
                TreeMap<byte[], byte[]> got = read(r);
                assertEquals(2, got.size());
                assertArrayEquals(new byte[] {1}, got.get("ab8".getBytes()));
                assertEquals(null, got.get("ab9".getBytes()));
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Profile.class)
    void theOutputIsIndexedInAStoreAndAnswersThroughItsChain(Profile profile) throws Exception {
        Policy policy = profile.base(new Random(2));
        try (dev.everett.api.ObjectStore store = engine.openObjectStore(dir.resolve("store"), policy)) {
            dev.everett.api.ObjectId a = dev.everett.api.ObjectId.random();
            dev.everett.api.ObjectId b = dev.everett.api.ObjectId.random();
            for (dev.everett.api.ObjectId id : new dev.everett.api.ObjectId[] {a, b}) {
                try (SegmentWriter w = store.newSegment(id, CommonWidthRule.policy())) {
                    for (int i = 0; i < 500; i++) {
                        if (id == a || i % 3 == 0) {
                            if (id == b && i % 9 == 0) {
                                w.delete(String.format("key%05d", i).getBytes());
                            } else {
                                w.put(String.format("key%05d", i).getBytes(), new byte[] {(byte) (id == a ? 1 : 2)});
                            }
                        }
                    }
                    w.finish();
                }
            }
            dev.everett.api.ObjectId merged = dev.everett.api.ObjectId.random();
            try (MergeJob job = NativeMerger.of(store.openNative(a), store.openNative(b)).into(store.nativePath(merged)).start()) {
                job.step(Long.MAX_VALUE);
                job.finish();
            }
            dev.everett.api.IndexedSegment seg = store.indexSegment(merged);
            seg.verify();
            for (int i = 0; i < 500; i++) {
                dev.everett.api.Lookup r = seg.get(String.format("key%05d", i).getBytes());
                if (i % 9 == 0) {
                    assertEquals(dev.everett.api.Lookup.Status.TOMBSTONE, r.status(), "key " + i);
                } else {
                    assertArrayEquals(new byte[] {(byte) (i % 3 == 0 ? 2 : 1)}, r.valueBytes(), "key " + i);
                }
            }
        }
    }

    /**
     * A merge that takes its inputs' CRCs as it reads them, given an input with one flipped bit in
     * the middle, in a value (which no framing rule sees) or in a record's framing: the step that
     * finds it fails with that input's CRC mismatch, naming the file, after a split merge has
     * rolled over some outputs; closing the merge deletes them. Undamaged, the same inputs merge
     * to the bytes an unchecked merge writes.
     */
    @ParameterizedTest
    @EnumSource(Profile.class)
    void aDamagedInputCheckedAsReadFailsTheMergeNamingItsFile(Profile profile) throws Exception {
        long seed = seed();
        Random rnd = new Random(seed);
        Policy policy = profile.base(rnd).withGrammar(ValueGrammar.RAW);
        TreeMap<byte[], byte[]> older = new TreeMap<>(Arrays::compareUnsigned);
        TreeMap<byte[], byte[]> newer = new TreeMap<>(Arrays::compareUnsigned);
        for (int i = 0; i < 4000; i++) {
            byte[] key = java.nio.ByteBuffer.allocate(8).putLong(i * 7L).array();
            byte[] v = new byte[16];
            rnd.nextBytes(v);
            (i % 3 == 0 ? newer : older).put(key, v);
        }
        Path olderFile = write(profile + "-older", policy, older);
        Path newerFile = write(profile + "-newer", policy, newer);
        try (SegmentReader a = engine.open(olderFile, policy, OpenMode.TYPED);
             SegmentReader b = engine.open(newerFile, policy, OpenMode.TYPED)) {
            Path unchecked = dir.resolve(profile + "-unchecked");
            Path checked = dir.resolve(profile + "-checked");
            for (Path out : List.of(unchecked, checked)) {
                try (MergeJob job = NativeMerger.of(a, b).into(out).checkInputsAsRead(out == checked).start()) {
                    while (!job.done()) {
                        job.step(100);
                    }
                    job.finish();
                }
            }
            assertArrayEquals(Files.readAllBytes(unchecked), Files.readAllBytes(checked), profile + " seed " + seed);

            // The bit to flip: one inside the value of the middle record, or its record's first byte.
            long valueBit;
            long recordByte;
            EncodedRecords walk = EncodedRecords.of(a);
            while (walk.ordinal() < older.size() / 2) {
                walk.next();
            }
            long middle = walk.valueAt() + walk.valueLength() / 2; // past a bit-unit value's length code
            valueBit = walk.bitUnit() ? middle : 8 * middle + 1;
            recordByte = walk.recordStart();
            byte[] original = Files.readAllBytes(olderFile);
            for (long bit : new long[] {valueBit, 8 * recordByte + 7}) {
                byte[] bytes = original.clone();
                bytes[(int) (bit >>> 3)] ^= (byte) (0x80 >>> (bit & 7));
                Path damaged = dir.resolve(profile + "-damaged-" + bit);
                Files.write(damaged, bytes);
                String tag = profile + " seed " + seed + " bit " + bit;
                List<Path> published = new ArrayList<>();
                try (SegmentReader d = engine.open(damaged, policy, OpenMode.TYPED)) {
                    MergeJob job = NativeMerger.of(d, b).splitInto(2048, ordinal -> {
                        Path p = dir.resolve(profile + "-split-" + bit + "-" + ordinal);
                        published.add(p);
                        return p;
                    }).checkInputsAsRead(true).start();
                    try (job) {
                        CorruptSegmentException e = assertThrows(CorruptSegmentException.class, () -> {
                            while (!job.done()) {
                                job.step(100);
                            }
                            job.finishAll();
                        }, tag);
                        assertEquals(damaged, e.file(), tag);
                        assertTrue(e.getMessage().contains("body CRC32C mismatch"), tag + ": " + e);
                        assertTrue(published.size() > 2 && Files.exists(published.get(0)), tag + ": outputs rolled over before the failure");
                        assertThrows(IllegalStateException.class, () -> job.step(1), tag);
                    }
                }
                for (Path p : published) {
                    assertTrue(Files.notExists(p), tag + ": " + p + " left behind");
                }
            }
        }
    }

    @Test
    void unsortedInputPoisonsTheMerge() throws Exception {
        Policy policy = Policy.defaultBytes();
        TreeMap<byte[], byte[]> a = new TreeMap<>(Arrays::compareUnsigned);
        a.put("b".getBytes(), new byte[] {1});
        a.put("c".getBytes(), new byte[] {2});
        Path p = write("a", policy, a);
        byte[] bytes = Files.readAllBytes(p);
        // Record 1 is BACK 1, SUF 1, VLEN 2, 'c': make its literal 'a', below 'b'.
        int fc = 96 + 128;
        int second = fc + 6;
        assertEquals('c', bytes[second + 3]);
        bytes[second + 3] = 'a';
        Files.write(p, withRepairedCrcs(bytes));
        TreeMap<byte[], byte[]> b = new TreeMap<>(Arrays::compareUnsigned);
        b.put("z".getBytes(), new byte[] {3});
        try (SegmentReader r1 = engine.open(p, policy, OpenMode.TYPED);
             SegmentReader r2 = engine.open(write("b", policy, b), policy, OpenMode.TYPED);
             MergeJob job = NativeMerger.of(r1, r2).into(dir.resolve("x")).start()) {
            assertThrows(CorruptSegmentException.class, () -> job.step(10));
            assertThrows(IllegalStateException.class, () -> job.step(10));
            assertThrows(IllegalStateException.class, job::finish);
        }
        assertTrue(Files.notExists(dir.resolve("x")));
    }

    @ParameterizedTest
    @EnumSource(Profile.class)
    void aThrowingCallbackPoisonsAndFinishTooEarlyIsRecoverable(Profile profile) throws Exception {
        Policy policy = profile.base(new Random(3));
        TreeMap<byte[], byte[]> a = new TreeMap<>(Arrays::compareUnsigned);
        TreeMap<byte[], byte[]> b = new TreeMap<>(Arrays::compareUnsigned);
        for (int i = 0; i < 100; i++) {
            a.put(new byte[] {(byte) i}, new byte[] {1});
            if (i % 10 == 0) {
                b.put(new byte[] {(byte) i}, new byte[] {2});
            }
        }
        try (SegmentReader r1 = engine.open(write("a", policy, a), policy, OpenMode.TYPED);
             SegmentReader r2 = engine.open(write("b", policy, b), policy, OpenMode.TYPED)) {
            try (MergeJob job = NativeMerger.of(r1, r2).into(dir.resolve("ok")).start()) {
                job.step(5);
                assertThrows(IllegalStateException.class, job::finish);
                while (!job.done()) {
                    job.step(7);
                }
                assertEquals(100, job.progress().keys());
                assertEquals(110, job.progress().inputRecords());
                job.finish();
                assertThrows(IllegalStateException.class, () -> job.step(1));
                assertThrows(IllegalStateException.class, job::finish);
            }
            ValueMerger boom = (o, n) -> {
                throw new IllegalStateException("boom");
            };
            try (MergeJob job = NativeMerger.of(r1, r2).into(dir.resolve("bad")).values(boom).start()) {
                assertThrows(IllegalStateException.class, () -> job.step(1000));
                IllegalStateException after = assertThrows(IllegalStateException.class, () -> job.step(1));
                assertTrue(after.getMessage().contains("failed earlier"));
            }
            assertTrue(Files.notExists(dir.resolve("bad")));
        }
    }

    /**
     * A bit-unit input whose record 1 sorts before record 0, or repeats it: the bit at
     * {@code flip} (relative to the record's literal) is cleared in the file. "b" then "d" share
     * 5 bits and "d" adds {@code 100}: clearing its first literal bit gives 0x60 < "b", found by
     * the longer comparison. "b" then "c" share 7 bits and "c" adds {@code 1}: clearing it repeats
     * "b". Either poisons the merge with a CorruptSegmentException, and nothing is published.
     */
    @ParameterizedTest
    @EnumSource(value = Profile.class, names = {"KV02_BITS_EXP_GOLOMB", "KV02_BITS_GOLOMB", "KV03"})
    void unsortedOrRepeatedBitInputsPoisonTheMerge(Profile profile) throws Exception {
        Policy policy = profile.base(new Random(4));
        for (String second : new String[] {"d", "c"}) {
            TreeMap<byte[], byte[]> a = new TreeMap<>(Arrays::compareUnsigned);
            a.put("b".getBytes(), new byte[] {1});
            a.put(second.getBytes(), new byte[] {2});
            Path p = write("unsorted-" + second, policy, a);
            long literal;
            try (SegmentReader r = engine.open(p, policy, OpenMode.TYPED)) {
                EncodedRecords records = EncodedRecords.of(r);
                assertTrue(records.next() && records.next());
                assertEquals(second.equals("d") ? 5 : 7, records.retained(), "exact bit LCP");
                literal = records.literalAt();
            }
            byte[] bytes = Files.readAllBytes(p);
            int mask = 0x80 >>> (int) (literal & 7);
            assertTrue((bytes[(int) (literal >>> 3)] & mask) != 0, "the literal starts with a 1");
            bytes[(int) (literal >>> 3)] &= (byte) ~mask;
            Files.write(p, withRepairedCrcs(bytes));
            TreeMap<byte[], byte[]> b = new TreeMap<>(Arrays::compareUnsigned);
            b.put("z".getBytes(), new byte[] {3});
            Path out = dir.resolve("x-" + second);
            try (SegmentReader r1 = engine.open(p, policy, OpenMode.TYPED);
                 SegmentReader r2 = engine.open(write("other-" + second, policy, b), policy, OpenMode.TYPED);
                 MergeJob job = NativeMerger.of(r1, r2).into(out).start()) {
                CorruptSegmentException e = assertThrows(CorruptSegmentException.class, () -> job.step(10));
                assertTrue(e.getMessage().contains(second.equals("d") ? "sorts before" : "not greater"), e.getMessage());
                assertThrows(IllegalStateException.class, () -> job.step(10));
                assertThrows(IllegalStateException.class, job::finish);
            }
            assertTrue(Files.notExists(out));
        }
    }

    /**
     * KV02 bit keys are stored in their ordered string form, which the merger checks as it reads
     * each key (it builds none): record 1's key "c" is stored as 63 00 00; with the literal's last
     * bit set it reads 63 00 01, which no host key encodes to. The merge refuses it as the cursor
     * does, naming the rule, before anything is published.
     */
    @Test
    void aKv02BitKeyOutsideTheOrderedStringFormIsCorrupt() throws Exception {
        Policy policy = Policy.stringPolicy().withFormat(SegmentFormat.KV02);
        TreeMap<byte[], byte[]> a = new TreeMap<>(Arrays::compareUnsigned);
        a.put("b".getBytes(), new byte[] {1});
        a.put("c".getBytes(), new byte[] {2});
        Path p = write("bad-form", policy, a);
        long last;
        try (SegmentReader r = engine.open(p, policy, OpenMode.TYPED)) {
            EncodedRecords records = EncodedRecords.of(r);
            assertTrue(records.next() && records.next());
            assertEquals(7, records.retained(), "0x62 and 0x63 share 7 bits");
            assertEquals(17, records.literalLength(), "the last bit of 0x63, then the terminator 00 00");
            last = records.literalAt() + records.literalLength() - 1;
        }
        byte[] bytes = Files.readAllBytes(p);
        bytes[(int) (last >>> 3)] |= (byte) (0x80 >>> (int) (last & 7));
        Files.write(p, withRepairedCrcs(bytes));
        try (SegmentReader r = engine.open(p, policy, OpenMode.TYPED); SegmentCursor c = r.cursor()) {
            assertTrue(c.next());
            CorruptSegmentException e = assertThrows(CorruptSegmentException.class, c::next);
            assertTrue(e.getMessage().contains("ordered string form"), e.getMessage());
        }
        TreeMap<byte[], byte[]> b = new TreeMap<>(Arrays::compareUnsigned);
        b.put("a".getBytes(), new byte[] {3});
        Path out = dir.resolve("bad-form-out");
        try (SegmentReader r1 = engine.open(p, policy, OpenMode.TYPED);
             SegmentReader r2 = engine.open(write("bad-form-other", policy, b), policy, OpenMode.TYPED);
             MergeJob job = NativeMerger.of(r1, r2).into(out).start()) {
            CorruptSegmentException e = assertThrows(CorruptSegmentException.class, () -> job.step(10));
            assertTrue(e.getMessage().contains("record 1: key is not a canonical ordered string form"), e.getMessage());
            assertTrue(e.getMessage().contains(p.getFileName().toString()), e.getMessage());
        }
        assertTrue(Files.notExists(out));
    }

    /**
     * The form check against the cursor, which decodes each key whole: in KV02 bit files of long
     * keys rich in {@code 0x00} and {@code 0xFF} (so pairs fall on every position of the check's
     * eight-byte words, and across them) and of keys extended by a {@code 0x00}, one literal bit
     * at a time is flipped, half of them where a literal starts, and the checksums repaired. The
     * merge must refuse exactly the files whose walk the cursor refuses, and otherwise copy the
     * records the cursor walks.
     */
    @Test
    void literalBitFlipsInKv02BitKeysAreRefusedExactlyWhereTheCursorRefusesThem() throws Exception {
        long seed = seed();
        Random rnd = new Random(seed);
        int[] edges = {0x00, 0x00, 0x00, 0xFF, 0xFF, 0x01, 0x80, 0x7F};
        for (int file = 0; file < 4; file++) {
            Policy policy = Profile.KV02_BITS_EXP_GOLOMB.base(rnd);
            TreeMap<byte[], byte[]> records = new TreeMap<>(Arrays::compareUnsigned);
            byte[] stem = new byte[rnd.nextInt(40)];
            while (records.size() < 60) {
                byte[] k = Arrays.copyOf(stem, stem.length + rnd.nextInt(rnd.nextInt(4) == 0 ? 200 : 24));
                for (int i = stem.length; i < k.length; i++) {
                    k[i] = (byte) (rnd.nextInt(3) == 0 ? rnd.nextInt(256) : edges[rnd.nextInt(edges.length)]);
                }
                records.put(k, new byte[] {(byte) records.size()});
                if (rnd.nextInt(3) == 0) {
                    // A proper prefix just before a 0x00: its successor keeps the terminator's first byte.
                    for (int i = k.length - 1; i >= 0; i--) {
                        if (k[i] == 0) {
                            records.put(Arrays.copyOf(k, i), new byte[] {(byte) records.size()});
                            break;
                        }
                    }
                }
                if (rnd.nextInt(4) == 0) {
                    stem = Arrays.copyOf(k, Math.min(k.length, rnd.nextInt(60)));
                }
            }
            Path good = write("form-" + file, policy, records);
            List<long[]> literals = new ArrayList<>();
            try (SegmentReader r = engine.open(good, policy, OpenMode.TYPED)) {
                EncodedRecords encoded = EncodedRecords.of(r);
                while (encoded.next()) {
                    if (encoded.literalLength() > 0) {
                        literals.add(new long[] {encoded.literalAt(), encoded.literalLength()});
                    }
                }
            }
            byte[] original = Files.readAllBytes(good);
            Path empty = dir.resolve("form-empty-" + file);
            SegmentFixtures.write(empty, policy, List.of());
            int refused = 0;
            for (int trial = 0; trial < 60; trial++) {
                long[] literal = literals.get(rnd.nextInt(literals.size()));
                // Half the flips in a literal's first 16 bits, where the kept prefix meets it.
                long bit = literal[0] + (long) (rnd.nextDouble() * (rnd.nextBoolean() ? Math.min(16, literal[1]) : literal[1]));
                byte[] bytes = original.clone();
                bytes[(int) (bit >>> 3)] ^= (byte) (0x80 >>> (int) (bit & 7));
                Path p = dir.resolve("form-" + file + "-" + trial);
                Files.write(p, withRepairedCrcs(bytes));
                String where = "seed " + seed + ", file " + file + ", bit " + bit + " flipped, " + policy;
                List<Rec> walked;
                try (SegmentReader r = engine.open(p, policy, OpenMode.TYPED)) {
                    walked = NativeFuzzTest.walkOrNull(r);
                }
                Path out = dir.resolve("form-out-" + file + "-" + trial);
                try (SegmentReader r1 = engine.open(p, policy, OpenMode.TYPED);
                     SegmentReader r2 = engine.open(empty, policy, OpenMode.TYPED);
                     MergeJob job = NativeMerger.of(r1, r2).into(out).start()) {
                    while (!job.done()) {
                        job.step(7);
                    }
                    job.finish();
                } catch (CorruptSegmentException e) {
                    assertNull(walked, where + ": the merge refused records the cursor walks: " + e.getMessage());
                    assertTrue(Files.notExists(out), where);
                    refused++;
                    continue;
                }
                assertNotNull(walked, where + ": the merge took a key the cursor refuses");
                try (SegmentReader r = engine.open(out, policy, OpenMode.TYPED)) {
                    assertEquals(walked, SegmentFixtures.walk(r), where);
                }
            }
            assertTrue(refused > 0 && refused < 60, "seed " + seed + ": " + refused + " of 60 flips refused");
        }
    }

    /**
     * KV02 bit values must fill their VLEN slot: record 0's value "x" (presence bit 1, EG0(1),
     * the byte) with its presence bit cleared is an absent value followed by bits, refused as
     * the merge reads the first record, before anything is published.
     */
    @Test
    void aKv02BitValueThatDoesNotFillItsSlotIsCorrupt() throws Exception {
        Policy policy = Policy.stringPolicy().withFormat(SegmentFormat.KV02);
        TreeMap<byte[], byte[]> a = new TreeMap<>(Arrays::compareUnsigned);
        a.put("k".getBytes(), "x".getBytes());
        Path p = write("bad-value", policy, a);
        long value;
        try (SegmentReader r = engine.open(p, policy, OpenMode.TYPED)) {
            EncodedRecords records = EncodedRecords.of(r);
            assertTrue(records.next());
            assertEquals(12, records.valueLength());
            value = records.valueAt();
        }
        byte[] bytes = Files.readAllBytes(p);
        bytes[(int) (value >>> 3)] &= (byte) ~(0x80 >>> (int) (value & 7));
        Files.write(p, withRepairedCrcs(bytes));
        Path out = dir.resolve("bad-value-out");
        try (SegmentReader r1 = engine.open(p, policy, OpenMode.TYPED);
             SegmentReader r2 = engine.open(write("good", policy, a), policy, OpenMode.TYPED)) {
            CorruptSegmentException e = assertThrows(CorruptSegmentException.class, () -> NativeMerger.of(r1, r2).into(out).start());
            assertTrue(e.getMessage().contains("absent value"), e.getMessage());
        }
        assertTrue(Files.notExists(out));
    }

    /** Inputs of different policies (unit, format or backspace code) are refused before anything is written. */
    @Test
    void inputsOfDifferentPoliciesAreRefused() throws Exception {
        TreeMap<byte[], byte[]> a = new TreeMap<>(Arrays::compareUnsigned);
        a.put("k".getBytes(), new byte[] {1});
        Policy kv02Bits = Policy.stringPolicy().withFormat(SegmentFormat.KV02);
        Policy[][] pairs = {
            {Policy.defaultBytes(), kv02Bits},
            {kv02Bits, Policy.stringPolicy()},
            {Policy.stringPolicy(), Policy.stringPolicy().withBackspace(BackspaceCode.golomb(3))},
        };
        for (int i = 0; i < pairs.length; i++) {
            Path out = dir.resolve("mismatch-" + i);
            try (SegmentReader r1 = engine.open(write("m1-" + i, pairs[i][0], a), pairs[i][0], OpenMode.TYPED);
                 SegmentReader r2 = engine.open(write("m2-" + i, pairs[i][1], a), pairs[i][1], OpenMode.TYPED)) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> NativeMerger.of(r1, r2).into(out).start());
                assertTrue(e.getMessage().contains("different policies"), e.getMessage());
            }
            assertTrue(Files.notExists(out));
        }
    }

    /**
     * A forged input whose checksums hold again: readers check a native's body CRC32C before its
     * first read, so a forgery that should reach the merger's own checks must carry the CRCs of
     * its new bytes (body CRC at byte 64, then the header CRC at byte 68 over the 96-byte header
     * with its own field zeroed; see docs/format.md, "Envelope").
     */
    static byte[] withRepairedCrcs(byte[] bytes) {
        java.util.zip.CRC32C body = new java.util.zip.CRC32C();
        body.update(bytes, 96, bytes.length - 96);
        java.nio.ByteBuffer le = java.nio.ByteBuffer.wrap(bytes).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        le.putInt(64, (int) body.getValue());
        le.putInt(68, 0);
        java.util.zip.CRC32C header = new java.util.zip.CRC32C();
        header.update(bytes, 0, 96);
        le.putInt(68, (int) header.getValue());
        return bytes;
    }
}

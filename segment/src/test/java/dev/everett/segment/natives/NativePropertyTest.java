package dev.everett.segment.natives;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.api.CommonWidthRule;
import dev.everett.api.CorruptSegmentException;
import dev.everett.api.OpenMode;
import dev.everett.api.Policy;
import dev.everett.api.RecordLocation;
import dev.everett.api.SegmentCursor;
import dev.everett.api.SegmentEngine;
import dev.everett.api.SegmentFormat;
import dev.everett.api.SegmentInfo;
import dev.everett.api.SegmentReader;
import dev.everett.api.SegmentWriter;
import dev.everett.api.ValueGrammar;
import dev.everett.api.ValueWidth;
import dev.everett.api.VerifyReport;
import dev.everett.segment.EverettSegmentEngine;
import dev.everett.segment.bits.EliasFano;
import dev.everett.segment.testing.BitSegmentBytes;
import dev.everett.segment.testing.Kv02Bytes;
import dev.everett.segment.testing.Profile;
import dev.everett.segment.testing.Rec;
import dev.everett.segment.testing.RecordGen;
import dev.everett.segment.testing.Seeds;
import dev.everett.segment.testing.SegmentFixtures;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Seeded random record sets go through write → open → walk → recordAt → verify and must come back
 * exactly as generated, under many policies and common-width rules. Hand-built files check what
 * our writer never emits: conservative retention (valid, not canonical) and keys out of order
 * (corrupt). A failure prints the seed; rerun with {@code -Deverett.seed=<seed>}.
 *
 * <p>Every property runs under each {@link Profile}: byte-unit KV02, KV02 with bit units and KV03
 * (bit units with random backspace codes, EG order k or Golomb); bit-unit files are built by hand
 * with {@link BitSegmentBytes}, and KV03 also spells sort codes again (valid, not canonical).
 */
@ExtendWith(Seeds.class)
class NativePropertyTest {
    private static final int[] BLOCK_WIDTHS = {1, 2, 3, 15, 16, 64};
    private static final long[] GROUP_SIZES = {3, 7, 15, 31};
    private static final int RANDOM_CASES = 400;

    /** One randomly drawn configuration. */
    record Case(Policy policy, CommonWidthRule rule, RecordGen.Values values, int size, OpenMode mode) {
        @Override
        public String toString() {
            return "W=" + policy.blockWidth() + " K=" + policy.groupSize() + " " + policy.grammar() + " " + policy.valueWidth()
                    + " rule=" + rule.kind() + (rule.kind() == CommonWidthRule.Kind.PROMISED ? "(" + rule.width() + ")" : "")
                    + " values=" + values + " n=" + size + " open=" + mode;
        }
    }

    @ParameterizedTest
    @EnumSource(Profile.class)
    void randomRecordSetsRoundTrip(Profile profile, Random rnd, @TempDir Path dir) throws IOException {
        RecordGen gen = new RecordGen(rnd);
        for (int i = 0; i < RANDOM_CASES; i++) {
            Case c = randomCase(profile, rnd);
            List<Rec> model = gen.records(c.size(), c.values());
            try {
                roundTrip(dir, c, model);
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError("case " + i + " [" + c + "]: " + e.getMessage(), e);
            }
        }
    }

    /**
     * Sparse select groups: with one record per block (W = 1), a group of 256 entries is sparse when
     * its high positions span 4096 bits or more. Giving one whole group ~4 KiB values and every
     * other record an empty one puts most of the universe U inside that group, so its span is at
     * least about n·(its share of U) bits, well over 4096 for 5000 records.
     */
    @ParameterizedTest
    @EnumSource(Profile.class)
    void sparseEliasFanoGroupsRoundTrip(Profile profile, Random rnd, @TempDir Path dir) throws IOException {
        RecordGen gen = new RecordGen(rnd);
        for (ValueGrammar grammar : ValueGrammar.values()) {
            Policy policy = profile.withRandomBackspace(profile.base(), rnd).withBlockWidth(1).withGroupSize(GROUP_SIZES[rnd.nextInt(GROUP_SIZES.length)]).withGrammar(grammar);
            int n = 5000;
            int heavyGroup = 1 + rnd.nextInt(n / EliasFano.SAMPLE_EVERY - 2);
            List<Rec> model = new ArrayList<>(n);
            for (byte[] key : gen.keys(n)) {
                boolean heavy = model.size() / EliasFano.SAMPLE_EVERY == heavyGroup;
                model.add(new Rec(key, heavy ? gen.bytes(4000 + rnd.nextInt(100)) : new byte[0]));
            }
            Path file = dir.resolve("sparse.kv");
            SegmentFixtures.write(file, policy, model);
            try (NativeReader r = SegmentFixtures.open(file, policy)) {
                assertTrue(r.typed().directory().lengths()[Kv02Directory.SPARSE] > 0, "expected a sparse select group");
            }
            Files.delete(file);
            roundTrip(dir, new Case(policy, CommonWidthRule.policy(), RecordGen.Values.variable(grammar), n, OpenMode.TYPED), model);
        }
    }

    /** The generator keeps its promises; otherwise the round trips would prove less than they seem. */
    @Test
    void generatorDrawsTheShapesFrontCodingCaresAbout(Random rnd) {
        RecordGen gen = new RecordGen(rnd);
        List<byte[]> keys = gen.keys(3000);
        assertEquals(3000, keys.size());
        int properPrefixes = 0;
        int longestShared = 0;
        boolean unsignedMatters = false;
        for (int i = 1; i < keys.size(); i++) {
            byte[] a = keys.get(i - 1);
            byte[] b = keys.get(i);
            assertTrue(Arrays.compareUnsigned(a, b) < 0, "strictly increasing at " + i);
            int lcp = Kv02Bytes.lcp(a, b);
            properPrefixes += lcp == a.length ? 1 : 0;
            longestShared = Math.max(longestShared, lcp);
            // Signed order would disagree here: one side below 0x80, the other at or above it.
            unsignedMatters |= lcp < a.length && (a[lcp] < 0) != (b[lcp] < 0);
        }
        assertTrue(properPrefixes > 0, "some key is a proper prefix of the next");
        assertTrue(longestShared >= 128, "some shared prefix needs a two-byte count: " + longestShared);
        assertTrue(unsignedMatters, "some neighbours differ across 0x80");
        boolean empty = false;
        for (int i = 0; i < 40 && !empty; i++) {
            List<byte[]> few = gen.keys(1 + rnd.nextInt(50));
            empty = few.get(0).length == 0;
        }
        assertTrue(empty, "the empty key turns up");
        List<Rec> records = gen.records(2000, RecordGen.Values.variable(ValueGrammar.OPTIONAL));
        assertTrue(records.stream().anyMatch(Rec::tombstone), "tombstones");
        assertTrue(records.stream().anyMatch(r -> !r.tombstone() && r.value().length == 0), "empty values");
    }

    @ParameterizedTest
    @EnumSource(Profile.class)
    void emptyFileRoundTripsUnderEveryRule(Profile profile, @TempDir Path dir) throws IOException {
        for (ValueGrammar grammar : ValueGrammar.values()) {
            Policy variable = profile.base().withGrammar(grammar);
            List<Case> cases = new ArrayList<>(List.of(
                    new Case(variable, CommonWidthRule.policy(), RecordGen.Values.variable(grammar), 0, OpenMode.TYPED),
                    new Case(variable, CommonWidthRule.infer(), RecordGen.Values.variable(grammar), 0, OpenMode.TYPED),
                    new Case(variable, CommonWidthRule.promised(5), RecordGen.Values.uniform(grammar, 5), 0, OpenMode.HEADER)));
            if (profile != Profile.KV03) { // a KV03 policy cannot declare a fixed width
                cases.add(new Case(variable.withValueWidth(ValueWidth.fixed(1)), CommonWidthRule.policy(), RecordGen.Values.uniform(grammar, 1), 0, OpenMode.TYPED));
            }
            for (Case c : cases) {
                roundTrip(dir, c, List.of());
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Profile.class)
    void serviceLoaderFindsOurEngine(Profile profile, Random rnd, @TempDir Path dir) throws IOException {
        SegmentEngine engine = SegmentEngine.load();
        assertInstanceOf(EverettSegmentEngine.class, engine);

        Policy policy = profile.withRandomBackspace(profile.base(), rnd).withBlockWidth(3);
        List<Rec> model = new RecordGen(rnd).records(200, RecordGen.Values.variable(ValueGrammar.OPTIONAL));
        Path viaEngine = dir.resolve("engine.kv");
        SegmentInfo info;
        try (SegmentWriter w = engine.newWriter(viaEngine, policy, CommonWidthRule.policy())) {
            SegmentFixtures.putAll(w, model);
            assertEquals(model.size(), w.recordCount());
            info = w.finish();
        }
        assertEquals(model.size(), info.recordCount());
        try (SegmentReader r = engine.open(viaEngine, policy, OpenMode.TYPED)) {
            List<Rec> walked = new ArrayList<>();
            try (SegmentCursor c = r.cursor()) {
                while (c.next()) {
                    assertEquals(walked.size(), c.ordinal());
                    walked.add(new Rec(c.keyBytes(), c.valueBytes()));
                }
                assertFalse(c.next(), "a finished cursor stays finished");
            }
            assertEquals(model, walked);
            assertTrue(r.verify().canonical());
        }
        Path direct = dir.resolve("direct.kv");
        SegmentFixtures.write(direct, policy, model);
        assertArrayEquals(Files.readAllBytes(direct), Files.readAllBytes(viaEngine));
    }

    /**
     * Files that keep less than the whole shared prefix are valid: the walk rebuilds the right
     * keys, recordAt reports the retention as stored, and verify() says where canonical form ends.
     */
    @ParameterizedTest
    @EnumSource(Profile.class)
    void conservativeRetentionIsValidButNotCanonical(Profile profile, Random rnd, @TempDir Path dir) throws IOException {
        Policy policy = profile.base().withBlockWidth(2);
        List<Rec> fixed = List.of(Rec.of("apple", "red"), Rec.of("apricot", null), Rec.of("banana", ""), Rec.of("band", "x"));
        if (profile.bits()) {
            // Maximal retention is {0, 22, 6, 29} bits; record 2 starts block 1.
            checkConservative(dir, policy, fixed, new long[] {0, 1, 6, 29}, 1);
            checkConservative(dir, policy, fixed, new long[] {0, 22, 6, 0}, 3);
            checkConservative(dir, policy, fixed, new long[] {0, 22, 0, 29}, 2);
        } else {
            checkConservative(dir, policy, fixed, new long[] {0, 1, 0, 3}, 1);
            checkConservative(dir, policy, fixed, new long[] {0, 2, 0, 0}, 3);
        }

        RecordGen gen = new RecordGen(rnd);
        for (int i = 0; i < 60; i++) {
            Policy p = randomVariablePolicy(profile, rnd);
            List<Rec> model = gen.records(2 + rnd.nextInt(400), RecordGen.Values.variable(p.grammar()));
            long[] maximal = profile.maximalRetention(model);
            long[] retained = maximal.clone();
            int first = -1;
            for (int o = 1; o < retained.length; o++) {
                if (maximal[o] > 0 && rnd.nextInt(3) == 0) {
                    retained[o] = rnd.nextLong(maximal[o]);
                    first = first < 0 ? o : first;
                }
            }
            int at = first;
            inCase("conservative case " + i + " (W=" + p.blockWidth() + ", n=" + model.size() + ")",
                    () -> checkConservative(dir, p, model, retained, at));
        }
    }

    interface Check {
        void run() throws IOException;
    }

    /** Runs one generated case, naming it in any failure. */
    private static void inCase(String name, Check check) throws IOException {
        try {
            check.run();
        } catch (AssertionError | RuntimeException e) {
            throw new AssertionError(name + ": " + e.getMessage(), e);
        }
    }

    /**
     * KV03: a record may back up over its whole predecessor, sort code included, and spell the
     * code {@code 0} again (a "transition" to the sort it is in). Valid, keeping only the code;
     * not canonical, even where the keys share no key bits.
     */
    @Test
    void kv03RespelledSortCodesAreValidButNotCanonical(Random rnd, @TempDir Path dir) throws IOException {
        Policy policy = Profile.KV03.base().withBlockWidth(3);
        List<Rec> fixed = List.of(Rec.of("apple", "red"), new Rec(new byte[] {(byte) 0x80}, null), new Rec(new byte[] {(byte) 0x81}, new byte[0]));
        checkRespelled(dir, policy, fixed, new boolean[] {false, true, false}, 1);
        RecordGen gen = new RecordGen(rnd);
        for (int i = 0; i < 30; i++) {
            Policy p = randomVariablePolicy(Profile.KV03, rnd);
            List<Rec> model = gen.records(2 + rnd.nextInt(300), RecordGen.Values.variable(p.grammar()));
            boolean[] respell = new boolean[model.size()];
            int first = -1;
            for (int o = 1; o < model.size(); o++) {
                if (o % p.blockWidth() != 0 && rnd.nextInt(4) == 0) {
                    respell[o] = true;
                    first = first < 0 ? o : first;
                }
            }
            int at = first;
            inCase("respelled case " + i + " (W=" + p.blockWidth() + ", n=" + model.size() + ")",
                    () -> checkRespelled(dir, p, model, respell, at));
        }
    }

    /** The hand builder agrees with the writer byte for byte when it keeps the maximal prefix. */
    @ParameterizedTest
    @EnumSource(Profile.class)
    void handBuiltCanonicalFilesMatchTheWriter(Profile profile, Random rnd, @TempDir Path dir) throws IOException {
        RecordGen gen = new RecordGen(rnd);
        for (int i = 0; i < 20; i++) {
            Policy p = randomVariablePolicy(profile, rnd);
            List<Rec> model = gen.records(rnd.nextInt(300), RecordGen.Values.variable(p.grammar()));
            Path file = dir.resolve("w.kv");
            SegmentFixtures.write(file, p, model);
            assertArrayEquals(Files.readAllBytes(file), profile.build(p, model, profile.maximalRetention(model)),
                    "case " + i + " " + p + " n=" + model.size());
        }
    }

    @ParameterizedTest
    @EnumSource(Profile.class)
    void keysOutOfOrderAreCorrupt(Profile profile, Random rnd, @TempDir Path dir) throws IOException {
        Policy policy = profile.base().withBlockWidth(2);
        // Descending in the first differing byte, with canonical retention.
        checkCorrupt(dir, policy, List.of(Rec.of("b", "1"), Rec.of("a", "2")), null);
        // Unsigned order: 0x80 sorts after 0x7f, so 0x80 then 0x7f is descending.
        checkCorrupt(dir, policy, List.of(new Rec(new byte[] {(byte) 0x80}, new byte[0]), new Rec(new byte[] {0x7f}, new byte[0])), null);
        // Descending, found only by comparing past a conservative retention.
        checkCorrupt(dir, policy, List.of(Rec.of("abc", "1"), Rec.of("abb", "2")), new long[] {0, 1});
        // A duplicate spelled with a shorter retention (the canonical spelling adds no suffix).
        checkCorrupt(dir, policy, List.of(Rec.of("ab", "1"), Rec.of("ab", "2")), new long[] {0, 1});
        checkCorrupt(dir, policy, List.of(Rec.of("ab", "1"), Rec.of("ab", "2")), null);
        // A proper prefix after the longer key.
        checkCorrupt(dir, policy, List.of(Rec.of("abc", "1"), Rec.of("ab", "2")), new long[] {0, 0});
        checkCorrupt(dir, policy, List.of(Rec.of("abc", "1"), Rec.of("ab", "2")), null);
        if (profile.bits()) {
            // Descending inside a byte: 0x41 (01000001) after 0x42 (01000010) keeps 6 bits, then 0 under 1.
            checkCorrupt(dir, policy, List.of(Rec.of("B", "1"), Rec.of("A", "2")), null);
            checkCorrupt(dir, policy, List.of(Rec.of("B", "1"), Rec.of("A", "2")), new long[] {0, 3});
        }

        RecordGen gen = new RecordGen(rnd);
        for (int i = 0; i < 30; i++) {
            Policy p = randomVariablePolicy(profile, rnd);
            List<Rec> model = new ArrayList<>(gen.records(2 + rnd.nextInt(200), RecordGen.Values.variable(p.grammar())));
            int swap = rnd.nextInt(model.size() - 1);
            model.set(swap, model.set(swap + 1, model.get(swap)));
            long[] retained = profile.maximalRetention(model);
            if (rnd.nextBoolean()) {
                for (int o = 1; o < retained.length; o++) {
                    retained[o] = rnd.nextLong(retained[o] + 1);
                }
            }
            try {
                checkCorrupt(dir, p, model, retained);
            } catch (AssertionError e) {
                throw new AssertionError("swap case " + i + " (W=" + p.blockWidth() + ", swapped " + swap + "): " + e.getMessage(), e);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Profile.class)
    void recordAtRejectsOrdinalsOutsideTheFile(Profile profile, @TempDir Path dir) throws IOException {
        Path file = dir.resolve("a.kv");
        SegmentFixtures.write(file, profile.base(), WorkedExampleTest.RECORDS);
        try (NativeReader r = SegmentFixtures.open(file, profile.base())) {
            assertThrows(IndexOutOfBoundsException.class, () -> r.recordAt(-1));
            assertThrows(IndexOutOfBoundsException.class, () -> r.recordAt(4));
        }
    }

    // ----------------------------------------------------------------------------------------

    private static Case randomCase(Profile profile, Random rnd) {
        Policy policy = randomVariablePolicy(profile, rnd);
        ValueGrammar g = policy.grammar();
        boolean optional = g == ValueGrammar.OPTIONAL;
        int size = randomSize(rnd);
        OpenMode mode = rnd.nextInt(4) == 0 ? OpenMode.HEADER : OpenMode.TYPED;
        if (profile.bits()) {
            return randomBitCase(profile, policy, size, mode, rnd);
        }
        return switch (rnd.nextInt(3)) {
            case 0 -> {
                // The policy fixes the width. An OPTIONAL slot of 1 holds only tombstones and empty values.
                long width = optional ? (rnd.nextBoolean() ? 1 : 2 + rnd.nextInt(12)) : new long[] {0, 1, 2, 8, rnd.nextInt(33)}[rnd.nextInt(5)];
                CommonWidthRule rule = new CommonWidthRule[] {CommonWidthRule.policy(), CommonWidthRule.promised(width), CommonWidthRule.infer()}[rnd.nextInt(3)];
                yield new Case(policy.withValueWidth(ValueWidth.fixed(width)), rule, RecordGen.Values.uniform(g, width), size, mode);
            }
            case 1 -> {
                // Variable policy, but every value has one encoded width: promised or inferred (or ignored).
                long width = optional ? 1 + rnd.nextInt(20) : rnd.nextInt(21);
                CommonWidthRule rule = new CommonWidthRule[] {CommonWidthRule.policy(), CommonWidthRule.promised(width), CommonWidthRule.infer()}[rnd.nextInt(3)];
                yield new Case(policy, rule, RecordGen.Values.uniform(g, width), size, mode);
            }
            default -> {
                CommonWidthRule rule = rnd.nextBoolean() ? CommonWidthRule.policy() : CommonWidthRule.infer();
                yield new Case(policy, rule, RecordGen.Values.variable(g), size, mode);
            }
        };
    }

    /** Mostly small sets (where edge cases live), some up to 3000 records. */
    private static int randomSize(Random rnd) {
        int roll = rnd.nextInt(100);
        if (roll < 8) {
            return 0;
        } else if (roll < 18) {
            return 1 + rnd.nextInt(3);
        } else if (roll < 65) {
            return 4 + rnd.nextInt(97);
        } else if (roll < 92) {
            return 101 + rnd.nextInt(900);
        }
        return 1001 + rnd.nextInt(2000);
    }

    /**
     * A bit-unit case. Uniform widths come from a value byte count (the encoded width in bits
     * follows from it) or, under OPTIONAL, from tombstones alone (1 bit); an empty present value
     * ({@code 11}) and a tombstone ({@code 0}) differ in width here.
     */
    private static Case randomBitCase(Profile profile, Policy policy, int size, OpenMode mode, Random rnd) {
        ValueGrammar g = policy.grammar();
        int kind = rnd.nextInt(3);
        if (kind == 2) {
            CommonWidthRule rule = rnd.nextBoolean() ? CommonWidthRule.policy() : CommonWidthRule.infer();
            return new Case(policy, rule, RecordGen.Values.variable(g), size, mode);
        }
        RecordGen.Values values;
        long width;
        if (g == ValueGrammar.OPTIONAL && rnd.nextInt(4) == 0) {
            values = RecordGen.Values.tombstones();
            width = 1;
        } else {
            int bytes = new int[] {0, 1, 2, 8, rnd.nextInt(33)}[rnd.nextInt(5)];
            values = RecordGen.Values.present(g, bytes);
            width = profile.encodedWidth(g, new Rec(new byte[0], new byte[bytes]));
        }
        CommonWidthRule rule = new CommonWidthRule[] {CommonWidthRule.policy(), CommonWidthRule.promised(width), CommonWidthRule.infer()}[rnd.nextInt(3)];
        // KV03 policies cannot declare a fixed width: their "fixed" case is a variable policy with uniform values.
        Policy p = kind == 0 && profile != Profile.KV03 ? policy.withValueWidth(ValueWidth.fixed(width)) : policy;
        return new Case(p, rule, values, size, mode);
    }

    private static Policy randomVariablePolicy(Profile profile, Random rnd) {
        return profile.withRandomBackspace(profile.base(), rnd)
                .withBlockWidth(BLOCK_WIDTHS[rnd.nextInt(BLOCK_WIDTHS.length)])
                .withGroupSize(GROUP_SIZES[rnd.nextInt(GROUP_SIZES.length)])
                .withGrammar(rnd.nextBoolean() ? ValueGrammar.OPTIONAL : ValueGrammar.RAW);
    }

    /**
     * What the envelope must record: the decision's rules (README decision 6), from the model;
     * KV03 discovers its width under every rule (Everett's KV03 encoder), an empty KV03 file
     * records 0 or the promised width.
     */
    static long expectedCommonWidth(Policy policy, CommonWidthRule rule, List<Rec> model) {
        if (policy.valueWidth().isFixed()) {
            return policy.valueWidth().units();
        }
        Profile profile = Profile.of(policy);
        if (policy.format() == SegmentFormat.KV03) {
            long[] widths = model.stream().mapToLong(r -> profile.encodedWidth(policy.grammar(), r)).distinct().toArray();
            return widths.length == 0 ? (rule.kind() == CommonWidthRule.Kind.PROMISED ? rule.width() : 0)
                    : widths.length == 1 ? widths[0] : -1;
        }
        return switch (rule.kind()) {
            case POLICY -> -1;
            case PROMISED -> rule.width();
            case INFER -> {
                long[] widths = model.stream().mapToLong(r -> profile.encodedWidth(policy.grammar(), r)).distinct().toArray();
                yield widths.length == 0 ? 0 : widths.length == 1 ? widths[0] : -1;
            }
        };
    }

    /** Write, open, walk, address every record, verify, and write again through the segment API. */
    private static void roundTrip(Path dir, Case c, List<Rec> model) throws IOException {
        Path first = dir.resolve("first.kv");
        Path second = dir.resolve("second.kv");
        long width = expectedCommonWidth(c.policy(), c.rule(), model);
        SegmentInfo info = SegmentFixtures.write(first, c.policy(), c.rule(), model);
        assertEquals(new SegmentInfo(first.toAbsolutePath(), model.size(), Files.size(first), width), info, "segment info");
        try (NativeReader r = NativeReader.open(first, c.policy(), c.mode())) {
            assertEquals(model.size(), r.recordCount(), "record count");
            assertEquals(width, r.commonValueWidth(), "common value width");
            assertEquals(Files.size(first), r.fileBytes(), "file bytes");
            assertEquals(model, SegmentFixtures.walk(r), "walk");
            checkRecordAt(r, c.policy().grammar(), model, null);
            long blocks = Math.ceilDiv(model.size(), c.policy().blockWidth());
            assertEquals(new VerifyReport(model.size(), blocks, true, -1), r.verify(), "verify");
        }
        writeThroughSegments(second, c.policy(), c.rule(), model);
        assertArrayEquals(Files.readAllBytes(first), Files.readAllBytes(second), "a second write gave other bytes");
        Files.delete(first);
        Files.delete(second);
    }

    /**
     * Every ordinal through the block directory: key length, retention (the maximal shared prefix
     * unless {@code retained} says otherwise), suffix, tombstone flag and value.
     */
    private static void checkRecordAt(NativeReader r, ValueGrammar grammar, List<Rec> model, long[] retained) {
        Profile profile = Profile.of(r.policy());
        for (int o = 0; o < model.size(); o++) {
            Rec rec = model.get(o);
            byte[] key = rec.key();
            long keep = retained != null ? retained[o] : o == 0 ? 0 : profile.lcp(model.get(o - 1).key(), key);
            RecordLocation loc = r.recordAt(o);
            String at = "recordAt(" + o + ")";
            assertEquals(o, loc.ordinal(), at);
            assertEquals(profile.stored(key).length, loc.keyLength(), at + " key length");
            assertEquals(keep, loc.retained(), at + " retained");
            assertArrayEquals(profile.suffix(key, keep), bytes(loc.suffix()), at + " suffix");
            assertEquals(rec.tombstone(), loc.tombstone(), at + " tombstone");
            assertArrayEquals(rec.tombstone() ? new byte[0] : rec.value(), bytes(loc.value()), at + " value");
            assertTrue(grammar == ValueGrammar.OPTIONAL || !loc.tombstone(), at + " tombstone under RAW");
        }
    }

    /** The same records through put(MemorySegment, MemorySegment) and delete(MemorySegment), from off-heap slices. */
    private static void writeThroughSegments(Path file, Policy policy, CommonWidthRule rule, List<Rec> model) throws IOException {
        try (Arena arena = Arena.ofConfined(); NativeWriter w = new NativeWriter(file, policy, rule)) {
            MemorySegment buffer = arena.allocate(64);
            for (Rec r : model) {
                int k = r.key().length;
                int v = r.tombstone() ? 0 : r.value().length;
                if (buffer.byteSize() < 1 + k + v) {
                    buffer = arena.allocate(2L * (1 + k + v));
                }
                // The key starts one byte in, so the writer never sees a slice at offset 0.
                MemorySegment key = buffer.asSlice(1, k).copyFrom(MemorySegment.ofArray(r.key()));
                if (r.tombstone()) {
                    w.delete(key);
                } else {
                    w.put(key, buffer.asSlice(1 + k, v).copyFrom(MemorySegment.ofArray(r.value())));
                }
            }
            w.finish();
        }
    }

    private static void checkConservative(Path dir, Policy policy, List<Rec> model, long[] retained, long firstNonCanonical) throws IOException {
        checkHandBuilt(dir.resolve("conservative.kv"), Profile.of(policy).build(policy, model, retained), policy, model, retained, firstNonCanonical);
    }

    /** KV03 files whose {@code respell} records spell their sort code again (host retention 0). */
    private static void checkRespelled(Path dir, Policy policy, List<Rec> model, boolean[] respell, long firstNonCanonical) throws IOException {
        long[] retained = Profile.KV03.maximalRetention(model);
        for (int o = 0; o < retained.length; o++) {
            retained[o] = respell[o] ? 0 : retained[o];
        }
        checkHandBuilt(dir.resolve("respelled.kv"), BitSegmentBytes.build(policy, model, retained, respell), policy, model, retained, firstNonCanonical);
    }

    /**
     * A hand-built valid file: it walks to the model, {@code recordAt} reports the retention it was
     * built with, and {@code verify} names its first non-canonical record (-1: none).
     */
    private static void checkHandBuilt(Path file, byte[] bytes, Policy policy, List<Rec> model, long[] retained, long firstNonCanonical) throws IOException {
        Files.write(file, bytes);
        try (NativeReader r = SegmentFixtures.open(file, policy)) {
            assertEquals(model, SegmentFixtures.walk(r), "walk");
            checkRecordAt(r, policy.grammar(), model, retained);
            long blocks = Math.ceilDiv(model.size(), policy.blockWidth());
            assertEquals(new VerifyReport(model.size(), blocks, firstNonCanonical < 0, firstNonCanonical), r.verify(), "verify");
        }
        Files.delete(file);
    }

    /** The file opens (order is not a header or shape property) but walking or verifying it fails. */
    private static void checkCorrupt(Path dir, Policy policy, List<Rec> records, long[] retained) throws IOException {
        Path file = dir.resolve("disordered.kv");
        Profile profile = Profile.of(policy);
        Files.write(file, profile.build(policy, records, retained != null ? retained : profile.maximalRetention(records)));
        try (NativeReader r = SegmentFixtures.open(file, policy)) {
            assertThrows(CorruptSegmentException.class, () -> SegmentFixtures.walk(r), "walk " + records);
            assertThrows(CorruptSegmentException.class, r::verify, "verify " + records);
        }
        Files.delete(file);
    }

    private static byte[] bytes(MemorySegment s) {
        return s.toArray(ValueLayout.JAVA_BYTE);
    }
}

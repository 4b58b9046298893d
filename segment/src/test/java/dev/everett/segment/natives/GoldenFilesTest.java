package dev.everett.segment.natives;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.api.BackspaceCode;
import dev.everett.api.CommonWidthRule;
import dev.everett.api.RecordLocation;
import dev.everett.api.SegmentFormat;
import dev.everett.api.Unit;
import dev.everett.api.VerifyReport;
import dev.everett.segment.testing.GoldenFiles;
import dev.everett.segment.testing.Profile;
import dev.everett.segment.testing.Rec;
import dev.everett.segment.testing.SegmentFixtures;
import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The committed golden files (src/test/resources/golden/, listed in manifest.jsonl and described
 * in {@link GoldenFiles}) pin our writer's bytes and our reader's view of them.
 *
 * <p>To regenerate them after an intended format change, run
 * <pre>
 *   ./.ci/with-jdk25 ./mvnw -q -pl segment -am test -Dtest=GoldenFilesTest \
 *       -Deverett.golden.regenerate=true -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 * then review the diff ({@code git diff --stat segment/src/test/resources/golden}) and commit it.
 * Without the property the test only reads the committed files.
 */
public class GoldenFilesTest {
    /** Files with more records than this check recordAt on a sample of ordinals. */
    private static final int SAMPLE_ABOVE = 2_000;

    @BeforeAll
    static void regenerateIfAsked() throws IOException {
        if (Boolean.getBoolean(GoldenFiles.REGENERATE)) {
            GoldenFiles.regenerate(GoldenFiles.dir());
        }
    }

    static Stream<GoldenFiles.Golden> golden() {
        return GoldenFiles.manifest(GoldenFiles.dir()).stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("golden")
    void ourWriterReproducesTheCommittedBytes(GoldenFiles.Golden g, @TempDir Path tmp) throws IOException {
        Path dir = GoldenFiles.dir();
        Path out = tmp.resolve(g.name() + ".kv");
        var info = SegmentFixtures.write(out, g.policy(), g.rule(), GoldenFiles.readRecords(g.jsonl(dir)));
        byte[] expected = Files.readAllBytes(g.kv(dir));
        byte[] actual = Files.readAllBytes(out);
        int at = Arrays.mismatch(expected, actual);
        assertEquals(-1, at, () -> g.name() + ": first difference at byte " + at + " (sizes " + expected.length + " / " + actual.length + ")");
        assertEquals(g.records(), info.recordCount());
        assertEquals(g.bytes(), info.fileBytes());
        assertEquals(g.commonWidth(), info.commonWidth());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("golden")
    void walkingTheCommittedFileGivesTheJsonlRecords(GoldenFiles.Golden g) throws IOException {
        Path dir = GoldenFiles.dir();
        List<Rec> expected = GoldenFiles.readRecords(g.jsonl(dir));
        assertEquals(g.records(), expected.size(), "manifest record count");
        try (NativeReader r = SegmentFixtures.open(g.kv(dir), g.policy())) {
            assertEquals(g.records(), r.recordCount());
            assertEquals(g.bytes(), r.fileBytes());
            assertEquals(g.commonWidth(), r.commonValueWidth());
            List<Rec> walked = SegmentFixtures.walk(r);
            assertEquals(expected.size(), walked.size());
            for (int i = 0; i < expected.size(); i++) {
                assertEquals(expected.get(i), walked.get(i), "record " + i);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("golden")
    void verifyPassesAndReportsCanonical(GoldenFiles.Golden g) throws IOException {
        try (NativeReader r = SegmentFixtures.open(g.kv(GoldenFiles.dir()), g.policy())) {
            VerifyReport report = r.verify();
            assertEquals(g.records(), report.records());
            assertEquals((g.records() + g.policy().blockWidth() - 1) / g.policy().blockWidth(), report.blocks());
            assertTrue(report.canonical());
            assertEquals(-1, report.firstNonCanonicalRecord());
            assertEquals(g.efSparseWords(), r.typed().directory().lengths()[NativeDirectory.SPARSE] / 8);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("golden")
    void recordAtGivesEachRecordsFraming(GoldenFiles.Golden g) throws IOException {
        List<Rec> records = GoldenFiles.readRecords(g.jsonl(GoldenFiles.dir()));
        Profile profile = Profile.of(g.policy());
        try (NativeReader r = SegmentFixtures.open(g.kv(GoldenFiles.dir()), g.policy())) {
            for (int i : ordinals(records.size(), g.policy().blockWidth())) {
                RecordLocation loc = r.recordAt(i);
                Rec rec = records.get(i);
                long lcp = i == 0 ? 0 : profile.lcp(records.get(i - 1).key(), rec.key());
                String at = g.name() + " record " + i;
                assertEquals(i, loc.ordinal(), at);
                assertEquals(profile.stored(rec.key()).length, loc.keyLength(), at + " key length");
                assertEquals(lcp, loc.retained(), at + " retained prefix");
                assertArrayEquals(profile.suffix(rec.key(), lcp), loc.suffix().toArray(ValueLayout.JAVA_BYTE), at + " suffix");
                assertEquals(rec.tombstone(), loc.tombstone(), at + " tombstone");
                assertArrayEquals(rec.tombstone() ? new byte[0] : rec.value(), loc.value().toArray(ValueLayout.JAVA_BYTE), at + " value");
            }
        }
    }

    /** Every ordinal, or for big files every block's first and last record, the ends, and a stride. */
    private static List<Integer> ordinals(int n, int w) {
        if (n <= SAMPLE_ABOVE) {
            return java.util.stream.IntStream.range(0, n).boxed().toList();
        }
        TreeSet<Integer> picked = new TreeSet<>();
        for (int i = 0; i < n; i += 97) {
            picked.add(i);
        }
        for (int b = 0; b < n; b += w * 17) {
            picked.add(b);
            picked.add(Math.min(n - 1, b + w - 1));
        }
        for (int i = Math.max(0, n - 2 * w); i < n; i++) {
            picked.add(i);
        }
        return List.copyOf(picked);
    }

    @Test
    void manifestAndDirectoryAgree() throws IOException {
        Path dir = GoldenFiles.dir();
        TreeSet<String> listed = new TreeSet<>();
        for (var g : GoldenFiles.manifest(dir)) {
            assertTrue(listed.add(g.name()), "duplicate manifest entry " + g.name());
            assertTrue(Files.isRegularFile(g.kv(dir)), g.name() + ".kv missing");
            assertTrue(Files.isRegularFile(g.jsonl(dir)), g.name() + ".jsonl missing");
        }
        TreeSet<String> present = new TreeSet<>();
        try (Stream<Path> files = Files.list(dir)) {
            files.map(p -> p.getFileName().toString()).filter(f -> f.endsWith(".kv") || f.endsWith(".jsonl"))
                    .filter(f -> !f.equals(GoldenFiles.MANIFEST))
                    .forEach(f -> present.add(f.replaceFirst("\\.(kv|jsonl)$", "")));
        }
        assertEquals(listed, present, "every golden file has a manifest line and vice versa");
        for (String required : List.of("empty", "single-empty-key", "tombstones", "empty-values", "w1", "w2",
                "shared-prefix-10k", "fixed-width", "inferred-common-width", "promised-width",
                "kv03-empty", "kv03-worked-example", "kv03-tombstones", "kv03-w1", "kv03-w2", "kv03-egk3", "kv03-golomb5",
                "kv03-shared-prefix-10k", "kv02bit-empty", "kv02bit-worked-example", "kv02bit-tombstones", "kv02bit-w1",
                "kv02bit-w2", "kv02bit-egk2", "kv02bit-golomb3", "kv02bit-shared-prefix-10k")) {
            assertTrue(listed.contains(required), required);
        }
    }

    /** Regenerating must reproduce the committed records (the generators are deterministic). */
    @ParameterizedTest(name = "{0}")
    @MethodSource("golden")
    void generatorStillProducesTheCommittedRecords(GoldenFiles.Golden g) throws IOException {
        List<Rec> generated = GoldenFiles.generate(g.name());
        assertNotNull(generated, "the generator table has no entry " + g.name());
        assertEquals(Files.readString(g.jsonl(GoldenFiles.dir())), GoldenFiles.toJsonLines(generated));
    }

    @Test
    void theCommittedFilesCoverTheShapesTheyClaim() throws IOException {
        Path dir = GoldenFiles.dir();
        for (var g : GoldenFiles.manifest(dir)) {
            List<Rec> recs = GoldenFiles.readRecords(g.jsonl(dir));
            String shape = g.name().replaceFirst("^(kv03|kv02bit)-", "");
            if (g.name().startsWith("kv03-")) {
                assertEquals(SegmentFormat.KV03, g.policy().format(), g.name());
            }
            if (g.name().startsWith("kv02bit-")) {
                assertEquals(List.of(Unit.BIT, SegmentFormat.KV02), List.of(g.policy().unit(), g.policy().format()), g.name());
            }
            switch (shape) {
                // KV03 always records the width its values have: 0 without records (Everett's encoder).
                case "empty" -> assertEquals(List.of(g.policy().format() == SegmentFormat.KV03 ? 0L : -1L, 0),
                        List.of(g.commonWidth(), recs.size()));
                case "empty-infer" -> assertEquals(List.of(0L, 0), List.of(g.commonWidth(), recs.size()));
                case "single-empty-key" -> assertEquals(0, recs.getFirst().key().length);
                case "tombstones", "golomb5" -> assertTrue(recs.stream().anyMatch(Rec::tombstone) && recs.stream().anyMatch(x -> !x.tombstone()));
                case "empty-values" -> assertTrue(recs.stream().allMatch(x -> x.value() != null && x.value().length == 0));
                case "fixed-width", "promised-width" -> assertTrue(g.commonWidth() > 0);
                case "inferred-common-width" -> assertEquals(g.policy().unit() == Unit.BIT ? 38 : 5, g.commonWidth());
                case "egk3", "egk2" -> assertEquals(new BackspaceCode(BackspaceCode.EXP_GOLOMB, shape.equals("egk3") ? 3 : 2), g.policy().backspace());
                case "golomb3" -> assertEquals(BackspaceCode.golomb(3), g.policy().backspace());
                case "shared-prefix-10k" -> {
                    assertEquals(10_000, recs.size());
                    byte[] prefix = Arrays.copyOf(recs.getFirst().key(), GoldenFiles.SHARED_PREFIX);
                    assertTrue(recs.stream().allMatch(x -> Arrays.equals(prefix, Arrays.copyOf(x.key(), GoldenFiles.SHARED_PREFIX))));
                }
                case "sparse-ef" -> assertTrue(g.efSparseWords() > 0);
                case "w1", "w2" -> assertEquals(shape.equals("w1") ? 1 : 2, g.policy().blockWidth());
                default -> { }
            }
        }
        assertFalse(GoldenFiles.manifest(dir).isEmpty());
    }

    /** The infer rule only changes the bytes when the widths agree; otherwise it writes what the policy rule writes. */
    @Test
    void inferWithMixedWidthsWritesThePolicyRuleBytes(@TempDir Path tmp) throws IOException {
        Path dir = GoldenFiles.dir();
        var g = GoldenFiles.manifest(dir).stream().filter(x -> x.name().equals("tombstones")).findFirst().orElseThrow();
        Path out = tmp.resolve("infer.kv");
        SegmentFixtures.write(out, g.policy(), CommonWidthRule.infer(), GoldenFiles.readRecords(g.jsonl(dir)));
        assertEquals(HexFormat.of().formatHex(Files.readAllBytes(g.kv(dir))), HexFormat.of().formatHex(Files.readAllBytes(out)));
    }
}

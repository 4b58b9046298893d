package dev.everett.segment.objects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.api.CatalogRef;
import dev.everett.api.CorruptSegmentException;
import dev.everett.api.FilterPolicy;
import dev.everett.api.IndexedSegment;
import dev.everett.api.KeyRange;
import dev.everett.api.Lookup;
import dev.everett.api.ObjectId;
import dev.everett.api.ObjectStoreOptions;
import dev.everett.api.OpenMode;
import dev.everett.api.RecordLocation;
import dev.everett.api.SeekCursor;
import dev.everett.segment.bits.BitStrings;
import dev.everett.segment.encoded.EncodedRecords;
import dev.everett.segment.io.Envelope;
import dev.everett.segment.natives.CorruptionTest;
import dev.everett.segment.natives.NativeReader;
import dev.everett.segment.testing.GoldenFiles;
import dev.everett.segment.testing.Rec;
import dev.everett.segment.testing.SegmentFixtures;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Checked reads: a damaged native (one flipped bit anywhere in its body, or any truncation) read
 * in the default mode through every read path gives either the right answer or a
 * {@link CorruptSegmentException} naming the file; never a wrong answer. The paths: a single
 * file's cursor, its records by ordinal and its encoded records (the merger's input), and, inside
 * an object store, {@code get} of every key and the segment's seek cursor over a segment indexed
 * before the damage (the chain open itself is probed by the index corruption tests).
 *
 * <p>Every bit of the body is flipped for bodies up to {@value #FULL_SWEEP_BITS} bits; larger
 * ones get {@value #SAMPLED_BITS} bits drawn with a fixed seed (overridable with
 * {@code -Deverett.seed=N}) plus the body's first and last bits, so the suite stays within a few
 * seconds; the tests with checking off (which walk every path of every damaged copy) always
 * sample. With checking off the same damage may answer wrongly: those tests say so in their names.
 */
class CheckedReadsTest {
    private static final long FULL_SWEEP_BITS = 2048;
    private static final int SAMPLED_BITS = 96;
    private static final int SAMPLED_TRUNCATIONS = 48;
    private static final long SEED = Long.parseLong(System.getProperty("everett.seed", "").isBlank() ? "20261203" : System.getProperty("everett.seed").trim());
    private static final HexFormat HEX = HexFormat.of();

    static Stream<GoldenFiles.Golden> golden() {
        return GoldenFiles.manifest(GoldenFiles.dir()).stream();
    }

    /** A few golden files of different units, formats and grammars for the store paths. */
    static Stream<GoldenFiles.Golden> storeGolden() {
        List<String> names = List.of("k7", "fixed-width", "kv02bit-tombstones", "kv02bit-golomb3", "kv03-egk3");
        return golden().filter(g -> names.contains(g.name()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("golden")
    void damagedNativesNeverAnswerWronglyThroughAnySingleFilePath(GoldenFiles.Golden g, @TempDir(factory = CorruptionTest.MemoryTempDir.class) Path tmp)
            throws IOException {
        Outcome o = sweepFile(g, tmp, true);
        assertEquals(List.of(), o.problems);
        assertEquals(List.of(), o.wrong, "checked reads answered wrongly");
        assertTrue(o.cases > 0);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("golden")
    void damagedNativesMayAnswerWronglyWithChecksumsOffButFailOnlyAsCorruption(GoldenFiles.Golden g,
            @TempDir(factory = CorruptionTest.MemoryTempDir.class) Path tmp) throws IOException {
        Outcome o = sweepFile(g, tmp, false);
        assertEquals(List.of(), o.problems);
    }

    /**
     * A walk that takes the body CRC as it goes (a merge input read {@code checkedAsRead}, its
     * reader's own check off) reads a sound file's records exactly as the plain walk does, and
     * never reaches the end of a damaged one: every single-bit flip of the body and every
     * truncation fails, as corruption naming the file, by the walk's end at the latest.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("golden")
    void damagedNativesWalkedWithTheirCrcTakenAsReadNeverReachTheirEnd(GoldenFiles.Golden g,
            @TempDir(factory = CorruptionTest.MemoryTempDir.class) Path tmp) throws IOException {
        Path source = g.kv(GoldenFiles.dir());
        try (NativeReader clean = SegmentFixtures.open(source, g.policy())) {
            List<String> plain = encodedLines(EncodedRecords.of(clean));
            List<String> checked = encodedLines(EncodedRecords.checkedAsRead(clean));
            assertEquals(plain, checked);
        }
        byte[] original = Files.readAllBytes(source);
        Path file = tmp.resolve(g.name() + ".kv");
        List<String> problems = new ArrayList<>();
        int cases = 0;
        for (byte[] b : damaged(original, g.name(), FULL_SWEEP_BITS)) {
            cases++;
            Files.write(file, b);
            String what = g.name() + " case " + cases + " (" + b.length + " bytes)";
            try (NativeReader r = NativeReader.open(file, g.policy(), OpenMode.HEADER, false)) {
                encodedLines(EncodedRecords.checkedAsRead(r));
                problems.add(what + ": the walk reached its end");
            } catch (CorruptSegmentException e) {
                if (!file.equals(e.file())) {
                    problems.add(what + ": names " + e.file());
                }
            } catch (RuntimeException | IOException e) {
                problems.add(what + ": " + e);
            }
        }
        assertEquals(List.of(), problems);
        assertTrue(cases > 0);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("storeGolden")
    void damagedNativesInAStoreNeverAnswerWronglyThroughGetOrCursor(GoldenFiles.Golden g, @TempDir(factory = CorruptionTest.MemoryTempDir.class) Path tmp)
            throws IOException {
        for (FilterPolicy filters : List.of(FilterPolicy.none(), FilterPolicy.bloom(10))) {
            Outcome o = sweepStore(g, tmp.resolve("f" + filters.bitsPerKey()), ObjectStoreOptions.defaults().withFilters(filters), true);
            assertEquals(List.of(), o.problems, "filters " + filters);
            assertEquals(List.of(), o.wrong, "checked reads answered wrongly, filters " + filters);
        }
    }

    /**
     * With checking off, a store answers some payload flips wrongly (why checking is the default);
     * damage it does catch may be blamed on the index that routed into the damaged native.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("storeGolden")
    void damagedNativesInAStoreMayAnswerWronglyWithChecksumsOff(GoldenFiles.Golden g, @TempDir(factory = CorruptionTest.MemoryTempDir.class) Path tmp)
            throws IOException {
        Outcome o = sweepStore(g, tmp, ObjectStoreOptions.defaults().withVerifyChecksums(false), false);
        assertEquals(List.of(), o.problems);
        assertTrue(g.records() == 0 || !o.wrong.isEmpty(), "no flip answered wrongly with checking off: the checked test would be vacuous");
    }

    // ---------------------------------------------------------------------------------------

    /** What a sweep saw: cases run, answers that differed, and failures other than corruption naming the file. */
    private record Outcome(int cases, List<String> wrong, List<String> problems) {
    }

    /** The damaged copies of one file: single-bit flips of the body (all or sampled) and truncations. */
    private static List<byte[]> damaged(byte[] original, String name, long fullSweepBits) {
        List<byte[]> out = new ArrayList<>();
        long first = 8L * Envelope.BYTES;
        long bits = 8L * original.length - first;
        Random r = new Random(SEED ^ name.hashCode());
        long[] positions;
        if (bits <= fullSweepBits) {
            positions = new long[(int) bits];
            for (int i = 0; i < bits; i++) {
                positions[i] = first + i;
            }
        } else {
            positions = new long[SAMPLED_BITS + 2];
            positions[0] = first;
            positions[1] = first + bits - 1;
            for (int i = 2; i < positions.length; i++) {
                positions[i] = first + (long) (r.nextDouble() * bits);
            }
        }
        for (long bit : positions) {
            byte[] b = original.clone();
            b[(int) (bit >>> 3)] ^= (byte) (1 << (bit & 7));
            out.add(b);
        }
        int truncations = Math.min(original.length, SAMPLED_TRUNCATIONS);
        for (int i = 0; i < truncations; i++) {
            int len = truncations == original.length ? i : i == 0 ? original.length - 1 : r.nextInt(original.length);
            out.add(Arrays.copyOf(original, len));
        }
        return out;
    }

    private static Outcome sweepFile(GoldenFiles.Golden g, Path tmp, boolean verifyChecksums) throws IOException {
        Path source = g.kv(GoldenFiles.dir());
        List<String> expected;
        try (NativeReader clean = SegmentFixtures.open(source, g.policy())) {
            expected = paths(clean);
        }
        Path file = tmp.resolve(g.name() + ".kv");
        return sweep(g.name(), file, Files.readAllBytes(source), verifyChecksums, expected, file::equals, () -> {
            try (NativeReader r = NativeReader.open(file, g.policy(), OpenMode.HEADER, verifyChecksums)) {
                return paths(r);
            }
        });
    }

    /** Reads every path of the damaged object and renders the answers. */
    private interface Reads {
        List<String> read() throws IOException;
    }

    /**
     * Writes each damaged copy of {@code original} to {@code file} and reads it: an answer that
     * differs from {@code expected} is wrong; a {@code CorruptSegmentException} must name a file
     * {@code blamed} accepts; any other exception is a problem. Puts the original back.
     */
    private static Outcome sweep(String name, Path file, byte[] original, boolean checked, List<String> expected,
            java.util.function.Predicate<Path> blamed, Reads reads) throws IOException {
        List<String> wrong = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        int cases = 0;
        for (byte[] b : damaged(original, name, checked ? FULL_SWEEP_BITS : 0)) {
            cases++;
            Files.write(file, b);
            String what = name + " case " + cases + " (" + b.length + " bytes)";
            try {
                List<String> got = reads.read();
                if (!got.equals(expected)) {
                    wrong.add(what + ": " + firstDifference(expected, got));
                }
            } catch (CorruptSegmentException e) {
                if (!blamed.test(e.file())) {
                    problems.add(what + ": names " + e.file() + ", not the damaged file " + file);
                }
            } catch (RuntimeException | IOException e) {
                problems.add(what + ": " + e);
            }
            if (problems.size() > 8) {
                break;
            }
        }
        Files.write(file, original);
        return new Outcome(cases, wrong, problems);
    }

    /** Each read path of a single file, rendered as lines: the cursor, records by ordinal, encoded records. */
    private static List<String> paths(NativeReader r) {
        List<String> lines = new ArrayList<>();
        for (Rec rec : SegmentFixtures.walk(r)) {
            lines.add("cursor " + rec);
        }
        for (long i = 0; i < r.recordCount(); i++) {
            RecordLocation loc = r.recordAt(i);
            lines.add("recordAt " + loc.ordinal() + " " + loc.keyLength() + " " + loc.retained() + " "
                    + HEX.formatHex(loc.suffix().toArray(ValueLayout.JAVA_BYTE)) + " "
                    + (loc.tombstone() ? "∅" : HEX.formatHex(loc.value().toArray(ValueLayout.JAVA_BYTE))));
        }
        lines.addAll(encodedLines(EncodedRecords.of(r)));
        return lines;
    }

    /** The encoded records of a walk to its end, rendered as lines. */
    private static List<String> encodedLines(EncodedRecords e) {
        List<String> lines = new ArrayList<>();
        while (e.next()) {
            lines.add("encoded " + e.ordinal() + " " + e.retained() + " " + span(e, e.literalAt(), e.literalLength()) + " "
                    + (e.tombstone() ? "∅" : span(e, e.valueAt(), e.valueLength())));
        }
        return lines;
    }

    /** The units of an encoded span, bit or byte, as hex. */
    private static String span(EncodedRecords e, long at, long length) {
        MemorySegment s = e.source();
        if (!e.bitUnit()) {
            return HEX.formatHex(s.asSlice(at, length).toArray(ValueLayout.JAVA_BYTE));
        }
        byte[] bits = new byte[(int) ((length + 7) / 8)];
        BitStrings.copy(s, at, bits, 0, length);
        return length + ":" + HEX.formatHex(bits);
    }

    private static String firstDifference(List<String> expected, List<String> got) {
        for (int i = 0; i < Math.min(expected.size(), got.size()); i++) {
            if (!expected.get(i).equals(got.get(i))) {
                return "expected " + expected.get(i) + ", got " + got.get(i);
            }
        }
        return expected.size() + " lines expected, " + got.size() + " read";
    }

    /**
     * Indexes the golden native in a store, then for each damaged copy of the native opens a fresh
     * store and asks {@code get} of every key and a full cursor walk of the segment. With
     * {@code nativeBlamed} a refusal must name the damaged native, else any file of the store.
     */
    private static Outcome sweepStore(GoldenFiles.Golden g, Path dir, ObjectStoreOptions options, boolean nativeBlamed) throws IOException {
        Path root = dir.resolve("store");
        List<Rec> records = GoldenFiles.readRecords(g.jsonl(GoldenFiles.dir()));
        ObjectId id = ObjectId.random();
        CatalogRef head;
        Path file;
        List<String> expected;
        try (MappedObjectStore store = new MappedObjectStore(root, g.policy(), options)) {
            file = store.nativePath(id);
            Files.copy(g.kv(GoldenFiles.dir()), file);
            head = store.indexSegment(id).head();
            expected = storePaths(store.openSegment(head), records);
        }
        return sweep(g.name(), file, Files.readAllBytes(file), options.verifyChecksums(), expected,
                nativeBlamed ? file::equals : p -> p.startsWith(root), () -> {
                    try (MappedObjectStore store = new MappedObjectStore(root, g.policy(), options)) {
                        return storePaths(store.openSegment(head), records);
                    }
                });
    }

    /** {@code get} of every key, then the seek cursor from first to last, as lines. */
    private static List<String> storePaths(IndexedSegment s, List<Rec> records) {
        List<String> lines = new ArrayList<>();
        for (Rec r : records) {
            Lookup l = s.get(r.key());
            lines.add("get " + HEX.formatHex(r.key()) + " " + l.status() + " " + (l.found() ? HEX.formatHex(l.valueBytes()) : ""));
        }
        try (SeekCursor c = s.cursor(KeyRange.all())) {
            for (c.seekToFirst(); c.valid(); c.next()) {
                lines.add("cursor " + HEX.formatHex(c.keyBytes()) + " " + (c.isTombstone() ? "∅" : HEX.formatHex(c.valueBytes())));
            }
        }
        return lines;
    }
}

package dev.everett.segment.natives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.api.BackspaceCode;
import dev.everett.api.CommonWidthRule;
import dev.everett.api.CorruptSegmentException;
import dev.everett.api.OpenMode;
import dev.everett.api.Policy;
import dev.everett.api.PolicyMismatchException;
import dev.everett.api.RecordLocation;
import dev.everett.api.SegmentFormat;
import dev.everett.api.Unit;
import dev.everett.api.ValueWidth;
import dev.everett.api.VerifyReport;
import dev.everett.segment.io.Envelope;
import dev.everett.segment.io.LittleEndian;
import dev.everett.segment.testing.GoldenFiles;
import dev.everett.segment.testing.Profile;
import dev.everett.segment.testing.Rec;
import dev.everett.segment.testing.SegmentFixtures;
import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.AnnotatedElementContext;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.io.TempDirFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Damaged copies of the golden files. A reader may answer queries from a damaged file it has
 * not fully checked, but it must never fail with anything but {@link CorruptSegmentException}
 * (no IndexOutOfBounds, IllegalArgument, IllegalState, NullPointer…), and {@code verify()} must
 * refuse every damaged file. Each case goes through open (TYPED), recordAt, a full walk and
 * verify(), in that order, every stage run even after an earlier one refused.
 *
 * <p>Plain damage (a changed byte, a truncation, trailing bytes) is always caught at the latest
 * by a checksum. "CRC-repaired" damage recomputes both checksums, so only the format rules can
 * catch it; such a file may also be a different valid file, in which case everything must work
 * on it, recordAt must agree with the walk, and a file verify() calls canonical must be exactly
 * what our writer makes of its records.
 *
 * <p>Random choices use one seed, named in every failure; rerun with {@code -Deverett.seed=N}.
 * Golden files over {@value #SAMPLE_ABOVE} bytes are probed at sampled positions.
 */
public class CorruptionTest {
    private static final int SAMPLE_ABOVE = 20_000;
    private static final long SEED = seed();
    /** At most this many failure lines are kept per test; the count is always reported. */
    private static final int REPORTED = 25;

    private static long seed() {
        String s = System.getProperty("everett.seed", "");
        long seed = s.isBlank() ? new Random().nextLong() : Long.parseLong(s.trim());
        return seed;
    }

    static Stream<GoldenFiles.Golden> golden() {
        return GoldenFiles.manifest(GoldenFiles.dir()).stream();
    }

    /** A seeded generator per test and golden file, so one file's cases do not shift another's. */
    private static Random random(String test, GoldenFiles.Golden g) {
        return new Random(SEED ^ (test + "/" + g.name()).hashCode() * 0x9E3779B97F4A7C15L);
    }

    // ---------------------------------------------------------------------------------------
    // Plain damage: must always be refused.

    @ParameterizedTest(name = "{0}")
    @MethodSource("golden")
    void everySingleByteChangeIsRefused(GoldenFiles.Golden g, @TempDir(factory = MemoryTempDir.class) Path tmp) throws IOException {
        Prober p = new Prober(g, tmp);
        for (int at : p.positions(random("flip", g))) {
            for (int xor : new int[] {0xFF, 0x01}) {
                byte[] b = p.original.clone();
                b[at] ^= (byte) xor;
                p.expectRefused(b, "xor 0x" + Integer.toHexString(xor) + " @" + at);
            }
        }
        p.report();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("golden")
    void everyTruncationIsRefused(GoldenFiles.Golden g, @TempDir(factory = MemoryTempDir.class) Path tmp) throws IOException {
        Prober p = new Prober(g, tmp);
        for (int length : p.truncations(random("truncate", g))) {
            p.expectRefused(Arrays.copyOf(p.original, length), "truncated to " + length);
        }
        p.report();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("golden")
    void trailingBytesAreRefused(GoldenFiles.Golden g, @TempDir(factory = MemoryTempDir.class) Path tmp) throws IOException {
        Prober p = new Prober(g, tmp);
        for (int extra : new int[] {1, 7, 8, 16, 4096}) {
            for (byte fill : new byte[] {0, (byte) 0xFF}) {
                byte[] b = Arrays.copyOf(p.original, p.original.length + extra);
                Arrays.fill(b, p.original.length, b.length, fill);
                p.expectRefused(b, extra + " trailing bytes of 0x" + Integer.toHexString(fill & 0xFF));
                // Also with the envelope's extent and total size made to agree: the directory must object.
                LittleEndian.putU64(b, 48, u64(b, 48) + extra);
                LittleEndian.putU64(b, 80, u64(b, 80) + extra);
                p.expectRefused(withCrcs(b), extra + " trailing bytes of 0x" + Integer.toHexString(fill & 0xFF) + ", envelope sizes and CRCs fixed");
            }
        }
        p.report();
    }

    // ---------------------------------------------------------------------------------------
    // CRC-repaired damage: refused by a format rule, or a different valid file.

    @ParameterizedTest(name = "{0}")
    @MethodSource("golden")
    void crcRepairedByteChanges(GoldenFiles.Golden g, @TempDir(factory = MemoryTempDir.class) Path tmp) throws IOException {
        Prober p = new Prober(g, tmp);
        Random r = random("repaired-bytes", g);
        int[] xors = {0x01, 0}; // 0: a random non-zero xor
        for (int at : p.positions(random("repaired-positions", g))) {
            if (at >= Envelope.HEADER_CRC_OFFSET && at < Envelope.HEADER_CRC_OFFSET + 4) {
                continue; // repairing the header CRC would undo the change
            }
            for (int xor : xors) {
                int x = xor != 0 ? xor : 1 + r.nextInt(255);
                byte[] b = p.original.clone();
                b[at] ^= (byte) x;
                p.expectRefusedOrValid(repair(b, at), "xor 0x" + Integer.toHexString(x) + " @" + at + ", CRCs repaired", at < Envelope.BYTES);
            }
        }
        p.report();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("golden")
    void crcRepairedRandomMutations(GoldenFiles.Golden g, @TempDir(factory = MemoryTempDir.class) Path tmp) throws IOException {
        Prober p = new Prober(g, tmp);
        Random r = random("repaired-random", g);
        int cases = p.large ? 200 : 500;
        for (int c = 0; c < cases; c++) {
            byte[] b = p.original.clone();
            StringBuilder what = new StringBuilder("CRC-repaired");
            int lowest = mutate(r, b, what);
            boolean bodyCrcTouched = false;
            for (int i = 64; i < 68; i++) {
                bodyCrcTouched |= b[i] != p.original[i];
            }
            b = repair(b, bodyCrcTouched ? Envelope.BODY_CRC_OFFSET : Envelope.BYTES);
            if (Arrays.equals(b, p.original)) {
                c--; // the mutation changed nothing (a byte set to itself, equal bytes swapped): draw again
                continue;
            }
            p.expectRefusedOrValid(b, what.toString(), lowest < Envelope.BYTES);
        }
        p.report();
    }

    /** Every 8-byte header and directory field set to values near the edges of what it may hold. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("golden")
    void crcRepairedFieldValues(GoldenFiles.Golden g, @TempDir(factory = MemoryTempDir.class) Path tmp) throws IOException {
        Prober p = new Prober(g, tmp);
        List<Integer> fields = new ArrayList<>(List.of(24, 32, 40, 48, 56, 72, 80, 88));
        for (int off = Envelope.BYTES + 8; off < Envelope.BYTES + p.directoryBytes(); off += 8) {
            fields.add(off);
        }
        for (int field : fields) {
            long old = u64(p.original, field);
            for (long v : new long[] {0, 1, 8, old - 1, old + 1, old - 8, old + 8, old * 2, old >>> 1, old + p.original.length,
                    1L << 32, 1L << 56, Long.MAX_VALUE, Long.MIN_VALUE, -1}) {
                if (v == old) {
                    continue;
                }
                byte[] b = p.original.clone();
                LittleEndian.putU64(b, field, v);
                p.expectRefusedOrValid(repair(b, field), "u64 @" + field + " := " + Long.toUnsignedString(v) + ", CRCs repaired", field < Envelope.BYTES);
            }
        }
        p.report();
    }

    /**
     * One random mutation: a byte set, a bit flipped, a few bytes in a window, a varint-shaped
     * byte, an aligned u64 set to an edge value, or two bytes swapped. Never touches the header
     * CRC (bytes 68–71), which the caller recomputes. Returns the lowest position changed.
     */
    private static int mutate(Random r, byte[] b, StringBuilder what) {
        int n = b.length;
        // Four in five mutations land in the body, where only the format rules can catch them.
        int at = n > Envelope.BYTES && r.nextInt(5) != 0 ? Envelope.BYTES + r.nextInt(n - Envelope.BYTES) : r.nextInt(Math.min(n, Envelope.BYTES));
        if (at >= 68 && at < 72) {
            at = 72;
        }
        int lowest = at;
        switch (r.nextInt(6)) {
            case 0 -> {
                b[at] = (byte) r.nextInt(256);
                what.append(" set @").append(at);
            }
            case 1 -> {
                b[at] ^= (byte) (1 << r.nextInt(8));
                what.append(" bit flip @").append(at);
            }
            case 2 -> {
                int k = 2 + r.nextInt(3);
                for (int i = 0; i < k; i++) {
                    int p = Math.min(n - 1, at + r.nextInt(16));
                    if (p < 68 || p >= 72) {
                        b[p] = (byte) r.nextInt(256);
                    }
                }
                what.append(" ").append(k).append(" bytes from @").append(at);
            }
            case 3 -> {
                int[] shapes = {0x00, 0x01, 0x7F, 0x80, 0x81, 0xFF};
                b[at] = (byte) shapes[r.nextInt(shapes.length)];
                what.append(" varint-shaped byte @").append(at);
            }
            case 4 -> {
                int aligned = at & ~7;
                if (aligned + 8 <= n && (aligned + 8 <= 68 || aligned >= 72)) {
                    long[] edges = {0, 1, -1, Long.MAX_VALUE, 1L << 32, u64(b, aligned) + 1, u64(b, aligned) - 1, r.nextLong()};
                    LittleEndian.putU64(b, aligned, edges[r.nextInt(edges.length)]);
                    lowest = aligned;
                }
                what.append(" u64 @").append(aligned);
            }
            default -> {
                if (at + 1 < n && at + 1 != 68) {
                    byte t = b[at];
                    b[at] = b[at + 1];
                    b[at + 1] = t;
                }
                what.append(" swap @").append(at);
            }
        }
        return lowest;
    }

    // ---------------------------------------------------------------------------------------
    // Magic and policy.

    @Test
    void dietMagicIsRefusedEvenWithValidChecksums(@TempDir(factory = MemoryTempDir.class) Path tmp) throws IOException {
        for (var g : GoldenFiles.manifest(GoldenFiles.dir())) {
            byte[] b = Files.readAllBytes(g.kv(GoldenFiles.dir()));
            System.arraycopy("DIET.KV\0".getBytes(StandardCharsets.US_ASCII), 0, b, 0, 8);
            Path file = tmp.resolve(g.name() + ".kv");
            Files.write(file, withCrcs(b));
            var e = assertThrows(CorruptSegmentException.class, () -> NativeReader.open(file, g.policy(), OpenMode.TYPED).close());
            assertEquals(0, e.offset(), g.name());
            assertTrue(e.rule().contains("DIET"), e.rule());
        }
    }

    @Test
    void anotherPolicyOnAValidFileIsAMismatchNotCorruption() throws IOException {
        Path dir = GoldenFiles.dir();
        for (var g : GoldenFiles.manifest(dir)) {
            Policy p = g.policy();
            List<Object[]> others = new ArrayList<>();
            others.add(new Object[] {p.withBlockWidth(p.blockWidth() + 1), "block width W"});
            others.add(new Object[] {p.withGroupSize(p.groupSize() == 7 ? 15 : 7), "group size K"});
            // KV02 in either unit, so that a fixed width (which KV03 refuses) carries over.
            others.add(new Object[] {p.unit() == Unit.BYTE ? p.withUnit(Unit.BIT, BackspaceCode.expGolomb(0), SegmentFormat.KV02) : p.withUnit(Unit.BYTE, BackspaceCode.VARINT), "unit"});
            if (p.unit() == Unit.BIT) {
                others.add(new Object[] {p.withBackspace(p.backspace().code() == BackspaceCode.GOLOMB ? BackspaceCode.expGolomb(0) : BackspaceCode.golomb(2)), "backspace code"});
                if (p.format() == SegmentFormat.KV03 || !p.valueWidth().isFixed()) { // KV03 takes no fixed width
                    others.add(new Object[] {p.withFormat(p.format() == SegmentFormat.KV03 ? SegmentFormat.KV02 : SegmentFormat.KV03), "segment format"});
                }
            }
            if (p.valueWidth().isFixed()) {
                others.add(new Object[] {p.withValueWidth(ValueWidth.variable()), "value width"});
                others.add(new Object[] {p.withValueWidth(ValueWidth.fixed(p.valueWidth().units() + 1)), "value width"});
            } else if (p.format() != SegmentFormat.KV03) {
                others.add(new Object[] {p.withValueWidth(ValueWidth.fixed(Math.max(1, g.commonWidth()))), "value width"});
            }
            for (Object[] o : others) {
                Policy other = (Policy) o[0];
                for (OpenMode mode : OpenMode.values()) {
                    var e = assertThrows(PolicyMismatchException.class, () -> NativeReader.open(g.kv(dir), other, mode).close(),
                            () -> g.name() + " opened with " + other);
                    assertEquals(o[1], e.field(), g.name());
                }
            }
        }
    }

    // ---------------------------------------------------------------------------------------
    // Helpers.

    /**
     * Damaged copies are written tens of thousands of times, and the canonical-rewrite check runs
     * our writer, which forces its file to disk: use a memory file system when there is one.
     */
    public static final class MemoryTempDir implements TempDirFactory {
        @Override
        public Path createTempDirectory(AnnotatedElementContext element, ExtensionContext context) throws IOException {
            Path shm = Path.of("/dev/shm");
            return Files.isDirectory(shm) && Files.isWritable(shm)
                    ? Files.createTempDirectory(shm, "everett-corruption-")
                    : Files.createTempDirectory("everett-corruption-");
        }
    }

    /** Recomputes the body CRC (unless the change hit it) and then the header CRC. */
    private static byte[] repair(byte[] b, int changedAt) {
        if (changedAt < Envelope.BODY_CRC_OFFSET || changedAt >= Envelope.BODY_CRC_OFFSET + 4) {
            return withCrcs(b);
        }
        return withHeaderCrc(b);
    }

    /** Stores the body CRC32C at 64–67, then the header CRC32C at 68–71, as a writer does. */
    public static byte[] withCrcs(byte[] b) {
        if (b.length < Envelope.BYTES) {
            return b;
        }
        CRC32C body = new CRC32C();
        body.update(b, Envelope.BYTES, b.length - Envelope.BYTES);
        LittleEndian.putU32(b, Envelope.BODY_CRC_OFFSET, body.getValue());
        return withHeaderCrc(b);
    }

    static byte[] withHeaderCrc(byte[] b) {
        LittleEndian.putU32(b, Envelope.HEADER_CRC_OFFSET, 0);
        CRC32C header = new CRC32C();
        header.update(b, 0, Envelope.BYTES);
        LittleEndian.putU32(b, Envelope.HEADER_CRC_OFFSET, header.getValue());
        return b;
    }

    public static long u64(byte[] b, int off) {
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = (v << 8) | (b[off + i] & 0xFF);
        }
        return v;
    }

    /** The three ways a probe can end. */
    enum Outcome { CORRUPT, MISMATCH, VALID }

    /**
     * Runs damaged copies of one golden file through the reader, one temporary file rewritten
     * per case, and collects every wrong behaviour instead of stopping at the first.
     */
    static final class Prober {
        final GoldenFiles.Golden golden;
        final byte[] original;
        final boolean large;
        private final Path file;
        private final Path rewrites;
        private final NativeDirectory directory;
        private final List<String> failures = new ArrayList<>();
        private Throwable firstFailure;
        private int failureCount;
        private int cases;
        private int valid;
        /** Rewrites left for valid mutants that differ only inside the FC section (mostly changed values). */
        private int fcRewrites = 20;

        Prober(GoldenFiles.Golden g, Path tmp) throws IOException {
            this.golden = g;
            this.original = Files.readAllBytes(g.kv(GoldenFiles.dir()));
            this.large = original.length > SAMPLE_ABOVE;
            this.file = tmp.resolve("case.kv");
            this.rewrites = Files.createDirectories(tmp.resolve("rewrites"));
            try (NativeReader r = SegmentFixtures.open(g.kv(GoldenFiles.dir()), g.policy())) {
                this.directory = r.typed().directory();
            }
        }

        int directoryBytes() {
            return directory.bytes();
        }

        /** Every byte position, or for a large file the envelope, directory, section edges and random ones. */
        List<Integer> positions(Random r) {
            TreeSet<Integer> at = new TreeSet<>();
            if (!large) {
                for (int i = 0; i < original.length; i++) {
                    at.add(i);
                }
                return List.copyOf(at);
            }
            for (int i = 0; i < Envelope.BYTES + directory.bytes() + 64; i++) {
                at.add(i);
            }
            for (int s = 0; s < directory.offsets().length; s++) {
                long start = Envelope.BYTES + directory.offsets()[s];
                long end = start + directory.lengths()[s];
                for (long i = start - 8; i < start + 8; i++) {
                    at.add((int) i);
                }
                for (long i = end - 8; i < end + 8; i++) {
                    at.add((int) i);
                }
            }
            for (int i = 0; i < 300; i++) {
                at.add(r.nextInt(original.length));
            }
            at.removeIf(i -> i < 0 || i >= original.length);
            return List.copyOf(at);
        }

        /** Every shorter length, or for a large file the structural edges and a few dozen random ones. */
        List<Integer> truncations(Random r) {
            TreeSet<Integer> at = new TreeSet<>();
            if (!large) {
                for (int i = 0; i < original.length; i++) {
                    at.add(i);
                }
                return List.copyOf(at);
            }
            for (int i : new int[] {0, 1, 8, 64, 68, 72, 95, 96, 97, 100, 223, 224, 225}) {
                at.add(i);
            }
            for (int s = 0; s < directory.offsets().length; s++) {
                long start = Envelope.BYTES + directory.offsets()[s];
                at.add((int) start - 1);
                at.add((int) start);
                at.add((int) start + 1);
            }
            for (int i = 1; i <= 8; i++) {
                at.add(original.length - i);
            }
            for (int i = 0; i < 30; i++) {
                at.add(r.nextInt(original.length));
            }
            at.removeIf(i -> i < 0 || i >= original.length);
            return List.copyOf(at);
        }

        /** Plain damage: the file must be refused. */
        void expectRefused(byte[] bytes, String what) throws IOException {
            Outcome o = probe(bytes, what, false);
            if (o == Outcome.VALID) {
                fail(what, new AssertionError("a damaged file passed verify()"));
            }
        }

        /** CRC-repaired damage: refused, or (header changes only) a policy mismatch, or a valid file. */
        void expectRefusedOrValid(byte[] bytes, String what, boolean headerChanged) throws IOException {
            probe(bytes, what, headerChanged);
        }

        /**
         * Open, recordAt, walk, verify. Returns the outcome, or null after recording a failure.
         * Every stage runs even when an earlier one refused, so each gets to see the damage.
         */
        private Outcome probe(byte[] bytes, String what, boolean mayMismatch) throws IOException {
            cases++;
            // A bit-unit file whose directory magic now names the other format (KV02 ↔ KV03) belongs to another policy.
            mayMismatch |= golden.policy().unit() == Unit.BIT && bytes.length >= Envelope.BYTES + 4
                    && !Arrays.equals(bytes, Envelope.BYTES, Envelope.BYTES + 4, original, Envelope.BYTES, Envelope.BYTES + 4);
            Files.write(file, bytes);
            NativeReader reader;
            try {
                reader = NativeReader.open(file, golden.policy(), OpenMode.TYPED);
            } catch (CorruptSegmentException e) {
                return Outcome.CORRUPT;
            } catch (PolicyMismatchException e) {
                if (mayMismatch) {
                    return Outcome.MISMATCH;
                }
                fail(what + " [open]", e);
                return null;
            } catch (RuntimeException | Error e) {
                fail(what + " [open]", e);
                return null;
            }
            String stage = "recordAt";
            try (reader) {
                boolean refused = false;
                List<RecordLocation> located = new ArrayList<>();
                try {
                    for (long i : ordinals(reader.recordCount())) {
                        located.add(reader.recordAt(i));
                    }
                } catch (CorruptSegmentException e) {
                    refused = true;
                }
                stage = "walk";
                List<Rec> walked = null;
                try {
                    walked = SegmentFixtures.walk(reader);
                } catch (CorruptSegmentException e) {
                    refused = true;
                }
                stage = "verify";
                VerifyReport report;
                try {
                    report = reader.verify();
                } catch (CorruptSegmentException e) {
                    return Outcome.CORRUPT;
                }
                stage = "checks of a valid file";
                if (refused) {
                    fail(what, new AssertionError("verify() passed but recordAt or the walk refused the file"));
                    return null;
                }
                checkValid(reader, located, walked, report, what);
                return Outcome.VALID;
            } catch (RuntimeException | Error e) {
                fail(what + " [" + stage + "]", e);
                return null;
            }
        }

        /** The file passed verify(): its queries must agree, and a canonical file must be our writer's output. */
        private void checkValid(NativeReader reader, List<RecordLocation> located, List<Rec> walked, VerifyReport report, String what)
                throws IOException {
            valid++;
            if (walked.size() != reader.recordCount() || report.records() != reader.recordCount()) {
                fail(what, new AssertionError("walk, verify and envelope disagree on the record count"));
                return;
            }
            List<Long> ordinals = ordinals(reader.recordCount());
            Profile profile = Profile.of(golden.policy());
            for (int j = 0; j < located.size(); j++) {
                RecordLocation loc = located.get(j);
                Rec rec = walked.get(Math.toIntExact(ordinals.get(j)));
                byte[] suffix = loc.suffix().toArray(ValueLayout.JAVA_BYTE);
                byte[] value = loc.value().toArray(ValueLayout.JAVA_BYTE);
                boolean same = loc.keyLength() == profile.stored(rec.key()).length && loc.retained() >= 0 && loc.retained() <= profile.keyUnits(rec.key())
                        && Arrays.equals(suffix, profile.suffix(rec.key(), loc.retained()))
                        && loc.tombstone() == rec.tombstone() && Arrays.equals(value, rec.tombstone() ? new byte[0] : rec.value());
                if (!same) {
                    fail(what, new AssertionError("recordAt(" + ordinals.get(j) + ") disagrees with the walk on a valid file"));
                    return;
                }
            }
            if (!report.canonical()) {
                return; // valid conservative retention: not what our writer emits, nothing to compare
            }
            if (onlyInsideFc(Files.readAllBytes(file)) && fcRewrites-- <= 0) {
                return; // enough of these; a change outside the FC section is always compared
            }
            Policy p = golden.policy();
            long cw = reader.commonValueWidth();
            CommonWidthRule rule = cw >= 0 && !p.valueWidth().isFixed() ? CommonWidthRule.promised(cw) : CommonWidthRule.policy();
            if (p.format() == SegmentFormat.KV03 && NativePropertyTest.expectedCommonWidth(p, rule, walked) != cw) {
                return; // valid, but KV03 writers record the width the values have: nothing to compare
            }
            Path out = rewrites.resolve("rewrite.kv");
            SegmentFixtures.write(out, p, rule, walked);
            byte[] rewritten = Files.readAllBytes(out);
            byte[] mine = Files.readAllBytes(file);
            if (!Arrays.equals(rewritten, mine)) {
                fail(what, new AssertionError("verify() called the file canonical, but rewriting its records differs at byte "
                        + Arrays.mismatch(rewritten, mine)));
            }
        }

        /** True if the file differs from the original only in the FC section (and the checksums). */
        private boolean onlyInsideFc(byte[] mine) {
            if (mine.length != original.length) {
                return false;
            }
            long fcStart = Envelope.BYTES + directory.offsets()[NativeDirectory.FC];
            long fcEnd = fcStart + directory.lengths()[NativeDirectory.FC];
            for (int i = 0; i < mine.length; i++) {
                boolean crc = i >= Envelope.BODY_CRC_OFFSET && i < Envelope.HEADER_CRC_OFFSET + 4;
                if (mine[i] != original[i] && !crc && (i < fcStart || i >= fcEnd)) {
                    return false;
                }
            }
            return true;
        }

        /** All ordinals of a small file; for a large one the ends, block edges and an even spread. */
        private List<Long> ordinals(long count) {
            TreeSet<Long> o = new TreeSet<>();
            long cap = Math.min(count, 1L << 20); // a damaged header cannot make us loop forever
            if (!large) {
                for (long i = 0; i < cap; i++) {
                    o.add(i);
                }
                return List.copyOf(o);
            }
            long w = golden.policy().blockWidth();
            for (long i : new long[] {0, 1, w - 1, w, w + 1, count / 2, count - 2, count - 1}) {
                o.add(i);
            }
            for (long i = 0; i < 32; i++) {
                o.add(count * i / 32);
            }
            o.removeIf(i -> i < 0 || i >= count);
            return List.copyOf(o);
        }

        private void fail(String what, Throwable t) {
            failureCount++;
            if (firstFailure == null) {
                firstFailure = t;
            }
            if (failures.size() < REPORTED) {
                StackTraceElement top = t.getStackTrace().length > 0 ? t.getStackTrace()[0] : null;
                failures.add(golden.name() + " " + what + ": " + t + (top == null ? "" : " at " + top));
            }
        }

        /** Fails the test with every recorded failure, the first one's stack trace as the cause. */
        void report() {
            // A valid mutant is one the writer's own rules cannot tell from an original; every
            // damaged copy must be caught or be one, and at least one case must run.
            assertTrue(cases > 0 && valid <= cases, golden.name() + ": " + valid + " valid mutants of " + cases + " cases");
            if (failureCount > 0) {
                AssertionError e = new AssertionError(failureCount + " of " + cases + " cases misbehaved (seed " + SEED + "):\n  "
                        + String.join("\n  ", failures));
                e.initCause(firstFailure);
                throw e;
            }
        }
    }
}

package dev.everett.segment.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.segment.io.Envelope;
import dev.everett.segment.io.LittleEndian;
import dev.everett.segment.natives.CorruptionTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Damaged copies of every golden IX03 index file, each put in place of the original inside its
 * chain and run through {@link IndexProbe}: open the chain from its head, query every key and
 * many misses, verify.
 *
 * <p><b>Plain damage</b> (one byte xor 0xFF or 0x01 at every position, every truncation) must
 * be refused with {@link dev.everett.api.CorruptSegmentException} at open, at a query or by
 * {@code verify()}, never with another exception and <em>never after a wrong answer</em>: a
 * changed byte always breaks a CRC, and {@link IndexReader#open} checks the body CRC of index
 * files, so plain damage never reaches a query.
 *
 * <p><b>CRC-repaired damage</b> recomputes both checksums, so only the format rules and
 * {@link Catalog#verify()} (which rebuilds each index from its native and targets and compares
 * bytes) can catch it. Queries may answer differently from the model, but may only fail with
 * {@code CorruptSegmentException}; {@code verify()} must refuse every such file, since a file
 * that differs from the rebuild is not the canonical index of its chain. A header change may
 * instead give {@link dev.everett.api.PolicyMismatchException} at open (W, K, unit, widths).
 *
 * <p>Index files over {@value #SAMPLE_ABOVE} bytes are probed at the envelope, the directory,
 * the section edges and sampled positions (with a sample of each Elias–Fano section); chains
 * with many keys are asked an even sample of {@value #QUERIES} queries, and in the large chain
 * (sparse-route) only the two large indexes are damaged, at fewer positions. Random choices use a fixed seed, overridable with
 * {@code -Deverett.seed=N}.
 */
class IndexCorruptionTest {
    private static final int SAMPLE_ABOVE = 1_100;
    private static final int QUERIES = 400;
    private static final long SEED = Long.parseLong(System.getProperty("everett.seed", "").isBlank() ? "20260916" : System.getProperty("everett.seed").trim());
    private static final int REPORTED = 25;
    /**
     * At most one CRC-repaired case in this many per index file may answer some query wrongly
     * before {@code verify()} refuses it (measured: at most 4%, 55 of 1,386 in k7-partial-A).
     */
    private static final long WRONG_BEFORE_VERIFY_ONE_IN = 12;
    /** Failure lines kept per kind of failure. */
    private static final int EXAMPLES = 5;

    /**
     * Chains with more native records than this are large: each probe verifies thousands of
     * records, so only their indexes of at least {@value #LARGE_INDEX} bytes (in sparse-route: the
     * terminal B and R1 with its sparse Elias–Fano group) are damaged, at fewer positions.
     */
    private static final long LARGE_CHAIN = 5_000;
    private static final long LARGE_INDEX = 20_000;

    static Stream<Arguments> indexes() {
        List<Arguments> out = new ArrayList<>();
        for (GoldenIndexFiles.Chain c : GoldenIndexFiles.chains(GoldenIndexFiles.dir())) {
            boolean large = large(c);
            for (GoldenIndexFiles.Obj o : c.indexes()) {
                if (!large || o.bytes() >= LARGE_INDEX) {
                    out.add(Arguments.of(c, o));
                }
            }
        }
        return out.stream();
    }

    static boolean large(GoldenIndexFiles.Chain c) {
        return c.records().values().stream().mapToLong(List::size).sum() > LARGE_CHAIN;
    }

    // ---------------------------------------------------------------------------------------
    // Plain damage.

    @ParameterizedTest(name = "{1}")
    @MethodSource("indexes")
    void everySingleByteChangeIsRefusedBeforeAnyWrongAnswer(GoldenIndexFiles.Chain chain, GoldenIndexFiles.Obj index,
                                                            @TempDir(factory = CorruptionTest.MemoryTempDir.class) Path tmp) throws IOException {
        Cases cases = new Cases(chain, index, tmp);
        for (int at : cases.positions(new Random(SEED ^ index.file().hashCode()))) {
            for (int xor : new int[] {0xFF, 0x01}) {
                byte[] b = cases.original.clone();
                b[at] ^= (byte) xor;
                cases.expectRefused(b, "xor 0x" + Integer.toHexString(xor) + " @" + at);
            }
        }
        cases.report();
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("indexes")
    void everyTruncationIsRefused(GoldenIndexFiles.Chain chain, GoldenIndexFiles.Obj index,
                                  @TempDir(factory = CorruptionTest.MemoryTempDir.class) Path tmp) throws IOException {
        Cases cases = new Cases(chain, index, tmp);
        for (int length : cases.truncations(new Random(SEED ^ 7L * index.file().hashCode()))) {
            cases.expectRefused(Arrays.copyOf(cases.original, length), "truncated to " + length);
        }
        cases.report();
    }

    // ---------------------------------------------------------------------------------------
    // CRC-repaired damage.

    @ParameterizedTest(name = "{1}")
    @MethodSource("indexes")
    void crcRepairedByteChangesAreRefusedByVerify(GoldenIndexFiles.Chain chain, GoldenIndexFiles.Obj index,
                                                  @TempDir(factory = CorruptionTest.MemoryTempDir.class) Path tmp) throws IOException {
        Cases cases = new Cases(chain, index, tmp);
        Random r = new Random(SEED ^ 31L * index.file().hashCode());
        for (int at : cases.positions(new Random(SEED ^ index.file().hashCode()))) {
            if (at >= Envelope.BODY_CRC_OFFSET && at < Envelope.HEADER_CRC_OFFSET + 4) {
                continue; // repairing the checksums would undo the change
            }
            // xor 0x01 everywhere; a random non-zero xor as well at every other position (not in the large chain).
            int random = 1 + r.nextInt(255);
            for (int xor : cases.large || (at & 1) != 0 ? new int[] {0x01} : new int[] {0x01, random}) {
                byte[] b = cases.original.clone();
                b[at] ^= (byte) xor;
                cases.expectRepairedRefused(CorruptionTest.withCrcs(b), "xor 0x" + Integer.toHexString(xor) + " @" + at + ", CRCs repaired", at < Envelope.BYTES);
            }
        }
        cases.report();
    }

    /** Every u64 field of the envelope and the directory (and every section descriptor) set to edge values. */
    @ParameterizedTest(name = "{1}")
    @MethodSource("indexes")
    void crcRepairedFieldValues(GoldenIndexFiles.Chain chain, GoldenIndexFiles.Obj index,
                                @TempDir(factory = CorruptionTest.MemoryTempDir.class) Path tmp) throws IOException {
        Cases cases = new Cases(chain, index, tmp);
        List<Integer> fields = new ArrayList<>(List.of(24, 32, 40, 48, 56, 72, 80, 88));
        for (int off = Envelope.BYTES + 8; off < Envelope.BYTES + IndexDirectory.BYTES; off += 8) {
            fields.add(off);
        }
        for (int field : fields) {
            long old = CorruptionTest.u64(cases.original, field);
            for (long v : new long[] {0, 1, 2, 8, old - 1, old + 1, old - 8, old + 8, old * 2, old >>> 1, 1L << 32, 1L << 56,
                    Long.MAX_VALUE, -1}) {
                if (v == old) {
                    continue;
                }
                byte[] b = cases.original.clone();
                LittleEndian.putU64(b, field, v);
                cases.expectRepairedRefused(CorruptionTest.withCrcs(b), "u64 @" + field + " := " + Long.toUnsignedString(v) + ", CRCs repaired",
                        field < Envelope.BYTES);
            }
        }
        cases.report();
    }

    /** Random multi-byte damage in the body: set bytes, flipped bits, swapped bytes, aligned u64 edge values. */
    @ParameterizedTest(name = "{1}")
    @MethodSource("indexes")
    void crcRepairedRandomMutations(GoldenIndexFiles.Chain chain, GoldenIndexFiles.Obj index,
                                    @TempDir(factory = CorruptionTest.MemoryTempDir.class) Path tmp) throws IOException {
        Cases cases = new Cases(chain, index, tmp);
        Random r = new Random(SEED ^ 17L * index.file().hashCode());
        for (int c = 0; c < 100; c++) {
            byte[] b = cases.original.clone();
            String what = mutate(r, b);
            if (Arrays.equals(b, cases.original)) {
                c--;
                continue;
            }
            cases.expectRepairedRefused(CorruptionTest.withCrcs(b), what + ", CRCs repaired", false);
        }
        cases.report();
    }

    private static String mutate(Random r, byte[] b) {
        int n = b.length - Envelope.BYTES;
        int at = Envelope.BYTES + r.nextInt(n);
        int changes = 1 + r.nextInt(3);
        StringBuilder what = new StringBuilder();
        for (int i = 0; i < changes; i++) {
            int p = i == 0 ? at : Envelope.BYTES + r.nextInt(n);
            switch (r.nextInt(4)) {
                case 0 -> {
                    b[p] = (byte) r.nextInt(256);
                    what.append(" set @").append(p);
                }
                case 1 -> {
                    b[p] ^= (byte) (1 << r.nextInt(8));
                    what.append(" bit @").append(p);
                }
                case 2 -> {
                    int q = Math.min(b.length - 1, p + 1 + r.nextInt(8));
                    byte t = b[p];
                    b[p] = b[q];
                    b[q] = t;
                    what.append(" swap @").append(p).append('/').append(q);
                }
                default -> {
                    int aligned = Envelope.BYTES + ((p - Envelope.BYTES) & ~7);
                    if (aligned + 8 <= b.length) {
                        long[] edges = {0, 1, -1, CorruptionTest.u64(b, aligned) + 1, CorruptionTest.u64(b, aligned) - 1, r.nextLong()};
                        LittleEndian.putU64(b, aligned, edges[r.nextInt(edges.length)]);
                    }
                    what.append(" u64 @").append(aligned);
                }
            }
        }
        return what.toString().trim();
    }

    // ---------------------------------------------------------------------------------------
    // Natives in a chain: checked before their first read by default, so no wrong answer.

    /**
     * A flipped bit in a native's payload breaks no framing rule in many places, but with checked
     * reads (the default) no query reads the body before its CRC32C has held: every flip either
     * leaves every answer right or is refused with {@code CorruptSegmentException} naming the
     * file, and {@code verify()} refuses every flip. Every bit of every native after the
     * envelope is flipped (the envelope's own flips are the header CRC's, covered elsewhere).
     */
    @Test
    void nativeBitFlipsInAChainGiveNoWrongAnswerWithCheckedReads(@TempDir(factory = CorruptionTest.MemoryTempDir.class) Path tmp)
            throws IOException {
        NativeFlips flips = nativeFlips(tmp, true);
        assertEquals(List.of(), flips.problems);
        assertEquals(List.of(), flips.wrong, "checked reads answered wrongly");
        assertTrue(flips.cases > 1000, "cases " + flips.cases);
    }

    /**
     * With checking off ({@code verifyChecksums = false}) a payload flip may answer wrongly before
     * {@code verify()} refuses it; what must hold is only that nothing but
     * {@code CorruptSegmentException} is thrown and that {@code verify()} refuses every flip. The
     * bound pins that wrong answers do happen here, so the checked test above is not vacuous.
     */
    @Test
    void nativeBitFlipsWithChecksumsOffMayAnswerWronglyButVerifyRefusesThem(@TempDir(factory = CorruptionTest.MemoryTempDir.class) Path tmp)
            throws IOException {
        NativeFlips flips = nativeFlips(tmp, false);
        assertEquals(List.of(), flips.problems);
        assertTrue(!flips.wrong.isEmpty() && flips.wrong.size() < flips.cases,
                "wrong answers " + flips.wrong.size() + " of " + flips.cases);
    }

    /** Truncating any native of the chain to any shorter length is refused at open, naming the file. */
    @Test
    void truncatedNativesInAChainAreRefusedNamingTheFile(@TempDir(factory = CorruptionTest.MemoryTempDir.class) Path tmp) throws IOException {
        GoldenIndexFiles.Chain chain = workedExample();
        IndexProbe probe = new IndexProbe(chain, tmp, Integer.MAX_VALUE);
        List<String> problems = new ArrayList<>();
        int cases = 0;
        for (GoldenIndexFiles.Obj o : chain.objects()) {
            byte[] original = Files.readAllBytes(GoldenIndexFiles.dir().resolve(o.file()));
            for (int len = 0; len < original.length; len++) {
                IndexProbe.Result res = probe.run(o, java.util.Arrays.copyOf(original, len));
                cases++;
                if (res.refusedAt() != IndexProbe.Stage.OPEN || res.unexpected() != null || !res.wrong().isEmpty()) {
                    problems.add(o + " truncated to " + len + ": refused at " + res.refusedAt() + ", " + res.unexpected() + ", " + res.wrong());
                }
                if (problems.size() > 8) {
                    break;
                }
            }
        }
        assertEquals(List.of(), problems);
        assertTrue(cases > 100, "cases " + cases);
    }

    private static GoldenIndexFiles.Chain workedExample() {
        return GoldenIndexFiles.chains(GoldenIndexFiles.dir()).stream()
                .filter(c -> c.name().equals("worked-example")).findFirst().orElseThrow();
    }

    /** What the native flips of the worked-example chain did. */
    private record NativeFlips(int cases, List<String> problems, List<String> wrong) {
    }

    private static NativeFlips nativeFlips(Path tmp, boolean verifyChecksums) throws IOException {
        GoldenIndexFiles.Chain chain = workedExample();
        List<String> problems = new ArrayList<>();
        List<String> wrong = new ArrayList<>();
        int cases = 0;
        IndexProbe probe = new IndexProbe(chain, tmp, Integer.MAX_VALUE, verifyChecksums);
        for (GoldenIndexFiles.Obj o : chain.objects()) {
            if (o.kind() != GoldenIndexFiles.Kind.NATIVE) {
                continue;
            }
            byte[] original = Files.readAllBytes(GoldenIndexFiles.dir().resolve(o.file()));
            for (long bit = 8L * Envelope.BYTES; bit < 8L * original.length; bit++) {
                byte[] b = original.clone();
                b[(int) (bit >>> 3)] ^= (byte) (1 << (bit & 7));
                IndexProbe.Result res = probe.run(o, b);
                cases++;
                String what = o + " bit " + bit;
                if (res.unexpected() != null) {
                    problems.add(what + " [" + res.where() + "]: " + res.unexpected());
                } else if (res.verified()) {
                    problems.add(what + ": verify() passed");
                }
                if (!res.wrong().isEmpty()) {
                    wrong.add(what + ": " + res.wrong().get(0) + " (refused at " + res.refusedAt() + ")");
                }
            }
        }
        return new NativeFlips(cases, problems, wrong);
    }

    // ---------------------------------------------------------------------------------------
    // Helpers.

    /** The damaged copies of one index file, probed in its chain; failures are collected, not thrown one by one. */
    private static final class Cases {
        final GoldenIndexFiles.Obj index;
        final byte[] original;
        final IndexProbe probe;
        /** In a large chain: fewer positions, one xor. */
        final boolean large;
        private final IndexDirectory directory;
        private final List<String> failures = new ArrayList<>();
        private Throwable firstUnexpected;
        private int failureCount;
        private int count;
        private final Map<IndexProbe.Stage, Integer> stages = new EnumMap<>(IndexProbe.Stage.class);
        private int mismatches;
        private int wrongBeforeRefusal;
        /** Failures by kind (exception class, or the broken rule), for the summary line. */
        private final Map<String, Integer> kinds = new java.util.TreeMap<>();

        Cases(GoldenIndexFiles.Chain chain, GoldenIndexFiles.Obj index, Path tmp) throws IOException {
            this.index = index;
            this.original = Files.readAllBytes(GoldenIndexFiles.dir().resolve(index.file()));
            this.probe = new IndexProbe(chain, tmp, QUERIES);
            this.large = large(chain);
            try (IndexReader r = IndexReader.open(GoldenIndexFiles.dir().resolve(index.file()), chain.policy())) {
                this.directory = r.directory();
            }
        }

        /** Every position, or for a larger file the envelope, the directory, section edges and a sample. */
        List<Integer> positions(Random r) {
            TreeSet<Integer> at = new TreeSet<>();
            if (original.length <= SAMPLE_ABOVE) {
                for (int i = 0; i < original.length; i++) {
                    at.add(i);
                }
                return List.copyOf(at);
            }
            for (int i = 0; i < Envelope.BYTES + IndexDirectory.BYTES; i++) {
                at.add(i);
            }
            int edge = large ? 2 : 8;
            for (int s = 0; s < IndexDirectory.SECTIONS; s++) {
                long start = Envelope.BYTES + directory.offsets()[s];
                long end = start + directory.lengths()[s];
                for (long i = start - edge / 2; i < start + edge; i++) {
                    at.add((int) i);
                }
                for (long i = end - edge; i < end + edge / 2; i++) {
                    at.add((int) i);
                }
            }
            // Elias–Fano sections (where a sparse group lives) get their own sample.
            for (int s : new int[] {1, 2, 3, 4, 6, 7, 8, 9}) {
                for (int i = 0; i < 12 && directory.lengths()[s] > 0; i++) {
                    at.add((int) (Envelope.BYTES + directory.offsets()[s] + r.nextLong(directory.lengths()[s])));
                }
            }
            for (int i = 0; i < (large ? 60 : 250); i++) {
                at.add(r.nextInt(original.length));
            }
            at.removeIf(i -> i < 0 || i >= original.length);
            return List.copyOf(at);
        }

        /** Every shorter length, or for a larger file the header, the directory, section edges and a sample. */
        List<Integer> truncations(Random r) {
            TreeSet<Integer> at = new TreeSet<>();
            if (original.length <= SAMPLE_ABOVE) {
                for (int i = 0; i < original.length; i++) {
                    at.add(i);
                }
                return List.copyOf(at);
            }
            for (int i = 0; i <= Envelope.BYTES + IndexDirectory.BYTES; i++) {
                at.add(i);
            }
            for (int s = 0; s < IndexDirectory.SECTIONS; s++) {
                long start = Envelope.BYTES + directory.offsets()[s];
                for (long i = start - 1; i <= start + 1; i++) {
                    at.add((int) i);
                }
            }
            for (int i = 1; i <= 16; i++) {
                at.add(original.length - i);
            }
            for (int i = 0; i < 100; i++) {
                at.add(r.nextInt(original.length));
            }
            at.removeIf(i -> i < 0 || i >= original.length);
            return List.copyOf(at);
        }

        void expectRefused(byte[] bytes, String what) throws IOException {
            IndexProbe.Result res = run(bytes, what);
            if (res == null) {
                return;
            }
            if (res.mismatch()) {
                fail(what, "mismatch", "PolicyMismatchException from a file whose header CRC is broken");
            } else if (res.verified()) {
                fail(what, "verified", "a damaged index passed verify()");
            } else if (!res.wrong().isEmpty()) {
                fail(what, "wrong answer before refusal at " + res.refusedAt(),
                        res.wrong().size() + " wrong answers before it was refused at " + res.refusedAt() + ", e.g. " + res.wrong().get(0));
            }
        }

        void expectRepairedRefused(byte[] bytes, String what, boolean headerChanged) throws IOException {
            IndexProbe.Result res = run(bytes, what);
            if (res == null) {
                return;
            }
            if (res.mismatch()) {
                mismatches++;
                if (!headerChanged) {
                    fail(what, "mismatch", "PolicyMismatchException from a change outside the envelope");
                }
            } else if (res.verified()) {
                fail(what, "verified", "verify() accepted an index that differs from the committed one"
                        + (res.wrong().isEmpty() ? "" : " (and " + res.wrong().size() + " answers were wrong, e.g. " + res.wrong().get(0) + ")"));
            } else if (!res.wrong().isEmpty()) {
                wrongBeforeRefusal++;
            }
        }

        private IndexProbe.Result run(byte[] bytes, String what) throws IOException {
            count++;
            IndexProbe.Result res = probe.run(index, bytes);
            stages.merge(res.refusedAt(), 1, Integer::sum);
            if (res.unexpected() != null) {
                failureCount++;
                String kind = res.unexpected().getClass().getSimpleName() + " at " + res.where();
                if (firstUnexpected == null) {
                    firstUnexpected = res.unexpected();
                }
                if (kinds.merge(kind, 1, Integer::sum) <= EXAMPLES && failures.size() < REPORTED) {
                    failures.add(what + " [" + res.where() + "]: " + res.unexpected());
                }
                return null;
            }
            return res;
        }

        private void fail(String what, String kind, String why) {
            failureCount++;
            if (kinds.merge(kind, 1, Integer::sum) <= EXAMPLES && failures.size() < REPORTED) {
                failures.add(what + ": " + why);
            }
        }

        void report() {
            // A CRC-repaired forgery passes every checksum, so a query may answer it wrongly before
            // verify() refuses it; the format rules must still catch nearly all of them first.
            if (wrongBeforeRefusal * WRONG_BEFORE_VERIFY_ONE_IN > count) {
                fail(index.toString(), "wrong before verify", wrongBeforeRefusal + " of " + count
                        + " CRC-repaired cases answered wrongly before verify() refused them (refused at " + stages + ")");
            }
            if (failureCount > 0) {
                AssertionError e = new AssertionError(index + ": " + failureCount + " of " + count + " cases misbehaved:\n  "
                        + String.join("\n  ", failures) + (failureCount > failures.size() ? "\n  …" : ""));
                if (firstUnexpected != null) {
                    e.initCause(firstUnexpected);
                }
                throw e;
            }
        }
    }
}

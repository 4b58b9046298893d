package dev.everett.segment.natives;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.everett.api.BackspaceCode;
import dev.everett.api.CommonWidthRule;
import dev.everett.api.CorruptSegmentException;
import dev.everett.api.OpenMode;
import dev.everett.api.Policy;
import dev.everett.api.PolicyMismatchException;
import dev.everett.api.RecordLocation;
import dev.everett.api.SegmentFormat;
import dev.everett.api.Unit;
import dev.everett.api.ValueGrammar;
import dev.everett.api.ValueWidth;
import dev.everett.api.VerifyReport;
import dev.everett.segment.io.Envelope;
import dev.everett.segment.io.LittleEndian;
import dev.everett.segment.testing.FuzzInputs;
import dev.everett.segment.testing.Profile;
import dev.everett.segment.testing.Rec;
import dev.everett.segment.testing.SegmentFixtures;
import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Fuzz tests of the bit-unit readers, KV02 bit and KV03 (see docs/fuzzing.md), on the pattern of
 * {@link Kv02FuzzTest}: each input is written to a temporary {@code .kv} file and read the way a
 * host would, opened in {@link OpenMode#TYPED} and {@link OpenMode#HEADER} mode, walked, probed
 * with {@code recordAt} and checked with {@code verify()}, once under each value grammar.
 *
 * <p>The policy comes from the input itself: W, K, a fixed value width and the backspace code and
 * parameter from the envelope, the format from the directory magic ({@code KV03}, else KV02). If
 * the envelope names nothing a bit-unit {@link Policy} can express, the harness falls back to the
 * string policy and a {@link PolicyMismatchException} is then allowed. Otherwise the reader may
 * refuse bad input only with {@link CorruptSegmentException}; anything else is a finding, and so
 * is any broken oracle:
 * <ul>
 *   <li>HEADER and TYPED mode agree: same records, same report, or both corrupt;</li>
 *   <li>a file that passes {@code verify()} walked cleanly, and {@code recordAt} agrees with the
 *       walk (key length in bytes, retained bits within the key, the suffix bits, the value);</li>
 *   <li>round trip: the walked records re-encoded by our writer under the same policy (and
 *       {@code promised(w)} if the file records a common width w) verify canonical with the same
 *       records; if the input verified canonical, the re-encoding is byte-identical;</li>
 *   <li>a reader under another W, or of the other format, refuses the file.</li>
 * </ul>
 *
 * <p>{@link #rawBytes} reads the bytes as they are; {@link #crcRepaired} first recomputes the body
 * and header CRC32C so that mutations reach the directory, Elias–Fano and record decoders. In a
 * normal build both run in regression mode on the committed inputs under
 * {@code src/test/resources/dev/everett/segment/natives/BitFuzzTestInputs/<method>/} (written by
 * {@link BitFuzzCorpusTest}).
 */
class BitFuzzTest {
    private static final int HEADER = Envelope.BYTES;
    private static final Path DIR = FuzzInputs.scratchDirectory("everett-bitfuzz-");
    private static final Path INPUT = DIR.resolve("input.kv");
    private static final Path REENCODED = DIR.resolve("reencoded.kv");

    @FuzzTest(maxDuration = "2m")
    void rawBytes(byte[] data) throws IOException {
        exercise(data);
    }

    @FuzzTest(maxDuration = "2m")
    void crcRepaired(byte[] data) throws IOException {
        exercise(Kv02FuzzTest.repairChecksums(data));
    }

    static void exercise(byte[] data) throws IOException {
        Files.write(INPUT, data);
        Derived derived = Derived.from(data);
        for (ValueGrammar grammar : ValueGrammar.values()) {
            Policy policy = derived.policy().withGrammar(grammar);
            Outcome typed = read(policy, derived.exact(), OpenMode.TYPED);
            Outcome header = read(policy, derived.exact(), OpenMode.HEADER);
            checkModesAgree(typed, header);
            if (typed != null && typed.verified()) {
                roundTrip(data, policy, typed);
            }
        }
        if (derived.exact()) {
            probeWrongPolicies(derived.policy());
        }
    }

    /** What one reading found; {@code records} is null if the walk was corrupt, the whole outcome null if open refused. */
    record Outcome(List<Rec> records, VerifyReport report, long commonWidth) {
        boolean verified() {
            return report != null;
        }
    }

    /** TYPED: walk, probe, verify. HEADER: probe first (triggering the lazy typed check), then walk and verify. */
    private static Outcome read(Policy policy, boolean exact, OpenMode mode) throws IOException {
        NativeReader reader;
        try {
            reader = NativeReader.open(INPUT, policy, mode);
        } catch (CorruptSegmentException e) {
            return null;
        } catch (PolicyMismatchException e) {
            if (exact) {
                throw new AssertionError("policy mismatch although the policy was decoded from this very file", e);
            }
            return null;
        }
        try (reader) {
            List<Rec> walked = null;
            List<RecordLocation> located;
            if (mode == OpenMode.TYPED) {
                walked = Kv02FuzzTest.walkOrNull(reader);
                located = Kv02FuzzTest.probe(reader);
            } else {
                located = Kv02FuzzTest.probe(reader);
                walked = Kv02FuzzTest.walkOrNull(reader);
            }
            VerifyReport report = Kv02FuzzTest.verifyOrNull(reader);
            if (report != null) {
                checkVerified(reader, walked, located, report);
            }
            return new Outcome(walked, report, reader.commonValueWidth());
        }
    }

    private static void checkVerified(NativeReader reader, List<Rec> walked, List<RecordLocation> located, VerifyReport report) {
        assertNotNull(walked, "verify() passed but the cursor walk found corruption");
        long count = reader.recordCount();
        assertEquals(count, walked.size(), "walked records vs the envelope count");
        assertEquals(count, report.records(), "verify report records");
        assertEquals(LittleEndian.ceilDiv(count, reader.policy().blockWidth()), report.blocks(), "verify report blocks");
        assertEquals(report.canonical(), report.firstNonCanonicalRecord() < 0, "canonical flag vs first non-canonical record");
        long[] ordinals = Kv02FuzzTest.probeOrdinals(count);
        Profile profile = Profile.of(reader.policy());
        for (int i = 0; i < ordinals.length; i++) {
            int o = (int) ordinals[i];
            assertNotNull(located.get(i), "verify() passed but recordAt(" + o + ") found corruption");
            checkLocation(profile, walked, o, located.get(i), report.canonical());
            checkLocation(profile, walked, o, reader.recordAt(o), report.canonical());
        }
    }

    private static void checkLocation(Profile profile, List<Rec> walked, int o, RecordLocation loc, boolean canonical) {
        Rec rec = walked.get(o);
        byte[] key = rec.key();
        String at = "recordAt(" + o + ")";
        assertEquals(profile.stored(key).length, loc.keyLength(), at + " key length");
        assertTrue(loc.retained() >= 0 && loc.retained() <= 8L * profile.stored(key).length, at + " retained bits within the key");
        assertArrayEquals(profile.suffix(key, loc.retained()), loc.suffix().toArray(ValueLayout.JAVA_BYTE), at + " suffix bits");
        assertEquals(rec.tombstone(), loc.tombstone(), at + " tombstone");
        if (!rec.tombstone()) {
            assertArrayEquals(rec.value(), loc.value().toArray(ValueLayout.JAVA_BYTE), at + " value");
        }
        if (canonical) {
            long lcp = o == 0 ? 0 : profile.lcp(walked.get(o - 1).key(), key);
            assertEquals(lcp, loc.retained(), at + " retention in a canonical file");
        }
    }

    private static void checkModesAgree(Outcome typed, Outcome header) {
        if (header == null) {
            assertTrue(typed == null, "HEADER open refused a file that TYPED open accepted");
            return;
        }
        if (typed == null) {
            // The directory is bad: the lazily checked HEADER reader must have refused every query.
            assertEquals(null, header.records(), "HEADER mode walked a file whose directory TYPED open refused");
            assertTrue(!header.verified(), "HEADER mode verified a file whose directory TYPED open refused");
            return;
        }
        assertEquals(typed.records(), header.records(), "HEADER and TYPED walks differ");
        assertEquals(typed.report(), header.report(), "HEADER and TYPED verify reports differ");
        assertEquals(typed.commonWidth(), header.commonWidth(), "common width differs by open mode");
    }

    /** A different W, or the other format, must never open. */
    private static void probeWrongPolicies(Policy policy) throws IOException {
        int w = policy.blockWidth();
        SegmentFormat other = policy.format() == SegmentFormat.KV03 ? SegmentFormat.KV02 : SegmentFormat.KV03;
        List<Policy> wrong = new java.util.ArrayList<>(List.of(policy.withBlockWidth(w == Integer.MAX_VALUE ? w - 1 : w + 1)));
        if (other == SegmentFormat.KV02 || !policy.valueWidth().isFixed()) { // no KV03 policy declares a width
            wrong.add(policy.withFormat(other));
        }
        for (Policy p : wrong) {
            for (OpenMode mode : OpenMode.values()) {
                try (NativeReader r = NativeReader.open(INPUT, p, mode)) {
                    r.recordCount();
                    if (p.format() != policy.format()) {
                        // Without a readable magic the format is left to the typed check, which must refuse.
                        r.typed();
                    }
                    fail("opened under " + p + " a file whose envelope and directory say " + policy + ": " + r);
                } catch (CorruptSegmentException | PolicyMismatchException expected) {
                    // the file is bad, or it belongs to another policy
                }
            }
        }
    }

    private static void roundTrip(byte[] input, Policy policy, Outcome read) throws IOException {
        long width = read.commonWidth();
        CommonWidthRule rule = width >= 0 && !policy.valueWidth().isFixed() ? CommonWidthRule.promised(width) : CommonWidthRule.policy();
        Files.deleteIfExists(REENCODED);
        SegmentFixtures.write(REENCODED, policy, rule, read.records());
        // KV03 records the width its values have (or 0 / the promise without records); a valid
        // file recording none where its values agree is not what Everett's writer emits.
        long discovered = NativePropertyTest.expectedCommonWidth(policy, rule, read.records());
        boolean widthCanonical = policy.format() != SegmentFormat.KV03 || policy.valueWidth().isFixed() || discovered == width;
        try (NativeReader again = NativeReader.open(REENCODED, policy, OpenMode.TYPED)) {
            assertEquals(read.records(), SegmentFixtures.walk(again), "re-encoded records differ");
            assertTrue(again.verify().canonical(), "our writer produced a non-canonical file");
            assertEquals(widthCanonical ? width : discovered, again.commonValueWidth(), "re-encoded common width");
        }
        if (read.report().canonical() && widthCanonical) {
            Kv02FuzzTest.reencodesIdentically(input, REENCODED);
        }
    }

    /** The bit-unit policy the file describes, or the string policy when it names none; {@code exact} says which. */
    record Derived(Policy policy, boolean exact) {
        static Derived from(byte[] file) {
            Policy fallback = Policy.stringPolicy();
            if (file.length < HEADER) {
                return new Derived(fallback, false);
            }
            FuzzInputs.Shape shape = FuzzInputs.Shape.of(file, fallback);
            boolean exact = shape.exact() && (file[16] & 0xFF) == Unit.BIT.code();
            int code = file[18] & 0xFF;
            long parameter = FuzzInputs.u(file, 88, 8);
            BackspaceCode backspace = fallback.backspace();
            if (code == BackspaceCode.EXP_GOLOMB && parameter >= 0 && parameter <= 63) {
                backspace = BackspaceCode.expGolomb((int) parameter);
            } else if (code == BackspaceCode.GOLOMB && parameter >= 1) {
                backspace = BackspaceCode.golomb(parameter);
            } else {
                exact = false;
            }
            SegmentFormat format = file.length >= HEADER + 4 && FuzzInputs.u(file, HEADER, 4) == Kv03Directory.MAGIC ? SegmentFormat.KV03 : SegmentFormat.KV02;
            ValueWidth width = shape.width();
            if (format == SegmentFormat.KV03 && width.isFixed()) {
                // No KV03 policy declares a width (a KV03 file setting flag bit 0 is a mismatch for every reader).
                width = ValueWidth.variable();
                exact = false;
            }
            return new Derived(new Policy(Unit.BIT, shape.blockWidth(), shape.groupSize(), width, backspace, ValueGrammar.OPTIONAL, format), exact);
        }
    }
}

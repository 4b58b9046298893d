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
import dev.everett.api.SegmentReader;
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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Fuzz tests of the native readers, under every {@link Profile} (byte-unit KV02, KV02 in bits,
 * KV03; see docs/fuzzing.md).
 *
 * <p>Each input is written to a temporary {@code .kv} file and read the way a host would, once
 * per profile and value grammar: opened in {@link OpenMode#TYPED} and {@link OpenMode#HEADER}
 * mode, walked with the cursor, probed with {@code recordAt} and checked with {@code verify()}.
 * The policy comes from the input itself: W, K and a fixed value width from the envelope, and for
 * bit-unit profiles the backspace code and parameter. The policy is <em>exact</em> when the
 * envelope's unit, every field and, for bit units, the directory magic ({@code KV03}, else KV02)
 * name a policy of the profile; otherwise the harness fills in the profile's defaults and a
 * {@link PolicyMismatchException} is allowed. The reader may refuse bad input only with
 * {@link CorruptSegmentException} or that mismatch; anything else is a finding, and so is any
 * broken oracle:
 * <ul>
 *   <li>HEADER and TYPED mode agree: same records, same report, or both corrupt;</li>
 *   <li>a file that passes {@code verify()} walked cleanly, and {@code recordAt} agrees with the
 *       walk on every probed ordinal (key length, retained units within the key, the suffix, the
 *       value, and in a canonical file the exact maximal retention), before and after verify;</li>
 *   <li>round trip: the walked records re-encoded by {@link NativeWriter} under the same policy
 *       (and {@code promised(w)} if the file records a common width w) verify canonical with the
 *       same records; if the input verified canonical, the re-encoding is byte-identical;</li>
 *   <li>an exact policy under another W, or of the other bit-unit format, refuses the file.</li>
 * </ul>
 *
 * <p>Two targets: {@link #rawBytes} reads the bytes as they are (so most mutations stop at the
 * header checksum), {@link #crcRepaired} first recomputes the body and header CRC32C so mutated
 * files reach the directory, Elias–Fano and record decoders. In a normal build both run in
 * regression mode on the committed inputs under
 * {@code src/test/resources/dev/everett/segment/natives/NativeFuzzTestInputs/<method>/}
 * (written by {@link NativeFuzzCorpusTest}). Set {@code JAZZER_FUZZ=1} and select one method to fuzz.
 */
public class NativeFuzzTest {
    private static final int HEADER = Envelope.BYTES;
    /** Ordinals probed with recordAt: first, last, and a few in between. */
    private static final int PROBES = 4;

    private static final Path DIR = FuzzInputs.scratchDirectory("everett-fuzz-");
    private static final Path INPUT = DIR.resolve("input.kv");
    private static final Path REENCODED = DIR.resolve("reencoded.kv");

    @FuzzTest(maxDuration = "2m")
    void rawBytes(byte[] data) throws IOException {
        exercise(data);
    }

    @FuzzTest(maxDuration = "2m")
    void crcRepaired(byte[] data) throws IOException {
        exercise(repairChecksums(data));
    }

    /**
     * Recomputes the body CRC32C (bytes 64–67, over bytes 96..end) and then the header CRC32C
     * (bytes 68–71, over the 96 header bytes with 68–71 zeroed). Shorter inputs are left alone.
     */
    public static byte[] repairChecksums(byte[] data) {
        if (data.length < HEADER) {
            return data;
        }
        byte[] b = data.clone();
        CRC32C body = new CRC32C();
        body.update(b, HEADER, b.length - HEADER);
        LittleEndian.putU32(b, Envelope.BODY_CRC_OFFSET, body.getValue());
        LittleEndian.putU32(b, Envelope.HEADER_CRC_OFFSET, 0);
        CRC32C header = new CRC32C();
        header.update(b, 0, HEADER);
        LittleEndian.putU32(b, Envelope.HEADER_CRC_OFFSET, header.getValue());
        return b;
    }

    /** {@code data} with its header CRC made right (when it has a header); the body CRC stays as given. */
    public static byte[] repairHeaderChecksum(byte[] data) {
        if (data.length < HEADER) {
            return data;
        }
        byte[] b = data.clone();
        LittleEndian.putU32(b, Envelope.HEADER_CRC_OFFSET, 0);
        CRC32C header = new CRC32C();
        header.update(b, 0, HEADER);
        LittleEndian.putU32(b, Envelope.HEADER_CRC_OFFSET, header.getValue());
        return b;
    }

    static void exercise(byte[] data) throws IOException {
        Files.write(INPUT, data);
        for (Profile profile : Profile.values()) {
            Derived derived = Derived.from(profile, data);
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
    }

    // ---------------------------------------------------------------------------------------
    // Reading

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
            List<Rec> walked;
            List<RecordLocation> located;
            if (mode == OpenMode.TYPED) {
                walked = walkOrNull(reader);
                located = probe(reader);
            } else {
                located = probe(reader);
                walked = walkOrNull(reader);
            }
            VerifyReport report = verifyOrNull(reader);
            if (report != null) {
                checkVerified(reader, walked, located, report);
            }
            return new Outcome(walked, report, reader.commonValueWidth());
        }
    }

    /** Every record through a fresh cursor, or null if the walk finds corruption. */
    public static List<Rec> walkOrNull(SegmentReader reader) {
        try {
            return SegmentFixtures.walk(reader);
        } catch (CorruptSegmentException e) {
            return null;
        }
    }

    /** The reader's verify report, or null if verify() finds corruption. */
    public static VerifyReport verifyOrNull(SegmentReader reader) {
        try {
            return reader.verify();
        } catch (CorruptSegmentException e) {
            return null;
        }
    }

    /** recordAt on up to {@link #PROBES} ordinals; a null entry where the query found corruption. */
    private static List<RecordLocation> probe(NativeReader reader) {
        List<RecordLocation> out = new ArrayList<>();
        for (long ordinal : probeOrdinals(reader.recordCount())) {
            try {
                RecordLocation loc = reader.recordAt(ordinal);
                assertEquals(ordinal, loc.ordinal());
                out.add(loc);
            } catch (CorruptSegmentException e) {
                out.add(null);
            }
        }
        return out;
    }

    private static long[] probeOrdinals(long count) {
        if (count <= 0) {
            return new long[0];
        }
        return Arrays.stream(new long[] {0, count - 1, count / 2, count / 3})
                .distinct().limit(PROBES).toArray();
    }

    /** A file that passed verify(): the walk, recordAt and the report must all agree. */
    private static void checkVerified(NativeReader reader, List<Rec> walked, List<RecordLocation> located, VerifyReport report) {
        assertNotNull(walked, "verify() passed but the cursor walk found corruption");
        long count = reader.recordCount();
        assertEquals(count, walked.size(), "walked records vs the envelope count");
        assertEquals(count, report.records(), "verify report records");
        assertEquals(LittleEndian.ceilDiv(count, reader.policy().blockWidth()), report.blocks(), "verify report blocks");
        assertEquals(report.canonical(), report.firstNonCanonicalRecord() < 0, "canonical flag vs first non-canonical record");
        long[] ordinals = probeOrdinals(count);
        Profile profile = Profile.of(reader.policy());
        for (int i = 0; i < ordinals.length; i++) {
            int o = (int) ordinals[i];
            assertNotNull(located.get(i), "verify() passed but recordAt(" + o + ") found corruption");
            checkLocation(profile, walked, o, located.get(i), report.canonical());
            // Asking again after verify() gives the same answer.
            checkLocation(profile, walked, o, reader.recordAt(o), report.canonical());
        }
    }

    /** recordAt's lengths, retention and suffix are of the stored key, in the profile's units. */
    private static void checkLocation(Profile profile, List<Rec> walked, int o, RecordLocation loc, boolean canonical) {
        Rec rec = walked.get(o);
        byte[] key = rec.key();
        String at = "recordAt(" + o + ")";
        assertEquals(profile.stored(key).length, loc.keyLength(), at + " key length");
        assertTrue(loc.retained() >= 0 && loc.retained() <= profile.keyUnits(key), at + " retained units within the key");
        assertArrayEquals(profile.suffix(key, loc.retained()), loc.suffix().toArray(ValueLayout.JAVA_BYTE), at + " suffix");
        assertEquals(rec.tombstone(), loc.tombstone(), at + " tombstone");
        if (!rec.tombstone()) {
            assertArrayEquals(rec.value(), loc.value().toArray(ValueLayout.JAVA_BYTE), at + " value");
        }
        if (canonical) {
            long lcp = o == 0 ? 0 : profile.lcp(walked.get(o - 1).key(), key);
            assertEquals(lcp, loc.retained(), at + " retention in a canonical file");
        }
    }

    /** TYPED and HEADER mode read the same bytes under the same policy: same answers. */
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

    /** The envelope and directory are checked against the policy: another W, or the other bit-unit format, must never open. */
    private static void probeWrongPolicies(Policy policy) throws IOException {
        int w = policy.blockWidth();
        List<Policy> wrong = new ArrayList<>(List.of(policy.withBlockWidth(w == Integer.MAX_VALUE ? w - 1 : w + 1)));
        SegmentFormat other = policy.format() == SegmentFormat.KV03 ? SegmentFormat.KV02 : SegmentFormat.KV03;
        if (policy.unit() == Unit.BIT && (other == SegmentFormat.KV02 || !policy.valueWidth().isFixed())) { // no KV03 policy declares a width
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

    // ---------------------------------------------------------------------------------------
    // Round trip

    /**
     * Re-encodes the walked records with our writer. The writer always emits canonical files, so
     * the result must verify canonical with the same records and common width; when the input
     * itself verified canonical, it is the unique canonical file for these records, policy and
     * width rule, so the bytes must be identical.
     */
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
            byte[] reencoded = Files.readAllBytes(REENCODED);
            if (!Arrays.equals(input, reencoded)) {
                fail("a canonical file re-encodes to different bytes (first difference at offset " + Arrays.mismatch(input, reencoded)
                        + ", input " + input.length + " bytes, re-encoded " + reencoded.length + " bytes)");
            }
        }
    }

    // ---------------------------------------------------------------------------------------
    // Policy from the input itself

    /**
     * The policy of {@code profile} that the file describes, or the profile's base policy where
     * the file names something it cannot express; {@code exact} says the file named it all, in
     * which case the reader has no business reporting a policy mismatch.
     */
    public record Derived(Policy policy, boolean exact) {
        public static Derived from(Profile profile, byte[] file) {
            Policy fallback = profile.base();
            if (file.length < HEADER) {
                return new Derived(fallback, false);
            }
            FuzzInputs.Shape shape = FuzzInputs.Shape.of(file, fallback);
            boolean exact = shape.exact() && (file[16] & 0xFF) == fallback.unit().code();
            BackspaceCode backspace = fallback.backspace();
            if (profile.bits()) {
                // The bit-unit formats share the envelope: the directory magic tells them apart.
                SegmentFormat magic = file.length >= HEADER + 4 && FuzzInputs.u(file, HEADER, 4) == Kv03Directory.MAGIC ? SegmentFormat.KV03 : SegmentFormat.KV02;
                exact &= magic == fallback.format();
                int code = file[18] & 0xFF;
                long parameter = FuzzInputs.u(file, 88, 8);
                if (code == BackspaceCode.EXP_GOLOMB && parameter >= 0 && parameter <= 63) {
                    backspace = BackspaceCode.expGolomb((int) parameter);
                } else if (code == BackspaceCode.GOLOMB && parameter >= 1) {
                    backspace = BackspaceCode.golomb(parameter);
                } else {
                    exact = false;
                }
            }
            ValueWidth width = shape.width();
            if (fallback.format() == SegmentFormat.KV03 && width.isFixed()) {
                // No KV03 policy declares a width (a KV03 file setting flag bit 0 is a mismatch for every reader).
                width = ValueWidth.variable();
                exact = false;
            }
            Policy p = new Policy(fallback.unit(), shape.blockWidth(), shape.groupSize(), width, backspace, ValueGrammar.OPTIONAL, fallback.format());
            return new Derived(p, exact);
        }
    }
}

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
import dev.everett.api.Unit;
import dev.everett.api.ValueGrammar;
import dev.everett.api.VerifyReport;
import dev.everett.segment.io.Envelope;
import dev.everett.segment.io.LittleEndian;
import dev.everett.segment.testing.FuzzInputs;
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
 * Fuzz tests of the KV02 reader (see docs/fuzzing.md).
 *
 * <p>Each input is written to a temporary {@code .kv} file and read the way a host would: opened
 * in {@link OpenMode#TYPED} and {@link OpenMode#HEADER} mode, walked with the cursor, probed with
 * {@code recordAt} and checked with {@code verify()}, once under each value grammar. The policy
 * is decoded from the input's own envelope (W, K, fixed value width), so the fuzzer can vary it.
 * For bad input the reader may only throw {@link CorruptSegmentException}, or
 * {@link PolicyMismatchException} when the envelope names a policy the harness cannot build
 * (bit unit, K not 2^n − 1, W beyond an int, …). Anything else is a finding, and so is any broken
 * oracle:
 * <ul>
 *   <li>HEADER and TYPED mode agree: same records, or both corrupt;</li>
 *   <li>a file that passes {@code verify()} walked cleanly, and {@code recordAt} agrees with the
 *       walk on every probed ordinal;</li>
 *   <li>round trip: the walked records re-encoded by {@link NativeWriter} (same policy, and
 *       {@code promised(w)} if the file records a common width w, else {@code policy()}) give a
 *       file that verifies, is canonical and holds the same records; if the input verified
 *       canonical, the re-encoding is byte-identical to it.</li>
 * </ul>
 *
 * <p>Two targets: {@link #rawBytes} reads the bytes as they are (so most mutations stop at the
 * header checksum), {@link #crcRepaired} first recomputes the body and header CRC32C so mutated
 * files reach the directory, Elias–Fano and record decoders.
 *
 * <p>In a normal build these run in regression mode, only on the committed inputs under
 * {@code src/test/resources/dev/everett/segment/natives/Kv02FuzzTestInputs/<method>/}. Set
 * {@code JAZZER_FUZZ=1} and select one method to fuzz.
 */
public class Kv02FuzzTest {
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
    static byte[] repairChecksums(byte[] data) {
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

    static void exercise(byte[] data) throws IOException {
        Files.write(INPUT, data);
        Derived derived = Derived.from(data);
        for (ValueGrammar grammar : ValueGrammar.values()) {
            Policy policy = derived.policy().withGrammar(grammar);
            Outcome typed = readTyped(policy, derived.exact());
            Outcome header = readHeaderFirst(policy, derived.exact());
            checkModesAgree(typed, header);
            if (typed.verified()) {
                roundTrip(data, policy, typed);
            }
        }
        if (derived.exact()) {
            probeWrongPolicy(derived.policy());
        }
    }

    // ---------------------------------------------------------------------------------------
    // Reading

    /** What one reading of the input found; {@code records} is null if the walk was corrupt. */
    record Outcome(boolean opened, List<Rec> records, VerifyReport report, long commonWidth) {
        boolean verified() {
            return report != null;
        }
    }

    /** Open TYPED, walk, probe recordAt, verify. */
    private static Outcome readTyped(Policy policy, boolean exact) throws IOException {
        NativeReader reader;
        try {
            reader = NativeReader.open(INPUT, policy, OpenMode.TYPED);
        } catch (CorruptSegmentException e) {
            return new Outcome(false, null, null, -1);
        } catch (PolicyMismatchException e) {
            failIfExact(exact, e);
            return new Outcome(false, null, null, -1);
        }
        try (reader) {
            List<Rec> walked = walkOrNull(reader);
            List<RecordLocation> located = probe(reader);
            VerifyReport report = verifyOrNull(reader);
            if (report != null) {
                checkVerified(reader, walked, located, report);
            }
            return new Outcome(true, walked, report, reader.commonValueWidth());
        }
    }

    /** Open HEADER, probe recordAt before anything else (so it triggers the typed check), walk, verify. */
    private static Outcome readHeaderFirst(Policy policy, boolean exact) throws IOException {
        NativeReader reader;
        try {
            reader = NativeReader.open(INPUT, policy, OpenMode.HEADER);
        } catch (CorruptSegmentException e) {
            return null;
        } catch (PolicyMismatchException e) {
            failIfExact(exact, e);
            return null;
        }
        try (reader) {
            List<RecordLocation> located = probe(reader);
            List<Rec> walked = walkOrNull(reader);
            VerifyReport report = verifyOrNull(reader);
            if (report != null) {
                checkVerified(reader, walked, located, report);
            }
            return new Outcome(true, walked, report, reader.commonValueWidth());
        }
    }

    private static void failIfExact(boolean exact, PolicyMismatchException e) {
        if (exact) {
            throw new AssertionError("policy mismatch although the policy was decoded from this very header", e);
        }
    }

    static List<Rec> walkOrNull(NativeReader reader) {
        try {
            return SegmentFixtures.walk(reader);
        } catch (CorruptSegmentException e) {
            return null;
        }
    }

    static VerifyReport verifyOrNull(NativeReader reader) {
        try {
            return reader.verify();
        } catch (CorruptSegmentException e) {
            return null;
        }
    }

    /** recordAt on up to {@link #PROBES} ordinals; a null entry where the query found corruption (BitFuzzTest's too). */
    static List<RecordLocation> probe(NativeReader reader) {
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

    static long[] probeOrdinals(long count) {
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
        for (int i = 0; i < ordinals.length; i++) {
            int o = (int) ordinals[i];
            RecordLocation loc = located.get(i);
            assertNotNull(loc, "verify() passed but recordAt(" + o + ") found corruption");
            checkLocation(walked, o, loc, report.canonical());
            // Asking again after verify() gives the same answer.
            checkLocation(walked, o, reader.recordAt(o), report.canonical());
        }
    }

    private static void checkLocation(List<Rec> walked, int o, RecordLocation loc, boolean canonical) {
        Rec rec = walked.get(o);
        byte[] key = rec.key();
        assertEquals(key.length, loc.keyLength(), "recordAt(" + o + ") key length");
        assertTrue(loc.retained() >= 0 && loc.retained() <= key.length, "recordAt(" + o + ") retained in range");
        assertArrayEquals(Arrays.copyOfRange(key, (int) loc.retained(), key.length),
                loc.suffix().toArray(ValueLayout.JAVA_BYTE), "recordAt(" + o + ") suffix");
        assertEquals(rec.tombstone(), loc.tombstone(), "recordAt(" + o + ") tombstone");
        if (!rec.tombstone()) {
            assertArrayEquals(rec.value(), loc.value().toArray(ValueLayout.JAVA_BYTE), "recordAt(" + o + ") value");
        }
        if (canonical) {
            long lcp = 0;
            if (o > 0) {
                byte[] prev = walked.get(o - 1).key();
                int m = Arrays.mismatch(prev, key);
                lcp = m < 0 ? key.length : m;
            }
            assertEquals(lcp, loc.retained(), "recordAt(" + o + ") retention in a canonical file");
        }
    }

    /** TYPED and HEADER mode read the same bytes under the same policy: same answers. */
    private static void checkModesAgree(Outcome typed, Outcome header) {
        if (header == null) {
            assertTrue(!typed.opened(), "HEADER open refused a file that TYPED open accepted");
            return;
        }
        if (!typed.opened()) {
            // The directory is bad: the lazily checked HEADER reader must have refused every query.
            assertEquals(null, header.records(), "HEADER mode walked a file whose directory TYPED open refused");
            assertTrue(!header.verified(), "HEADER mode verified a file whose directory TYPED open refused");
            return;
        }
        assertEquals(typed.records(), header.records(), "HEADER and TYPED walks differ");
        assertEquals(typed.report(), header.report(), "HEADER and TYPED verify reports differ");
        assertEquals(typed.commonWidth(), header.commonWidth(), "common width differs by open mode");
    }

    /** The envelope is checked against the policy: a different W must never open. */
    private static void probeWrongPolicy(Policy policy) throws IOException {
        int w = policy.blockWidth();
        Policy other = policy.withBlockWidth(w == Integer.MAX_VALUE ? w - 1 : w + 1);
        try (NativeReader r = NativeReader.open(INPUT, other, OpenMode.HEADER)) {
            fail("opened under block width " + other.blockWidth() + " a file whose envelope says " + w + ": " + r);
        } catch (CorruptSegmentException | PolicyMismatchException expected) {
            // the envelope is bad, or it names another W
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
        CommonWidthRule rule = width >= 0 ? CommonWidthRule.promised(width) : CommonWidthRule.policy();
        Files.deleteIfExists(REENCODED);
        SegmentFixtures.write(REENCODED, policy, rule, read.records());
        try (NativeReader again = NativeReader.open(REENCODED, policy, OpenMode.TYPED)) {
            assertEquals(read.records(), SegmentFixtures.walk(again), "re-encoded records differ");
            VerifyReport report = again.verify();
            assertTrue(report.canonical(), "our writer produced a non-canonical file");
            assertEquals(width, again.commonValueWidth(), "re-encoded common width");
        }
        if (read.report().canonical()) {
            reencodesIdentically(input, REENCODED);
        }
    }

    /** A canonical file is unique for its records, policy and width rule: the re-encoding must be the input (BitFuzzTest's too). */
    static void reencodesIdentically(byte[] input, Path reencodedFile) throws IOException {
        byte[] reencoded = Files.readAllBytes(reencodedFile);
        if (!Arrays.equals(input, reencoded)) {
            int at = Arrays.mismatch(input, reencoded);
            fail("a canonical file re-encodes to different bytes (first difference at offset " + at
                    + ", input " + input.length + " bytes, re-encoded " + reencoded.length + " bytes)");
        }
    }

    // ---------------------------------------------------------------------------------------
    // Policy from the input's own envelope

    /**
     * The byte-unit policy the envelope describes, or the default one when the header is too
     * short or names something no byte-unit {@link Policy} can express; {@code exact} says the
     * former, in which case the reader has no business reporting a policy mismatch.
     */
    record Derived(Policy policy, boolean exact) {
        static Derived from(byte[] file) {
            Policy fallback = Policy.defaultBytes();
            if (file.length < HEADER) {
                return new Derived(fallback, false);
            }
            FuzzInputs.Shape shape = FuzzInputs.Shape.of(file, fallback);
            boolean exact = shape.exact() && (file[16] & 0xFF) == Unit.BYTE.code();
            Policy p = new Policy(Unit.BYTE, shape.blockWidth(), shape.groupSize(), shape.width(), BackspaceCode.VARINT, ValueGrammar.OPTIONAL);
            return new Derived(p, exact);
        }
    }

    // ---------------------------------------------------------------------------------------
}

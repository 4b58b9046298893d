package dev.everett.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.everett.api.CorruptSegmentException;
import dev.everett.api.MergeJob;
import dev.everett.api.OpenMode;
import dev.everett.api.Policy;
import dev.everett.api.PolicyMismatchException;
import dev.everett.api.SegmentEngine;
import dev.everett.api.SegmentReader;
import dev.everett.api.TombstonePolicy;
import dev.everett.api.ValueGrammar;
import dev.everett.segment.natives.NativeFuzzTest;
import dev.everett.segment.testing.FuzzInputs;
import dev.everett.segment.testing.Profile;
import dev.everett.segment.testing.Rec;
import dev.everett.segment.testing.SegmentFixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Fuzz test of the merger's own reading of its inputs. The merge does not walk an input with the
 * native reader's cursor: it decodes the encoded records itself ({@code EncodedRecords}), keeps
 * each key as spans of the input's bytes ({@link SpanKey}) and checks the order of the keys as it
 * goes. That is a second decoder of every native file, so it is fuzzed on its own.
 *
 * <p>Each input is one native file with both checksums recomputed (the compaction job checks the
 * body CRC before it merges, so a file that reaches the merger has a valid one), read under the
 * policy it describes for every {@link Profile} and value grammar
 * ({@link NativeFuzzTest.Derived}). Where the native reader opens it, the file is merged with a
 * second input holding every other record the cursor walked (the same values, so the result does
 * not depend on which input wins), three times: the fuzzed file as the older input keeping
 * tombstones, as the newer input with the tombstone literal cap, and as the older input dropping
 * tombstones. The oracle:
 * <ul>
 *   <li>the merge may refuse the input only with {@link CorruptSegmentException}, and then leaves
 *       no output file and must not have been given a file that passes {@code verify()};</li>
 *   <li>a merge that succeeds was given records the cursor walks too, and its output holds exactly
 *       those records (without the tombstones when they are dropped) and passes {@code verify()},
 *       canonical unless the cap is on.</li>
 * </ul>
 * The third merge takes the inputs' CRCs as it reads them ({@code checkInputsAsRead}), which
 * must change nothing for a body that holds its CRC. {@link #bodyCrcAsGiven} repairs the header
 * CRC only: a body that does not hold its CRC must then fail that checked merge as its CRC
 * mismatch, naming the file, whatever its framing does on the way.
 *
 * <p>In a normal build this replays the committed seeds under
 * {@code src/test/resources/dev/everett/merge/MergeFuzzTestInputs/{crcRepaired,bodyCrcAsGiven}/}
 * (the native fuzz seeds, written by {@link MergeFuzzCorpusTest}); set {@code JAZZER_FUZZ=1} to
 * fuzz (docs/fuzzing.md).
 */
public class MergeFuzzTest {
    private static final Path DIR = FuzzInputs.scratchDirectory("everett-merge-fuzz-");
    private static final Path INPUT = DIR.resolve("input.kv");
    private static final Path OTHER = DIR.resolve("other.kv");
    private static final Path OUTPUT = DIR.resolve("merged.kv");
    private static final SegmentEngine ENGINE = SegmentEngine.load();
    /** Keys per merge step: small, so that a run of steps, not one call, does the merge. */
    private static final long STEP = 5;

    @FuzzTest(maxDuration = "2m")
    void crcRepaired(byte[] data) throws IOException {
        byte[] file = NativeFuzzTest.repairChecksums(data);
        Files.write(INPUT, file);
        for (Policy policy : policies(file)) {
            exercise(policy);
        }
    }

    /** The policies a file is read under: each profile's, as the file describes it, in every value grammar. */
    private static List<Policy> policies(byte[] file) {
        List<Policy> out = new ArrayList<>();
        for (Profile profile : Profile.values()) {
            Policy derived = NativeFuzzTest.Derived.from(profile, file).policy();
            for (ValueGrammar grammar : ValueGrammar.values()) {
                out.add(derived.withGrammar(grammar));
            }
        }
        return out;
    }

    /** What the native reader makes of the input under {@code policy}, then the three merges. */
    private static void exercise(Policy policy) throws IOException {
        List<Rec> walked;
        boolean verified;
        try (SegmentReader r = ENGINE.open(INPUT, policy, OpenMode.TYPED)) {
            walked = NativeFuzzTest.walkOrNull(r);
            verified = walked != null && NativeFuzzTest.verifyOrNull(r) != null;
        } catch (CorruptSegmentException | PolicyMismatchException e) {
            return; // the merge's inputs are opened the same way: there is nothing to merge
        }
        List<Rec> other = new ArrayList<>();
        if (verified) {
            for (int i = 1; i < walked.size(); i += 2) {
                other.add(walked.get(i));
            }
        }
        Files.deleteIfExists(OTHER);
        SegmentFixtures.write(OTHER, policy, other);
        merge(policy, walked, verified, true, TombstonePolicy.KEEP, false, false);
        merge(policy, walked, verified, false, TombstonePolicy.KEEP, true, false);
        merge(policy, walked, verified, true, TombstonePolicy.DROP, false, true);
    }

    @FuzzTest(maxDuration = "2m")
    void bodyCrcAsGiven(byte[] data) throws IOException {
        byte[] file = NativeFuzzTest.repairHeaderChecksum(data);
        Files.write(INPUT, file);
        for (Policy policy : policies(file)) {
            boolean holds;
            try (SegmentReader r = ENGINE.open(INPUT, policy, OpenMode.TYPED)) {
                try {
                    r.verifyChecksum();
                    holds = true;
                } catch (CorruptSegmentException e) {
                    holds = false;
                }
            } catch (CorruptSegmentException | PolicyMismatchException e) {
                continue; // refused at open, before any merge could read it
            }
            if (holds) {
                exercise(policy);
            } else {
                mergeDamagedBody(policy);
            }
        }
    }

    /** The checked merge of an input whose body fails its CRC: refused as that mismatch, nothing left behind. */
    private static void mergeDamagedBody(Policy policy) throws IOException {
        Files.deleteIfExists(OTHER);
        SegmentFixtures.write(OTHER, policy, List.of());
        Files.deleteIfExists(OUTPUT);
        // The fuzzed input's reader does not check its body itself: only the merge's trail can refuse it.
        try (SegmentReader fuzzed = SegmentFixtures.openUnchecked(INPUT, policy);
             SegmentReader second = ENGINE.open(OTHER, policy, OpenMode.TYPED)) {
            CorruptSegmentException e = assertThrows(CorruptSegmentException.class, () -> {
                try (MergeJob job = NativeMerger.of(fuzzed, second).into(OUTPUT).checkInputsAsRead(true).start()) {
                    while (!job.done()) {
                        job.step(STEP);
                    }
                    job.finish();
                }
            }, policy + ": a checked merge took an input whose body fails its CRC");
            assertEquals(INPUT, e.file(), policy + ": " + e);
            assertTrue(e.getMessage().contains("body CRC32C mismatch"), policy + ": reported as " + e);
        }
        assertTrue(Files.notExists(OUTPUT), policy + ": a refused merge left its output behind");
    }

    private static void merge(Policy policy, List<Rec> walked, boolean verified, boolean fuzzedOlder, TombstonePolicy tombstones,
                              boolean cap, boolean checkAsRead) throws IOException {
        String run = (fuzzedOlder ? "fuzzed input older" : "fuzzed input newer") + ", tombstones " + tombstones
                + (cap ? ", literal cap" : "") + (checkAsRead ? ", CRCs as read" : "") + ", " + policy;
        Files.deleteIfExists(OUTPUT);
        try (SegmentReader fuzzed = ENGINE.open(INPUT, policy, OpenMode.TYPED);
             SegmentReader second = ENGINE.open(OTHER, policy, OpenMode.TYPED)) {
            NativeMerger merger = fuzzedOlder ? NativeMerger.of(fuzzed, second) : NativeMerger.of(second, fuzzed);
            try (MergeJob job = merger.into(OUTPUT).tombstones(tombstones).capTombstoneLiterals(cap).checkInputsAsRead(checkAsRead).start()) {
                while (!job.done()) {
                    job.step(STEP);
                }
                job.finish();
            } catch (CorruptSegmentException e) {
                assertFalse(verified, run + ": the merge refused a file that verify() passes: " + e.getMessage());
                assertTrue(Files.notExists(OUTPUT), run + ": a refused merge left its output behind");
                return;
            }
        }
        assertNotNull(walked, run + ": the merge took records that the cursor walk refuses");
        List<Rec> expected = new ArrayList<>();
        for (Rec r : walked) {
            if (!(tombstones == TombstonePolicy.DROP && r.tombstone())) {
                expected.add(r);
            }
        }
        try (SegmentReader out = ENGINE.open(OUTPUT, policy, OpenMode.TYPED)) {
            assertEquals(expected, SegmentFixtures.walk(out), run + ": merged records");
            boolean canonical = out.verify().canonical();
            assertTrue(cap || canonical, run + ": the merged output is not canonical");
        }
    }
}

package dev.everett.store;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.compaction.Layout;
import dev.everett.integration.EquivalenceFigures;
import dev.everett.integration.FileKinds;
import dev.everett.integration.InterposedFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.opentest4j.AssertionFailedError;

/**
 * I/O failures injected into the bytes and names of segment files (natives, indexes, filters,
 * whole-run chains), which the segment engine writes through file channels of its own: the store
 * is opened on {@link InterposedFiles}, so every one of those channels, renames, links and
 * directory forces passes through the fault. Faults fire only on files under the tree's
 * {@code segments/} and {@code chains/} directories, of the kind the case names (native, index or
 * filter; any for directory forces and links), and only on the flush thread (in a flush) or off
 * it (in a compaction), so each case hits the file and the phase it names. The checks are
 * {@link FaultInjectionTest}'s: a clear exception, reads that answer as the model does or throw
 * while the fault lasts, and after it clears a reopen that holds every acknowledged write.
 */
class SegmentFaultTest {
    enum Phase { FLUSH, COMPACTION }

    /** What goes wrong in a segment file. */
    enum Kind {
        /** A write to a native, index or filter throws. */
        WRITE_FAILS,
        /** Forcing a segment file throws. */
        FORCE_FAILS,
        /** A write stores half its bytes, then throws "No space left on device". */
        DISK_FULL,
        /**
         * Publishing a segment file throws: natives and indexes are hard-linked into place (a name
         * that exists is refused, so two writers cannot both publish one identity), filters are
         * renamed over a stale one.
         */
        PUBLISH_FAILS,
        /** Hard-linking a run's native into a whole-run chain throws. */
        LINK_FAILS,
        /** Forcing a segment or chain directory throws. */
        DIR_FORCE_FAILS
    }

    @TempDir
    Path tempDir;

    private static final Map<String, Integer> FIRED = new TreeMap<>();
    private static int cases;
    private static int surfaced;

    @AfterAll
    static void printFigures() {
        EquivalenceFigures.print();
    }

    /** The file kinds a byte-level fault aims at, one case each; directory forces and links hit any. */
    private static final List<String> TARGETS = List.of("native", "index", "filter");

    static List<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (Phase p : Phase.values()) {
            for (Kind k : Kind.values()) {
                if (k == Kind.DIR_FORCE_FAILS || k == Kind.LINK_FAILS) {
                    out.add(Arguments.of(p, k, "any"));
                } else {
                    TARGETS.forEach(t -> out.add(Arguments.of(p, k, t)));
                }
            }
        }
        return out;
    }

    /** Fires {@code kind} on segment files in {@code phase}, from the {@code countdown + 1}-th match on, until cleared. */
    static final class SegmentFaults implements InterposedFiles.Hooks {
        private final Phase phase;
        private final Kind kind;
        private final String target;
        private volatile boolean armed;
        private int countdown;
        final Map<String, Integer> fired = new TreeMap<>();

        SegmentFaults(Phase phase, Kind kind, String target) {
            this.phase = phase;
            this.kind = kind;
            this.target = target;
        }

        synchronized void arm(int countdown) {
            this.countdown = countdown;
            armed = true;
        }

        void clear() {
            armed = false;
        }

        synchronized int firedTotal() {
            return fired.values().stream().mapToInt(Integer::intValue).sum();
        }

        private static boolean segmentFile(Path file) {
            return under(file, "segments") || inChain(file);
        }

        /** True for a file of a whole-run chain's directory (where runs' natives are linked in, beside the chain's indexes). */
        private static boolean inChain(Path file) {
            return under(file, "chains");
        }

        private static boolean under(Path file, String directory) {
            for (Path name : file) {
                if (name.toString().equals(directory)) {
                    return true;
                }
            }
            return false;
        }

        /** True if the fault fires on this call (counted), false if it lets it pass. */
        private synchronized boolean due(Kind k, Path file) {
            if (!armed || k != kind || !segmentFile(file) || !(target.equals("any") || FileKinds.of(file).equals(target))
                    || Thread.currentThread().getName().equals("everett-flush") != (phase == Phase.FLUSH)) {
                return false;
            }
            if (countdown > 0) {
                countdown--;
                return false;
            }
            fired.merge(kind + " " + FileKinds.of(file), 1, Integer::sum);
            return true;
        }

        @Override
        public void before(InterposedFiles.Op op, Path file) throws IOException {
            // Creating segment directories fails in FaultInjectionTest; here the files' bytes do.
            Kind k = switch (op) {
                case CREATE, WRITE -> Kind.WRITE_FAILS;
                case FORCE -> Kind.FORCE_FAILS;
                case DIRECTORY_FORCE -> Kind.DIR_FORCE_FAILS;
                case MOVE -> Kind.PUBLISH_FAILS;
                case LINK -> inChain(file) && FileKinds.of(file).equals("native") ? Kind.LINK_FAILS : Kind.PUBLISH_FAILS;
                case CREATE_DIRECTORY -> null;
            };
            if (k != null && due(k, file)) {
                throw new IOException("injected: " + op.name().toLowerCase().replace('_', ' ') + " failed on " + file);
            }
        }

        @Override
        public int writable(Path file, int requested) {
            return due(Kind.DISK_FULL, file) ? requested / 2 : requested;
        }
    }

    @ParameterizedTest(name = "{1} on {2} in {0}")
    @MethodSource("cases")
    void aSegmentFileFaultFailsClearlyLosesNothingAndReopenRecovers(Phase phase, Kind kind, String target) throws Exception {
        long seed = FaultInjectionTest.seed();
        Random r = new Random(seed);
        // Links exist only in whole-run chains.
        Layout layout = kind == Kind.LINK_FAILS ? Layout.WHOLE_RUN : Layout.values()[r.nextInt(Layout.values().length)];
        String where = kind + " on " + target + " files in " + phase + " (" + layout + ", seed " + seed + ", replay with -Deverett.seed=" + seed + ")";
        Path dir = Files.createDirectories(tempDir.resolve("db"));
        SegmentFaults faults = new SegmentFaults(phase, kind, target);
        FaultInjectionTest.Model m = new FaultInjectionTest.Model();
        List<Throwable> errors = new ArrayList<>();
        try (EverettDB db = EverettDB.open(InterposedFiles.path(dir, faults), FaultInjectionTest.options(null, layout))) {
            for (int i = 0; i < 400; i++) {
                assertTrue(FaultInjectionTest.write(db, m, r, false, errors), where + ": a write failed before any fault");
                if (i % 150 == 149) {
                    db.flush();
                }
            }
            faults.arm(r.nextInt(3));
            Supplier<Boolean> step = switch (phase) {
                case FLUSH -> () -> FaultInjectionTest.write(db, m, r, r.nextBoolean(), errors)
                        & FaultInjectionTest.attempt(db::flush, errors);
                case COMPACTION -> () -> FaultInjectionTest.write(db, m, r, false, errors)
                        & FaultInjectionTest.attempt(db::compactRange, errors);
            };
            FaultInjectionTest.underFault(db, m, step, where);
            FaultInjectionTest.closeKeeping(db, errors);
        } catch (RuntimeException e) {
            throw new AssertionFailedError(where + ": unexpected failure", e);
        }
        faults.clear();
        assertTrue(faults.firedTotal() > 0, where + ": the fault never fired, so nothing was tested");
        assertTrue(!errors.isEmpty(), where + ": " + faults.fired + " injected, yet no call failed");
        for (Throwable e : errors) {
            FaultInjectionTest.assertClear(where, e);
        }
        try (EverettDB db = EverettDB.open(dir, FaultInjectionTest.options(null, layout))) {
            FaultInjectionTest.checkReads(db, m, where + ", reopened after the fault cleared", false);
        } catch (RuntimeException e) {
            throw new AssertionFailedError(where + ": reopening after the fault cleared failed (" + faults.fired + " injected)", e);
        }
        synchronized (FIRED) {
            cases++;
            surfaced += errors.size();
            faults.fired.forEach((k, n) -> FIRED.merge(k, n, Integer::sum));
            EquivalenceFigures.record("segment faults", cases + " cases, " + FIRED.values().stream().mapToInt(Integer::intValue).sum()
                    + " injected failures " + FIRED + ", " + surfaced + " surfaced as exceptions, no acknowledged write lost");
        }
    }
}

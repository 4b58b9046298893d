package dev.everett.store;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.api.Policy;
import dev.everett.compaction.Layout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.opentest4j.AssertionFailedError;

/**
 * I/O failures injected through the store's file-system seams ({@link Faults}) at open, in the
 * write path, in flush and in compaction (manifest edits are written by both). For every case:
 * the failing call throws a clear exception (a RuntimeException with a message, not an internal
 * error); while the fault lasts, every read either answers as the model does or throws; after
 * the fault clears, a reopen with the real file system recovers every acknowledged write. A write
 * that threw may or may not have happened, so its key may hold the old or the new value.
 *
 * <p>This class sits in the store's package because the seams are package-private (tests only;
 * the module runs on the class path).
 */
class FaultInjectionTest {
    enum Phase { OPEN, WRITE, FLUSH, COMPACTION }

    @TempDir
    Path tempDir;

    @org.junit.jupiter.api.AfterAll
    static void printFigures() {
        dev.everett.integration.EquivalenceFigures.print();
    }

    static List<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (Phase p : Phase.values()) {
            for (Faults.Kind k : Faults.Kind.values()) {
                out.add(Arguments.of(p, k));
            }
        }
        return out;
    }

    private static final Map<String, Integer> FIRED = new TreeMap<>();
    private static int cases;
    private static int surfaced;


    /** What the store holds for sure, and the keys a failed write left uncertain (old or new value). */
    static final class Model {
        final TreeMap<String, byte[]> acked = new TreeMap<>();
        final Map<String, List<byte[]>> uncertain = new HashMap<>();

        boolean allows(String key, byte[] value) {
            if (Arrays.equals(acked.get(key), value)) {
                return true;
            }
            for (byte[] v : uncertain.getOrDefault(key, List.of())) {
                if (Arrays.equals(v, value)) {
                    return true;
                }
            }
            return false;
        }
    }

    /** The store the fault tests run: small memtables and files, so a few hundred writes flush and compact. */
    static DBOptions options(Faults faults, Layout layout) {
        DBOptions o = new DBOptions().setPolicy(Policy.defaultBytes()).setLevelLayout(layout)
                .setWriteBufferSize(16 << 10).setTargetFileSizeBase(8 << 10).setMaxBytesForLevelBase(32 << 10)
                .setLevel0FileNumCompactionTrigger(2);
        if (faults != null) {
            o.setStoreFiles(faults.storeFiles()).setTreeFiles(faults.treeFiles());
        }
        return o;
    }

    private static byte[] key(int i) {
        return String.format("key%05d", i).getBytes(StandardCharsets.US_ASCII);
    }

    /** A write that may fail: on success the model takes it, on failure the key becomes uncertain. */
    static boolean write(EverettDB db, Model m, Random r, boolean sync, List<Throwable> errors) {
        int k = r.nextInt(600);
        String key = new String(key(k), StandardCharsets.US_ASCII);
        boolean delete = r.nextInt(8) == 0;
        byte[] value = delete ? null : new byte[50 + r.nextInt(400)];
        if (value != null) {
            r.nextBytes(value);
        }
        try (WriteOptions wo = new WriteOptions().setSync(sync)) {
            if (delete) {
                db.delete(wo, key(k));
                m.acked.remove(key);
            } else {
                db.put(wo, key(k), value);
                m.acked.put(key, value);
            }
            m.uncertain.remove(key);
            return true;
        } catch (RuntimeException e) {
            errors.add(e);
            List<byte[]> alternatives = m.uncertain.computeIfAbsent(key, x -> new ArrayList<>());
            alternatives.add(m.acked.get(key));
            alternatives.add(value);
            return false;
        }
    }

    /** Runs a maintenance call that may fail, keeping its failure. */
    static boolean attempt(Runnable call, List<Throwable> errors) {
        try {
            call.run();
            return true;
        } catch (RuntimeException e) {
            errors.add(e);
            return false;
        }
    }

    /** Every key of the model read back: the model's answer or an exception, never another value. */
    static void checkReads(EverettDB db, Model m, String where, boolean mayThrow) {
        for (int k = 0; k < 600; k++) {
            String key = new String(key(k), StandardCharsets.US_ASCII);
            byte[] got;
            try {
                got = db.get(key(k));
            } catch (RuntimeException e) {
                if (!mayThrow) {
                    throw new AssertionFailedError(where + ": reading " + key + " threw", e);
                }
                assertClear(where + " reading " + key, e);
                continue;
            }
            if (!m.allows(key, got)) {
                throw new AssertionFailedError(where + ": " + key + " reads " + (got == null ? "null" : got.length + " bytes")
                        + ", the model holds " + (m.acked.get(key) == null ? "null" : m.acked.get(key).length + " bytes")
                        + (m.uncertain.containsKey(key) ? " (or a failed write's value)" : ""));
            }
        }
    }

    /** Twelve steps while the fault lasts, then every read: the model's answer or a clear exception. */
    static void underFault(EverettDB db, Model m, Supplier<Boolean> step, String where) {
        for (int i = 0; i < 12; i++) {
            step.get();
        }
        checkReads(db, m, where + ", while failing", true);
    }

    /** Closes {@code db}, keeping its failure (a failed flush or log force at close) among {@code errors}. */
    static void closeKeeping(EverettDB db, List<Throwable> errors) {
        try {
            db.close();
        } catch (RuntimeException e) {
            errors.add(e);
        }
    }

    /** A fresh seed, or {@code -Deverett.seed} to replay one. */
    static long seed() {
        String seedProperty = System.getProperty("everett.seed", "").strip();
        return seedProperty.isEmpty() ? ThreadLocalRandom.current().nextLong() : Long.parseLong(seedProperty);
    }

    /** A clear failure: a RuntimeException with a message, not a bare internal error. */
    static void assertClear(String where, Throwable e) {
        boolean internal = e instanceof NullPointerException || e instanceof IndexOutOfBoundsException
                || e instanceof ClassCastException || e instanceof ArithmeticException;
        if (internal || e.getMessage() == null || e.getMessage().isBlank()) {
            throw new AssertionFailedError(where + ": an unclear failure " + e, e);
        }
    }

    @ParameterizedTest(name = "{1} in {0}")
    @MethodSource("cases")
    void aFaultFailsClearlyLosesNothingAndReopenRecovers(Phase phase, Faults.Kind kind) throws Exception {
        long seed = seed();
        Random r = new Random(seed);
        Layout layout = Layout.values()[r.nextInt(Layout.values().length)];
        String where = kind + " in " + phase + " (" + layout + ", seed " + seed + ", replay with -Deverett.seed=" + seed + ")";
        Path dir = Files.createDirectories(tempDir.resolve("db"));
        Faults faults = new Faults();
        Model m = new Model();
        List<Throwable> errors = new ArrayList<>();
        // A store with data in the log, in level 0 and below.
        try (EverettDB db = EverettDB.open(dir, options(faults, layout))) {
            for (int i = 0; i < 400; i++) {
                assertTrue(write(db, m, r, false, errors), where + ": a write failed before any fault");
                if (i % 150 == 149) {
                    db.flush();
                }
            }
            if (phase != Phase.OPEN) {
                faults.arm(kind, r.nextInt(3));
                Supplier<Boolean> step = switch (phase) {
                    case WRITE -> () -> write(db, m, r, true, errors);
                    case FLUSH -> () -> write(db, m, r, r.nextBoolean(), errors) & attempt(db::flush, errors);
                    case COMPACTION -> () -> write(db, m, r, false, errors) & attempt(db::compactRange, errors);
                    case OPEN -> throw new IllegalStateException();
                };
                underFault(db, m, step, where);
            }
            closeKeeping(db, errors);
        } catch (RuntimeException e) {
            // close() inside try-with-resources after a failed explicit close is a no-op; anything else is the store's
            throw new AssertionFailedError(where + ": unexpected failure", e);
        }
        if (phase == Phase.OPEN) {
            faults.arm(kind, r.nextInt(2));
            try (EverettDB db = EverettDB.open(dir, options(faults, layout))) {
                checkReads(db, m, where + ", opened under the fault", true);
            } catch (RuntimeException e) {
                errors.add(e);
            }
        }
        for (Throwable e : errors) {
            assertClear(where, e);
        }
        faults.clear();
        try (EverettDB db = EverettDB.open(dir, options(null, layout))) {
            checkReads(db, m, where + ", reopened after the fault cleared", false);
        } catch (RuntimeException e) {
            throw new AssertionFailedError(where + ": reopening after the fault cleared failed (" + faults.fired() + " injected)", e);
        }
        synchronized (FIRED) {
            cases++;
            surfaced += errors.size();
            faults.fired().forEach((k, n) -> FIRED.merge(k, n, Integer::sum));
            dev.everett.integration.EquivalenceFigures.record("faults", cases + " cases, " + FIRED.values().stream().mapToInt(Integer::intValue).sum()
                    + " injected failures " + FIRED + ", " + surfaced + " surfaced as exceptions, no acknowledged write lost");
        }
    }
}

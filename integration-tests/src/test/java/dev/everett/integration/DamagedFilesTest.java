package dev.everett.integration;

import dev.everett.store.EverettDB;
import dev.everett.store.EverettIterator;
import dev.everett.store.WriteOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.opentest4j.AssertionFailedError;

/**
 * Bit flips and truncations of every file a closed store holds (write-ahead log, manifest, store
 * descriptor, natives, indexes, filters), one damage at a time: the open, or the read that meets
 * the damage, fails naming the file, or the answer is right; never a wrong answer. The log alone
 * may also recover to a prefix of its records (a damaged last record reads as a torn tail, as
 * RocksDB's point-in-time recovery does): the tail keys, written last and only in the log, must
 * then be present as a prefix with their own values, and everything older intact.
 */
class DamagedFilesTest {
    static final int TAIL = 40;
    static final int FLIPS_PER_FILE = 6;

    @TempDir
    Path tempDir;

    @org.junit.jupiter.api.AfterAll
    static void printFigures() {
        EquivalenceFigures.print();
    }

    static Stream<EverettKv.Config> configs() {
        return EverettKv.configs().stream();
    }

    /** The log, the store descriptor and CURRENT. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("configs")
    void logAndDescriptorDamageFailsNamingTheFileOrRecoversAPrefix(EverettKv.Config config) throws Exception {
        damage(config, java.util.Set.of("log", "descriptor", "current"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("configs")
    void manifestDamageFailsNamingTheFile(EverettKv.Config config) throws Exception {
        damage(config, java.util.Set.of("manifest"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("configs")
    void indexAndFilterDamageFailsNamingTheFileOrAnswersRightly(EverettKv.Config config) throws Exception {
        damage(config, java.util.Set.of("index", "filter"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("configs")
    void nativeDamageFailsNamingTheFileOrAnswersRightly(EverettKv.Config config) throws Exception {
        damage(config, java.util.Set.of("native"));
    }

    private static final Map<String, int[]> TRIED = new TreeMap<>();

    private static synchronized void tally(String kind, int flips, int truncations, int prefixRecoveries) {
        int[] t = TRIED.computeIfAbsent(kind, k -> new int[3]);
        t[0] += flips;
        t[1] += truncations;
        t[2] += prefixRecoveries;
        StringBuilder sb = new StringBuilder();
        int total = 0;
        for (var e : TRIED.entrySet()) {
            sb.append(e.getKey()).append(' ').append(e.getValue()[0]).append(" flips/").append(e.getValue()[1]).append(" cuts");
            if (e.getValue()[2] > 0) {
                sb.append(" (").append(e.getValue()[2]).append(" recovered to a prefix)");
            }
            sb.append("; ");
            total += e.getValue()[0] + e.getValue()[1];
        }
        EquivalenceFigures.record("damaged files", total + " damages tried, no wrong answer: " + sb);
    }

    static byte[] key(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private void damage(EverettKv.Config config, java.util.Set<String> kinds) throws Exception {
        long seed = Systems.seeds(1)[0];
        Random r = new Random(seed);
        Path dir = Files.createDirectories(tempDir.resolve("db"));
        TreeMap<byte[], byte[]> model = new TreeMap<>(Bytes::compare);
        try (EverettDB db = EverettDB.open(dir, config.options().setBloomBitsPerKey(10))) {
            for (int i = 0; i < 3000; i++) {
                byte[] k = key(String.format("k%04d", r.nextInt(1500)));
                if (r.nextInt(6) == 0) {
                    db.delete(k);
                    model.remove(k);
                } else {
                    byte[] v = Bytes.pattern(16 + r.nextInt(200), seed + i);
                    db.put(k, v);
                    model.put(k, v);
                }
                if (i % 1000 == 999) {
                    db.flush();
                }
            }
            db.compactRange();
            try (WriteOptions sync = new WriteOptions().setSync(true)) {
                for (int i = 0; i < TAIL; i++) {
                    byte[] k = key(String.format("tail%03d", i));
                    byte[] v = Bytes.pattern(40, -1 - i);
                    db.put(sync, k, v);
                    model.put(k, v);
                }
            }
        }
        // Opening a store rewrites its directory (a new log, a new manifest), so every damage starts
        // from a pristine copy.
        Path pristineDir = tempDir.resolve("pristine");
        StoreCopies.copyTree(dir, pristineDir);
        List<Path> files;
        try (Stream<Path> s = Files.walk(pristineDir)) {
            files = s.filter(Files::isRegularFile).filter(p -> !p.getFileName().toString().equals("LOCK"))
                    .map(pristineDir::relativize).sorted().toList();
        }
        String where = config.name() + " seed " + seed + " (replay with " + Systems.replayHint(seed) + ")";
        for (Path relative : files) {
            byte[] pristine = Files.readAllBytes(pristineDir.resolve(relative));
            if (pristine.length == 0) {
                continue;
            }
            Path file = dir.resolve(relative);
            String kind = FileKinds.of(file);
            if (!kinds.contains(kind)) {
                continue;
            }
            int flips = 0;
            int cuts = 0;
            int prefixes = 0;
            for (int i = 0; i < FLIPS_PER_FILE; i++) {
                byte[] damaged = pristine.clone();
                int bit = r.nextInt(damaged.length * 8);
                damaged[bit >>> 3] ^= (byte) (1 << (bit & 7));
                restore(pristineDir, dir);
                Files.write(file, damaged);
                prefixes += check(dir, config, model, file, kind, where + ": bit " + bit + " of " + relative + " flipped") ? 1 : 0;
                flips++;
            }
            for (long cut : new long[] {0, pristine.length / 2, pristine.length - 1, r.nextInt(pristine.length)}) {
                restore(pristineDir, dir);
                Files.write(file, Arrays.copyOf(pristine, (int) cut));
                prefixes += check(dir, config, model, file, kind, where + ": " + relative + " cut to " + cut + " of " + pristine.length + " bytes") ? 1 : 0;
                cuts++;
            }
            tally(kind, flips, cuts, prefixes);
        }
    }

    private static void restore(Path pristine, Path dir) throws IOException {
        Equivalence.deleteTree(dir);
        StoreCopies.copyTree(pristine, dir);
    }

    /** True when the store recovered the log to a proper prefix (allowed for the log only). */
    private static boolean check(Path dir, EverettKv.Config config, TreeMap<byte[], byte[]> model, Path file, String kind, String where) {
        TreeMap<byte[], byte[]> seen = new TreeMap<>(Bytes::compare);
        try (EverettDB db = EverettDB.open(dir, config.options().setBloomBitsPerKey(10))) {
            try (EverettIterator it = db.newIterator()) {
                for (it.seekToFirst(); it.isValid(); it.next()) {
                    seen.put(it.key(), it.value());
                }
            }
            for (byte[] k : model.keySet()) {
                byte[] got = db.get(k);
                if (!Arrays.equals(got, seen.get(k))) {
                    throw new AssertionFailedError(where + ": get and the iterator disagree on " + Bytes.show(k) + ": get "
                            + Bytes.show(got) + ", iterator " + Bytes.show(seen.get(k)) + ", written " + Bytes.show(model.get(k)));
                }
            }
        } catch (RuntimeException e) {
            if (!names(e, file)) {
                throw new AssertionFailedError(where + ": the failure does not name " + file.getFileName() + ": " + e, e);
            }
            return false;
        }
        if (sameMap(seen, model)) {
            return false;
        }
        if (kind.equals("log")) {
            // Everything but the tail intact, and the tail a prefix.
            int present = 0;
            for (int i = 0; i < TAIL; i++) {
                byte[] k = key(String.format("tail%03d", i));
                if (seen.containsKey(k)) {
                    if (present != i || !Arrays.equals(seen.get(k), model.get(k))) {
                        throw new AssertionFailedError(where + ": the log recovered to no prefix (tail key " + i + ")");
                    }
                    present++;
                }
            }
            TreeMap<byte[], byte[]> expected = new TreeMap<>(model);
            for (int i = present; i < TAIL; i++) {
                expected.remove(key(String.format("tail%03d", i)));
            }
            if (sameMap(seen, expected)) {
                return true;
            }
        }
        throw new AssertionFailedError(where + ": opened and answered wrongly: " + CrashHarness.firstDifference(model, seen));
    }

    static boolean names(Throwable e, Path file) {
        return mentions(e, file.getFileName().toString());
    }

    static boolean mentions(Throwable e, String name) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getMessage() != null && t.getMessage().contains(name)) {
                return true;
            }
        }
        return false;
    }

    static boolean sameMap(TreeMap<byte[], byte[]> a, TreeMap<byte[], byte[]> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (var e : a.entrySet()) {
            if (!Arrays.equals(e.getValue(), b.get(e.getKey()))) {
                return false;
            }
        }
        return true;
    }
}

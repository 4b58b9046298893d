package dev.everett.store;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The tree's manifest and CURRENT damaged under a store: flipped bits and every cut either
 * fails naming the damaged file or opens with every acknowledged write; never a silent loss of
 * flushed keys with newer logs replayed on top. A genuine crash in a manifest append recovers.
 */
class ManifestRecoveryTest {

    /** On a memory file system where the machine has one: these tests open a store thousands of times. */
    @TempDir(factory = MemoryTempDir.class)
    Path dir;

    private static byte[] b(String s) {
        return s.getBytes(UTF_8);
    }

    /** A store with two flushes and logged writes after them; returns what it holds. */
    private TreeMap<String, String> build(Path db) {
        TreeMap<String, String> model = new TreeMap<>();
        try (EverettDB d = EverettDB.open(db, new DBOptions().setDisableAutoCompactions(true))) {
            for (int round = 0; round < 3; round++) {
                for (int i = 0; i < 20; i++) {
                    String k = "k" + round + "-" + i;
                    d.put(b(k), b("v" + round + "-" + i));
                    model.put(k, "v" + round + "-" + i);
                }
                if (round < 2) {
                    d.flush();
                }
            }
        }
        return model;
    }

    private static Map<String, byte[]> files(Path root) throws IOException {
        Map<String, byte[]> out = new TreeMap<>();
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.filter(Files::isRegularFile).filter(p -> !p.getFileName().toString().equals("LOCK")).toList()) {
                out.put(root.relativize(p).toString(), Files.readAllBytes(p));
            }
        }
        return out;
    }

    private static void restore(Map<String, byte[]> pristine, Path root, String damagedFile, byte[] damaged) throws IOException {
        if (Files.exists(root)) {
            try (Stream<Path> s = Files.walk(root)) {
                for (Path q : s.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(q);
                }
            }
        }
        for (Map.Entry<String, byte[]> e : pristine.entrySet()) {
            Path t = root.resolve(e.getKey());
            Files.createDirectories(t.getParent());
            Files.write(t, e.getKey().equals(damagedFile) ? damaged : e.getValue());
        }
    }

    /** Opens the damaged store: true if it opened holding exactly {@code model}, false if it refused naming the file. */
    private static boolean openAndCheck(Path root, Path damaged, TreeMap<String, String> model, String what) {
        try (EverettDB d = EverettDB.open(root)) {
            TreeMap<String, String> seen = new TreeMap<>();
            try (EverettIterator it = d.newIterator()) {
                for (it.seekToFirst(); it.isValid(); it.next()) {
                    seen.put(new String(it.key(), UTF_8), new String(it.value(), UTF_8));
                }
            }
            assertEquals(model, seen, what + ": opened, so every acknowledged write must be there");
            return true;
        } catch (RuntimeException e) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t.getMessage() != null && t.getMessage().contains(damaged.getFileName().toString())) {
                    return false;
                }
            }
            throw new AssertionError(what + ": the failure does not name " + damaged.getFileName() + ": " + e, e);
        }
    }

    private static String manifestName(Map<String, byte[]> pristine) {
        for (String k : pristine.keySet()) {
            if (Path.of(k).getFileName().toString().startsWith("MANIFEST-")) {
                return k;
            }
        }
        throw new AssertionError("no manifest in " + pristine.keySet());
    }

    @Test
    void flippedBitsAndEveryCutOfTheManifestFailNamingItOrLoseNothing() throws IOException {
        Path db = dir.resolve("pristine");
        TreeMap<String, String> model = build(db);
        Map<String, byte[]> pristine = files(db);
        String rel = manifestName(pristine);
        byte[] m = pristine.get(rel);
        Path root = dir.resolve("trial");
        Path file = root.resolve(rel);
        int refused = 0;
        // Every third bit: each byte is hit two or three times, at every bit position in turn.
        for (int bit = 0; bit < m.length * 8; bit += 3) {
            byte[] d = m.clone();
            d[bit >>> 3] ^= (byte) (1 << (bit & 7));
            restore(pristine, root, rel, d);
            refused += openAndCheck(root, file, model, "bit " + bit + " of " + rel + " flipped") ? 0 : 1;
        }
        for (int cut = 0; cut < m.length; cut++) {
            restore(pristine, root, rel, Arrays.copyOf(m, cut));
            refused += openAndCheck(root, file, model, rel + " cut to " + cut + " of " + m.length) ? 0 : 1;
        }
        assertTrue(refused > m.length, "most damage is refused: " + refused);
    }

    @Test
    void aManifestCutAtARecordBoundaryIsRefusedSayingWhichLogIsMissing() throws IOException {
        Path db = dir.resolve("db");
        build(db);
        Path tree = db.resolve(EverettDB.TREE_DIR);
        Path manifest;
        try (Stream<Path> s = Files.list(tree)) {
            manifest = s.filter(p -> p.getFileName().toString().startsWith("MANIFEST-")).findFirst().orElseThrow();
        }
        byte[] m = Files.readAllBytes(manifest);
        int first = 8 + (((m[0] & 0xFF) << 24) | ((m[1] & 0xFF) << 16) | ((m[2] & 0xFF) << 8) | (m[3] & 0xFF));
        Files.write(manifest, Arrays.copyOf(m, first));
        Map<String, byte[]> before = files(db);
        CorruptFileException e = assertThrows(CorruptFileException.class, () -> EverettDB.open(db));
        assertEquals(manifest, e.file());
        assertTrue(e.rule().contains("oldest log present") && e.rule().contains("edits of the manifest were lost"), e.rule());
        Map<String, byte[]> after = files(db);
        assertEquals(before.keySet(), after.keySet(), "a refused open leaves every file as it was");
        for (String k : before.keySet()) {
            assertArrayEquals(before.get(k), after.get(k), k);
        }
    }

    @Test
    void aLogMissingBetweenTwoOthersIsRefused() throws IOException {
        Path db = dir.resolve("db");
        try (EverettDB d = EverettDB.open(db)) {
            d.put(b("a"), b("1"));
        }
        // Abandon a store with three logs: the oldest needed and two written after it.
        Path log;
        try (Stream<Path> s = Files.list(db)) {
            log = s.filter(p -> WriteAheadLog.numberOf(p) >= 0).max(Comparator.naturalOrder()).orElseThrow();
        }
        long n = WriteAheadLog.numberOf(log);
        Files.copy(log, db.resolve(WriteAheadLog.fileName(n + 2)));
        CorruptFileException e = assertThrows(CorruptFileException.class, () -> EverettDB.open(db));
        assertEquals(db.resolve(WriteAheadLog.fileName(n + 1)), e.file());
        assertTrue(e.rule().contains("log is missing"), e.rule());
    }

    @Test
    void everyDamageToCurrentFailsNamingCurrent() throws IOException {
        Path db = dir.resolve("pristine");
        TreeMap<String, String> model = build(db);
        Map<String, byte[]> pristine = files(db);
        String rel = EverettDB.TREE_DIR + "/CURRENT";
        byte[] c = pristine.get(rel);
        Path root = dir.resolve("trial");
        for (int bit = 0; bit < c.length * 8; bit++) {
            byte[] d = c.clone();
            d[bit >>> 3] ^= (byte) (1 << (bit & 7));
            restore(pristine, root, rel, d);
            if (openAndCheck(root, root.resolve(rel), model, "bit " + bit + " of CURRENT flipped")) {
                fail("bit " + bit + " of CURRENT flipped: opened");
            }
        }
        for (int cut = 0; cut < c.length; cut++) {
            restore(pristine, root, rel, Arrays.copyOf(c, cut));
            if (openAndCheck(root, root.resolve(rel), model, "CURRENT cut to " + cut)) {
                fail("CURRENT cut to " + cut + ": opened");
            }
        }
    }

    @Test
    void aCrashTearingAManifestAppendLosesNoAcknowledgedWrite() throws IOException {
        Path db = dir.resolve("db");
        CrashingTreeFiles crash = new CrashingTreeFiles();
        EverettDB d = EverettDB.open(db, new DBOptions().setWriteBufferSize(4096).setTreeFiles(crash));
        crash.armTorn();
        int acknowledged = 0;
        try {
            for (int i = 0; i < 200_000; i++) {
                d.put(b("k" + i), b("value-" + i));
                acknowledged = i + 1;
            }
        } catch (IllegalStateException | UncheckedIOException refused) {
            // The failed flush is noticed and writes are refused.
        }
        assertTrue(crash.crashed(), "the flush reached its manifest edit");
        try {
            d.close();
        } catch (UncheckedIOException expected) {
            // The crashed file system fails the tree's close too.
        }
        try (EverettDB r = EverettDB.open(db)) {
            for (int i = 0; i < acknowledged; i++) {
                assertArrayEquals(b("value-" + i), r.get(b("k" + i)), "k" + i);
            }
            assertNull(r.get(b("k" + acknowledged)));
        }
    }
}

package dev.everett.compaction;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.everett.api.ObjectId;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Bits of a small manifest flipped and every length it can be cut to: each open either
 * fails with a {@link CorruptManifestException} naming the damaged file, or recovers the state of
 * a complete prefix of the edits, reporting a torn tail exactly when it dropped a partial or
 * unverifiable last record. A {@link RecoveryCheck} that refuses leaves every file as it was.
 */
class ManifestDamageTest {
    @TempDir(factory = MemoryTempDir.class)
    Path dir;

    /** What one open saw: the host state and torn flag the check was given. */
    private static final class Seen implements RecoveryCheck {
        byte[] hostState;
        Boolean torn;
        Path manifest;
        final boolean refuse;

        Seen(boolean refuse) {
            this.refuse = refuse;
        }

        @Override
        public void check(Path manifest, byte[] hostState, boolean tornTail) throws IOException {
            this.manifest = manifest;
            this.hostState = hostState;
            this.torn = tornTail;
            if (refuse) {
                throw new Refused();
            }
        }
    }

    private static final class Refused extends IOException {
        Refused() {
            super("refused by the host");
        }
    }

    private static TreeOptions options(Layout layout) {
        return layout == Layout.PARTITIONED ? TreeOptions.partitioned() : TreeOptions.wholeRun();
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** The pristine tree: a snapshot and three flushes; the states after 0..3 edits. */
    private record Pristine(Path root, Map<String, byte[]> files, Path manifest, List<Integer> boundaries,
                            List<List<List<ObjectId>>> shapes, List<byte[]> hosts) {
    }

    private Pristine build(Layout layout) throws IOException {
        Path root = dir.resolve("pristine");
        List<List<List<ObjectId>>> shapes = new ArrayList<>();
        List<byte[]> hosts = new ArrayList<>();
        try (LsmTree tree = LsmTree.open(root, options(layout))) {
            shapes.add(shape(tree));
            hosts.add(new byte[0]);
            for (int run = 1; run <= 3; run++) {
                TreeMap<byte[], byte[]> m = Fixtures.newModel();
                for (int i = 0; i < 3; i++) {
                    m.put(b("k" + run + i), b("v" + run));
                }
                tree.flush(SortedEntries.of(m.entrySet().iterator()), b("host" + run));
                shapes.add(shape(tree));
                hosts.add(b("host" + run));
            }
        }
        Path manifest = root.resolve(Manifest.readCurrent(root.resolve(Manifest.CURRENT), Files.readAllBytes(root.resolve(Manifest.CURRENT))));
        byte[] m = Files.readAllBytes(manifest);
        List<Integer> boundaries = new ArrayList<>();
        for (int at = 0; at < m.length; at += 8 + (((m[at] & 0xFF) << 24) | ((m[at + 1] & 0xFF) << 16) | ((m[at + 2] & 0xFF) << 8) | (m[at + 3] & 0xFF))) {
            boundaries.add(at);
        }
        boundaries.add(m.length);
        assertEquals(5, boundaries.size(), "a snapshot and three edits");
        return new Pristine(root, snapshot(root), manifest, boundaries, shapes, hosts);
    }

    private static List<List<ObjectId>> shape(LsmTree tree) {
        return LifecycleTest.shape(tree);
    }

    /** {@code b} with bit {@code bit} (counted from the first byte's lowest bit) flipped. */
    private static byte[] flipped(byte[] b, int bit) {
        byte[] d = b.clone();
        d[bit >>> 3] ^= (byte) (1 << (bit & 7));
        return d;
    }

    private static Map<String, byte[]> snapshot(Path root) throws IOException {
        Map<String, byte[]> out = new TreeMap<>();
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.filter(Files::isRegularFile).toList()) {
                out.put(root.relativize(p).toString(), Files.readAllBytes(p));
            }
        }
        return out;
    }

    private Path restore(Pristine p, String relative, byte[] damaged) throws IOException {
        Path root = dir.resolve("trial");
        if (Files.exists(root)) {
            try (Stream<Path> s = Files.walk(root)) {
                for (Path q : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(q);
                }
            }
        }
        for (Map.Entry<String, byte[]> e : p.files().entrySet()) {
            Path t = root.resolve(e.getKey());
            Files.createDirectories(t.getParent());
            Files.write(t, e.getKey().equals(relative) ? damaged : e.getValue());
        }
        return root;
    }

    /**
     * Opens the damaged tree twice: with a refusing check (nothing may change) and with an
     * accepting one. Returns the number of complete edits the tree recovered, or -1 if it refused.
     */
    private int open(Pristine p, Layout layout, String relative, byte[] damaged, String what) throws IOException {
        Path root = restore(p, relative, damaged);
        Path file = root.resolve(relative);
        Map<String, byte[]> before = snapshot(root);
        Seen refusing = new Seen(true);
        try {
            LsmTree.open(root, options(layout), refusing).close();
            fail(what + ": the refusing check was not consulted");
        } catch (Refused expected) {
            // The check ran: nothing may have been written.
        } catch (CorruptManifestException e) {
            assertEquals(file, e.file(), what + ": " + e.getMessage());
            assertTrue(e.getMessage().contains(file.getFileName().toString()), what + ": " + e.getMessage());
            assertUnchanged(before, snapshot(root), what);
            return -1;
        }
        assertUnchanged(before, snapshot(root), what + " (refused by the host)");
        Seen accepting = new Seen(false);
        try (LsmTree tree = LsmTree.open(root, options(layout), accepting)) {
            int edits = -1;
            for (int k = 0; k < p.hosts().size(); k++) {
                if (Arrays.equals(p.hosts().get(k), accepting.hostState)) {
                    edits = k;
                }
            }
            assertTrue(edits >= 0, what + ": recovered a host state no prefix held");
            assertEquals(p.shapes().get(edits), shape(tree), what + ": the shape of " + edits + " edits");
            assertEquals(refusing.torn, accepting.torn);
            assertArrayEquals(refusing.hostState, accepting.hostState);
            return accepting.torn ? -2 - edits : edits;
        }
    }

    private static void assertUnchanged(Map<String, byte[]> before, Map<String, byte[]> after, String what) {
        assertEquals(before.keySet(), after.keySet(), what + ": the files");
        for (String k : before.keySet()) {
            assertArrayEquals(before.get(k), after.get(k), what + ": " + k);
        }
    }

    private static int editsOf(int outcome) {
        return outcome >= 0 ? outcome : -2 - outcome;
    }

    @ParameterizedTest
    @EnumSource(Layout.class)
    void everyFlippedBitFailsNamingTheManifestOrDropsOnlyAnUnverifiableLastRecord(Layout layout) throws IOException {
        Pristine p = build(layout);
        String rel = p.root().relativize(p.manifest()).toString();
        byte[] pristine = p.files().get(rel);
        int last = p.boundaries().get(3);
        int refused = 0;
        // Every bit of the partitioned tree's manifest; a whole-run tree's is larger and slower to
        // open, so there every seventh bit (at least one in every byte, each bit position in turn).
        int step = layout == Layout.PARTITIONED ? 1 : 7;
        for (int bit = 0; bit < pristine.length * 8; bit += step) {
            String what = layout + ": bit " + bit + " of " + rel + " flipped";
            int outcome = open(p, layout, rel, flipped(pristine, bit), what);
            if (outcome == -1) {
                refused++;
                continue;
            }
            // A bit flip leaves every record's bytes in place: only the last record can go, and
            // only as a torn tail, reported to the host (which can tell whether it was acted on).
            assertTrue(outcome < -1 && (bit >>> 3) >= last, what + ": opened as " + editsOf(outcome) + " edits");
            assertEquals(2, editsOf(outcome), what);
        }
        assertTrue(refused > 0);
    }

    @ParameterizedTest
    @EnumSource(Layout.class)
    void everyCutRecoversTheEditsBeforeItAndReportsATornTailInsideARecord(Layout layout) throws IOException {
        Pristine p = build(layout);
        String rel = p.root().relativize(p.manifest()).toString();
        byte[] pristine = p.files().get(rel);
        for (int cut = 0; cut < pristine.length; cut++) {
            String what = layout + ": " + rel + " cut to " + cut + " of " + pristine.length;
            int outcome = open(p, layout, rel, Arrays.copyOf(pristine, cut), what);
            if (cut < p.boundaries().get(1)) {
                assertEquals(-1, outcome, what + ": no complete snapshot");
                continue;
            }
            int complete = 0;
            while (p.boundaries().get(complete + 1) <= cut) {
                complete++;
            }
            boolean atBoundary = p.boundaries().contains(cut);
            assertEquals(complete - 1, editsOf(outcome), what);
            assertEquals(!atBoundary, outcome < -1, what + ": torn tail reported");
        }
    }

    @ParameterizedTest
    @EnumSource(Layout.class)
    void aDamagedCurrentFailsNamingCurrent(Layout layout) throws IOException {
        Pristine p = build(layout);
        byte[] pristine = p.files().get(Manifest.CURRENT);
        for (int bit = 0; bit < pristine.length * 8; bit++) {
            assertEquals(-1, open(p, layout, Manifest.CURRENT, flipped(pristine, bit), layout + ": bit " + bit + " of CURRENT flipped"));
        }
        for (int cut = 0; cut < pristine.length; cut++) {
            assertEquals(-1, open(p, layout, Manifest.CURRENT, Arrays.copyOf(pristine, cut), layout + ": CURRENT cut to " + cut));
        }
        // A CURRENT naming a manifest that is gone names CURRENT too.
        Path root = restore(p, Manifest.CURRENT, Manifest.currentFor("MANIFEST-000009"));
        CorruptManifestException e = assertThrows(CorruptManifestException.class, () -> LsmTree.open(root, options(layout)));
        assertEquals(root.resolve(Manifest.CURRENT), e.file());
        assertTrue(e.getMessage().contains("MANIFEST-000009"), e.getMessage());
    }
}

package dev.everett.segment.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.everett.api.CommonWidthRule;
import dev.everett.api.Lookup;
import dev.everett.api.ObjectId;
import dev.everett.segment.cascade.Cascade;
import dev.everett.segment.io.Envelope;
import dev.everett.segment.io.LittleEndian;
import dev.everett.segment.natives.Kv02Directory;
import dev.everett.segment.natives.NativeWriter;
import dev.everett.segment.objects.OpenObjects;
import dev.everett.segment.testing.GoldenFiles;
import dev.everett.segment.testing.Rec;
import dev.everett.segment.testing.SegmentFixtures;
import dev.everett.segment.testing.WorkedDumps;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The committed golden IX03 chains (src/test/resources/golden-ix03/, described in
 * {@link GoldenIndexFiles}) pin our writer's and builder's bytes, the chain layout and the
 * cascade's answers; the worked example is also compared with the bytes derived independently
 * by hand (docs/format.md, "Worked examples").
 *
 * <p>To regenerate after an intended format change:
 * <pre>
 *   ./.ci/with-jdk25 ./mvnw -q -pl segment -am test -Dtest=GoldenIndexTest \
 *       -Deverett.golden.regenerate=true -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 */
class GoldenIndexTest {
    private static final HexFormat HEX = HexFormat.of();

    @BeforeAll
    static void regenerateIfAsked() throws IOException {
        if (Boolean.getBoolean(GoldenFiles.REGENERATE)) {
            GoldenIndexFiles.regenerate(GoldenIndexFiles.dir());
        }
    }

    static Stream<GoldenIndexFiles.Chain> chains() {
        return GoldenIndexFiles.chains(GoldenIndexFiles.dir()).stream();
    }

    /**
     * Rewrites every object of the chain from the jsonl lists and the manifest alone (same
     * identities, same build order) and compares the bytes of each with the committed file.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("chains")
    void rewritingEveryObjectGivesTheCommittedBytes(GoldenIndexFiles.Chain chain, @TempDir Path root) throws IOException {
        Path dir = GoldenIndexFiles.dir();
        try (OpenObjects store = new OpenObjects(root, chain.policy())) {
            Map<ObjectId, Catalog> catalogs = new HashMap<>();
            for (GoldenIndexFiles.Obj o : chain.objects()) {
                if (o.kind() == GoldenIndexFiles.Kind.NATIVE) {
                    try (NativeWriter w = store.newNative(o.id(), CommonWidthRule.policy())) {
                        SegmentFixtures.putAll(w, chain.records().get(o.id()));
                        w.finish();
                    }
                } else {
                    Catalog main = o.mainIndex() == null ? null : catalogs.get(o.mainIndex());
                    Catalog c = store.index(o.nativeId(), main, o.secondary(), o.id());
                    catalogs.put(o.id(), c);
                    assertEquals(o.virtualCount(), c.virtualCount(), o + " V");
                    assertEquals(o.mainCount(), c.index.directory().counts()[0], o + " main count");
                    assertEquals(o.secondaryCount(), c.index.directory().counts()[1], o + " secondary count");
                }
                byte[] expected = Files.readAllBytes(dir.resolve(o.file()));
                byte[] actual = Files.readAllBytes(o.storePath(root));
                int at = Arrays.mismatch(expected, actual);
                assertEquals(-1, at, () -> o + ": first difference at byte " + at + " (sizes " + expected.length + " / " + actual.length + ")");
                assertEquals(o.bytes(), actual.length, o + " size");
            }
        }
    }

    /** Opens the committed chain from its head pair, verifies it and asks every key and many misses. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("chains")
    void theCommittedChainOpensVerifiesAndAnswersLikeTheModel(GoldenIndexFiles.Chain chain, @TempDir Path root) throws IOException {
        chain.install(GoldenIndexFiles.dir(), root);
        try (OpenObjects store = new OpenObjects(root, chain.policy())) {
            Catalog head = store.openChain(chain.headNative(), chain.headIndex());
            // The chain the store follows is the one the manifest describes.
            List<GoldenIndexFiles.Level> levels = chain.levels();
            Catalog c = head;
            for (GoldenIndexFiles.Level l : levels) {
                assertEquals(l.index().id(), c.indexId, chain + " level " + l.index());
                assertEquals(l.nativeObj().id(), c.nativeId);
                assertEquals(l.nativeObj().records(), c.nativeReader.recordCount());
                assertEquals(l.index().virtualCount(), c.virtualCount());
                assertEquals(l.secondaryObj() == null ? ObjectId.NONE : l.secondaryObj().id(), c.secondaryId);
                c = c.main;
            }
            assertEquals(null, c, chain + ": the store's chain is deeper than the manifest's");
            assertTrue(head.virtualCount() <= chain.policy().groupSize(), "a head holds at most K");
            head.verify();
            Cascade cascade = new Cascade(head);
            List<String> wrong = new ArrayList<>();
            int hits = 0;
            for (byte[] q : chain.queries()) {
                Rec expected = chain.model(q);
                Lookup got = cascade.get(q, q.length);
                hits += expected == null ? 0 : 1;
                if (!GoldenIndexFiles.agrees(got, expected)) {
                    wrong.add(HEX.formatHex(q) + ": got " + GoldenIndexFiles.describe(got) + ", expected " + GoldenIndexFiles.describe(expected));
                }
            }
            assertEquals(List.of(), wrong, chain.name());
            assertTrue(hits > 0 || chain.records().values().stream().allMatch(List::isEmpty), chain + " asks some hits");
        }
    }

    /** Every object also opens on its own, and each index passes its self-contained checks. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("chains")
    void everyIndexPassesItsOwnChecks(GoldenIndexFiles.Chain chain) throws IOException {
        Path dir = GoldenIndexFiles.dir();
        for (GoldenIndexFiles.Obj o : chain.indexes()) {
            try (IndexReader r = IndexReader.open(dir.resolve(o.file()), chain.policy())) {
                assertEquals(o.virtualCount(), r.virtualCount(), o.toString());
                assertEquals(o.nativeId(), r.nativeId());
                assertEquals(o.mainCount() + o.secondaryCount(), r.verify());
            }
        }
    }

    // ---------------------------------------------------------------------------------------
    // The IX03 worked example of docs/format.md, byte for byte.

    /** H.index as derived by hand (704 bytes). */
    private static final String NOTE_H_INDEX = WorkedDumps.text("ix03-H.index.hex");

    /** R.index (the head; our R1) as dumped in the note (664 bytes). */
    private static final String NOTE_R_INDEX = WorkedDumps.text("ix03-R1.index.hex");

    /**
     * T.index (terminal, 656 bytes) from the note's field list, descriptor list, the rows it
     * prints in full and its CRCs; everything the note elides is zero.
     */
    static byte[] noteTerminalIndex() {
        byte[] b = new byte[656];
        put(b, 0x00, "45 56 52 54 2e 49 58 00 01 00 60 00 02 00 00 00");
        put(b, 0x10, "00 01 00 00 02 00 00 00 03 00 00 00 00 00 00 00");
        put(b, 0x30, "30 02 00 00 00 00 00 00 00 00 00 00 00 00 00 00");
        put(b, 0x40, "d4 a6 f4 63 99 04 4c d4 60 00 00 00 00 00 00 00");
        put(b, 0x50, "90 02 00 00 00 00 00 00 00 00 00 00 00 00 00 00");
        put(b, 0x60, "49 58 30 33 03 00 12 00 05 00 00 00 00 00 00 00");
        b[0xc7] = 1; // native id …01 at body 88
        long[][] descriptors = {{448, 0}, {448, 0}, {448, 8}, {456, 16}, {472, 0}, {472, 0}, {472, 0}, {472, 8}, {480, 16},
                {496, 0}, {496, 8}, {504, 8}, {512, 8}, {520, 8}, {528, 0}, {528, 0}, {528, 16}, {544, 16}};
        for (int s = 0; s < descriptors.length; s++) {
            LittleEndian.putU64(b, 0x100 + 16 * s, descriptors[s][0]);
            LittleEndian.putU64(b, 0x108 + 16 * s, descriptors[s][1]);
        }
        put(b, 0x220, "01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00");
        put(b, 0x230, "ff ff ff ff ff ff ff ff 01 00 00 00 00 00 00 00");
        put(b, 0x240, "00 00 00 00 00 00 00 00 ff ff ff ff ff ff ff ff");
        return b;
    }

    private static void put(byte[] b, int at, String hex) {
        byte[] row = parse(hex);
        System.arraycopy(row, 0, b, at, row.length);
    }

    static byte[] parse(String dump) {
        return HEX.parseHex(dump.replaceAll("\\s+", ""));
    }

    /** The note's T.kv: the rows and FC bytes it prints (everything else follows from its field list). */
    private static final String NOTE_T_KV_FC = "00 01 01 61 31 00 01 01 61 32 01 01 01 62 33 02 01 01 62 34 00 01 01 64 35";

    /** Natives: the note gives sizes and both CRCs (body, header). */
    private static final Object[][] NOTE_NATIVES = {
            {"T", 288, 0x587fda1dL, 0xe792f3acL},
            {"S", 280, 0x64ed2211L, 0xb86f4b40L},
            {"H", 272, 0xfb9a0c9cL, 0xf2773ceeL},
            {"E", 248, 0x5eeaf19cL, 0x5b8f529fL}};

    @Test
    void workedExampleEqualsTheNotesBytes() throws IOException {
        Path dir = GoldenIndexFiles.dir();
        GoldenIndexFiles.Chain chain = chains().filter(c -> c.name().equals("worked-example")).findFirst().orElseThrow();
        // Identities 1–7 in the note's order.
        String[][] ids = {{"T", "native", "1"}, {"T", "index", "2"}, {"S", "native", "3"}, {"H", "native", "4"},
                {"H", "index", "5"}, {"E", "native", "6"}, {"R1", "index", "7"}};
        for (String[] id : ids) {
            GoldenIndexFiles.Obj o = chain.objects().stream().filter(x -> x.role().equals(id[0]) && x.kind().name().equalsIgnoreCase(id[1]))
                    .findFirst().orElseThrow();
            assertEquals(new ObjectId(0, Long.parseLong(id[2])), o.id(), o.toString());
        }
        List<String> differences = new ArrayList<>();
        compare(differences, "H.index", parse(NOTE_H_INDEX), Files.readAllBytes(dir.resolve("worked-example-H.index")));
        compare(differences, "R.index", parse(NOTE_R_INDEX), Files.readAllBytes(dir.resolve("worked-example-R1.index")));
        compare(differences, "T.index", noteTerminalIndex(), Files.readAllBytes(dir.resolve("worked-example-T.index")));
        for (Object[] n : NOTE_NATIVES) {
            byte[] ours = Files.readAllBytes(dir.resolve("worked-example-" + n[0] + ".kv"));
            if (ours.length != (int) n[1]) {
                differences.add(n[0] + ".kv: size " + ours.length + ", note " + n[1]);
            }
            long body = u32(ours, Envelope.BODY_CRC_OFFSET);
            long header = u32(ours, Envelope.HEADER_CRC_OFFSET);
            if (body != (long) n[2] || header != (long) n[3]) {
                differences.add(n[0] + ".kv: CRCs " + Long.toHexString(body) + "/" + Long.toHexString(header)
                        + ", note " + Long.toHexString((long) n[2]) + "/" + Long.toHexString((long) n[3]));
            }
        }
        byte[] t = Files.readAllBytes(dir.resolve("worked-example-T.kv"));
        byte[] fc = parse(NOTE_T_KV_FC);
        int fcAt = Envelope.BYTES + Kv02Directory.BYTES;
        if (!Arrays.equals(fc, Arrays.copyOfRange(t, fcAt, fcAt + fc.length))) {
            differences.add("T.kv FC bytes differ from the note's");
        }
        if (!differences.isEmpty()) {
            fail("the worked example differs from its hand-derived bytes (docs/format.md):\n" + String.join("\n", differences));
        }
    }

    /** The worked example's walk-throughs on the committed chain: get(b) = 9 (H's native), get(cb) = 8, get("") absent. */
    @Test
    void workedExampleAnswersLikeTheNotesWalkThroughs(@TempDir Path root) throws IOException {
        GoldenIndexFiles.Chain chain = chains().filter(c -> c.name().equals("worked-example")).findFirst().orElseThrow();
        chain.install(GoldenIndexFiles.dir(), root);
        try (OpenObjects store = new OpenObjects(root, chain.policy())) {
            Cascade cascade = new Cascade(store.openChain(chain.headNative(), chain.headIndex()));
            String[][] cases = {{"b", "9"}, {"cb", "8"}, {"", null}, {"a", "1"}, {"c", "y"}, {"f", "w"}, {"d", "5"}, {"e", "z"}, {"ba", null}};
            for (String[] c : cases) {
                byte[] q = Rec.bytes(c[0]);
                Lookup got = cascade.get(q, q.length);
                assertEquals(c[1] == null ? Lookup.Status.ABSENT : Lookup.Status.VALUE, got.status(), "get(" + c[0] + ")");
                if (c[1] != null) {
                    assertEquals(c[1], new String(got.valueBytes(), java.nio.charset.StandardCharsets.ISO_8859_1), "get(" + c[0] + ")");
                }
            }
        }
    }

    /** sparse-route's R1 holds a sparse Elias–Fano group in its main route, which lookups select through. */
    @Test
    void sparseRouteHasASparseEliasFanoGroup() throws IOException {
        GoldenIndexFiles.Chain chain = chains().filter(c -> c.name().equals("sparse-route")).findFirst().orElseThrow();
        GoldenIndexFiles.Obj r1 = chain.indexes().stream().filter(o -> o.role().equals("R1")).findFirst().orElseThrow();
        try (IndexReader r = IndexReader.open(GoldenIndexFiles.dir().resolve(r1.file()), chain.policy())) {
            assertTrue(r.directory().lengths()[4] > 0, "R1's main route has sparse Elias–Fano positions");
            assertEquals(3_910, r.directory().counts()[0]);
        }
    }

    private static void compare(List<String> out, String name, byte[] note, byte[] ours) {
        if (note.length != ours.length) {
            out.add(name + ": " + ours.length + " bytes, note " + note.length);
        }
        for (int i = 0; i < Math.min(note.length, ours.length); i++) {
            if (note[i] != ours[i]) {
                out.add(String.format("%s @0x%03x: ours %02x, note %02x", name, i, ours[i] & 0xFF, note[i] & 0xFF));
            }
        }
    }

    private static long u32(byte[] b, int at) {
        return Integer.toUnsignedLong((b[at] & 0xFF) | (b[at + 1] & 0xFF) << 8 | (b[at + 2] & 0xFF) << 16 | (b[at + 3] & 0xFF) << 24);
    }
}

package dev.everett.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.api.CatalogRef;
import dev.everett.api.CorruptSegmentException;
import dev.everett.api.ObjectId;
import dev.everett.segment.testing.FuzzCorpusHarness;
import dev.everett.segment.testing.FuzzInputs;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The seed corpus of {@link ManifestFuzzTest}: metadata, edits, {@code CURRENT} files and whole
 * manifests of both layouts as this module writes them ({@code valid-*}), and a few damaged
 * ones ({@code mut-*}: a torn tail, an edit that cannot apply, a count not in its shortest form).
 * Regenerate with
 * <pre>
 * ./.ci/with-jdk25 ./mvnw -pl compaction -am test -Dtest=ManifestFuzzCorpusTest \
 *     -Dsurefire.failIfNoSpecifiedTests=false -Deverett.fuzz.writeCorpus=true
 * </pre>
 */
class ManifestFuzzCorpusTest extends FuzzCorpusHarness {
    @Override
    protected String resourceDir() {
        return "src/test/resources/dev/everett/compaction/ManifestFuzzTestInputs";
    }

    @Override
    protected Map<String, Map<String, byte[]>> corpus(Path scratch) {
        SegmentMeta a = meta(1, "", "apple", 10, 2, new byte[0], 0);
        SegmentMeta b = meta(2, "apricot", "banana", 7, 0, "host".getBytes(StandardCharsets.UTF_8), 4096);
        SegmentMeta c = meta(3, "", "b", 15, 1, new byte[0], 0);
        SegmentMeta d = meta(4, "c", "z".repeat(300), 1, 1, new byte[200], 64);

        Map<String, byte[]> metas = new LinkedHashMap<>();
        for (SegmentMeta m : List.of(a, b, d)) {
            byte[] full = m.toBytes();
            metas.put("valid-crc-" + m.id().low(), FuzzInputs.withSelector(0, Arrays.copyOf(full, full.length - 4)));
            metas.put("valid-raw-" + m.id().low(), FuzzInputs.withSelector(1, full));
        }
        byte[] wrongVersion = a.toBytes();
        wrongVersion[4] = 2;
        metas.put("mut-version", FuzzInputs.withSelector(0, Arrays.copyOf(wrongVersion, wrongVersion.length - 4)));

        List<Edit> partitioned = List.of(
                new Edit(1, true, Layout.PARTITIONED, null, List.of(), List.of(), null),
                new Edit(2, false, null, null, List.of(), List.of(new Edit.Added(0, a)), null),
                new Edit(3, false, null, "offsets".getBytes(StandardCharsets.UTF_8), List.of(), List.of(new Edit.Added(0, b)), null),
                new Edit(4, false, null, null, List.of(a.id(), b.id()), List.of(new Edit.Added(1, c), new Edit.Added(1, d)), null));
        List<Edit> wholeRun = List.of(
                new Edit(1, true, Layout.WHOLE_RUN, null, List.of(), List.of(), null),
                new Edit(2, false, null, null, List.of(), List.of(new Edit.Added(0, a)), chain(10, 1)),
                new Edit(3, false, null, null, List.of(), List.of(new Edit.Added(0, b)), chain(11, 2)),
                new Edit(4, false, null, new byte[] {1, 2, 3}, List.of(a.id(), b.id()), List.of(new Edit.Added(0, c)), chain(12, 1)));

        Map<String, byte[]> edits = new LinkedHashMap<>();
        for (int i = 0; i < partitioned.size(); i++) {
            edits.put("valid-partitioned-" + i, partitioned.get(i).encode());
            edits.put("valid-whole-run-" + i, wholeRun.get(i).encode());
        }
        byte[] longCount = partitioned.get(3).encode();
        byte[] padded = new byte[longCount.length + 1];
        padded[0] = longCount[0];
        padded[1] = longCount[1];
        padded[2] = (byte) (longCount[2] | 0x80); // the edit number, one byte longer than it needs
        System.arraycopy(longCount, 3, padded, 4, longCount.length - 3);
        edits.put("mut-long-count", padded);

        Map<String, byte[]> currents = new LinkedHashMap<>();
        currents.put("valid-1", Manifest.currentFor("MANIFEST-000001"));
        currents.put("valid-large", Manifest.currentFor("MANIFEST-123456789012345678"));
        byte[] badCrc = Manifest.currentFor("MANIFEST-000002");
        badCrc[badCrc.length - 2] ^= 1;
        currents.put("mut-crc", badCrc);

        Map<String, byte[]> manifests = new LinkedHashMap<>();
        manifests.put("valid-partitioned", manifest(0, partitioned, new byte[0]));
        manifests.put("valid-whole-run", manifest(1, wholeRun, new byte[0]));
        manifests.put("mut-partitioned-torn", manifest(0, partitioned, Arrays.copyOf(Manifest.frame(partitioned.get(3).encode()), 9)));
        manifests.put("mut-whole-run-other-layout", manifest(0, wholeRun, new byte[0]));
        manifests.put("mut-partitioned-replayed-twice", manifest(0, List.of(partitioned.get(0), partitioned.get(1), partitioned.get(1)), new byte[0]));

        Map<String, Map<String, byte[]>> out = new LinkedHashMap<>();
        out.put("segmentMeta", metas);
        out.put("edit", edits);
        out.put("current", currents);
        out.put("manifest", manifests);
        return out;
    }

    /** The seeds say what they are: every valid one is accepted, every damaged one refused as it should be. */
    @Test
    void seedsAreWhatTheirNamesSay(@TempDir Path scratch) throws Exception {
        Map<String, Map<String, byte[]>> seeds = corpus(scratch);
        Path named = Path.of("seed");
        assertSeedsAsNamed(seeds.get("segmentMeta"), CorruptSegmentException.class, d -> {
            byte[] meta = d[0] == 0 ? ManifestFuzzTest.sealed(Arrays.copyOfRange(d, 1, d.length)) : Arrays.copyOfRange(d, 1, d.length);
            SegmentMeta.fromBytes(meta, 0, meta.length, named, 0);
        });
        assertSeedsAsNamed(seeds.get("edit"), CorruptSegmentException.class, d -> Edit.decode(d, 0, d.length, named, 0));
        assertSeedsAsNamed(seeds.get("current"), CorruptManifestException.class, d -> Manifest.readCurrent(named, d));
        Map<String, byte[]> m = seeds.get("manifest");
        assertFalse(replay(scratch, m.get("valid-partitioned")).tornTail());
        assertEquals(2, replay(scratch, m.get("valid-partitioned")).levels().levels().size());
        assertEquals(1, replay(scratch, m.get("valid-whole-run")).levels().levels().size());
        assertTrue(replay(scratch, m.get("mut-partitioned-torn")).tornTail());
        assertThrows(IllegalArgumentException.class, () -> replay(scratch, m.get("mut-whole-run-other-layout")));
        assertThrows(CorruptManifestException.class, () -> replay(scratch, m.get("mut-partitioned-replayed-twice")));
    }

    /** Replays a manifest seed the way {@link ManifestFuzzTest#manifest} builds its file. */
    private static Manifest.Replayed replay(Path dir, byte[] seed) throws IOException {
        Files.write(dir.resolve("MANIFEST-000001"), ManifestFuzzTest.manifestFile(seed));
        Files.write(dir.resolve(Manifest.CURRENT), Manifest.currentFor("MANIFEST-000001"));
        return Manifest.replay(StorageFiles.system(), dir, (seed[0] & 1) == 0 ? Layout.PARTITIONED : Layout.WHOLE_RUN);
    }

    private static SegmentMeta meta(long n, String smallest, String largest, long records, long tombstones, byte[] blob, long filterBytes) {
        return new SegmentMeta(new ObjectId(0x5EED, n), new CatalogRef(new ObjectId(0x5EED, 100 + n), new ObjectId(0x5EED, 200 + n)),
                smallest.getBytes(StandardCharsets.UTF_8), largest.getBytes(StandardCharsets.UTF_8),
                records, tombstones, 4096 * n, 512 * n, filterBytes, blob);
    }

    private static WholeRunChain.State chain(long id, int runs) {
        List<CatalogRef> catalogs = new java.util.ArrayList<>();
        for (int i = 0; i < runs; i++) {
            catalogs.add(new CatalogRef(new ObjectId(id, 2 * i), new ObjectId(id, 2 * i + 1)));
        }
        return new WholeRunChain.State(new ObjectId(id, 0xC4A1), catalogs, new CatalogRef(new ObjectId(id, 98), new ObjectId(id, 99)));
    }

    /** A seed of {@link ManifestFuzzTest#manifest}: the layout byte, each payload with its 2-byte length, then the tail. */
    private static byte[] manifest(int layout, List<Edit> edits, byte[] tail) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(layout);
        for (Edit e : edits) {
            byte[] p = e.encode();
            out.write(p.length >>> 8);
            out.write(p.length);
            out.writeBytes(p);
        }
        out.writeBytes(tail);
        return out.toByteArray();
    }
}

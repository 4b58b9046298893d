package dev.everett.compaction;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.everett.api.CorruptSegmentException;
import dev.everett.segment.testing.FuzzInputs;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * Fuzz targets of the decoders this module owns: the segment metadata serialisation
 * ({@link SegmentMeta#fromBytes}), one manifest edit ({@link Edit#decode}), {@code CURRENT}
 * ({@link Manifest#readCurrent}) and a whole manifest replayed ({@link Manifest#replay}).
 *
 * <p>Damage may be refused only with {@link CorruptSegmentException} (its subclass
 * {@link CorruptManifestException} for manifests) naming the file and an offset inside the input;
 * anything else is a finding. What decodes must be what the encoder writes: metadata and edits
 * re-encode to exactly their input (every count is in its shortest form, so an encoding is
 * unique), {@code CURRENT} is rewritten byte for byte, and a replayed version written back as a
 * snapshot replays to the same version.
 *
 * <p>Seeds: {@code src/test/resources/dev/everett/compaction/ManifestFuzzTestInputs/<method>/},
 * written by {@link ManifestFuzzCorpusTest}. Regression mode runs them in every build; fuzz with
 * (pick a method)
 * <pre>
 * JAZZER_FUZZ=1 ./.ci/with-jdk25 ./mvnw -pl compaction -am test \
 *     -Dtest='ManifestFuzzTest#manifest' -Dsurefire.failIfNoSpecifiedTests=false -Djazzer.max_duration=5m
 * </pre>
 */
class ManifestFuzzTest {
    private static final Path DIR = FuzzInputs.scratchDirectory("everett-manifest-fuzz-");
    private static final Path NAMED = Path.of("fuzz-input");
    /** Where the decoders are told their input lies, so an offset can be checked against it. */
    private static final long BASE = 1000;

    /**
     * Segment metadata. The first byte chooses: even, the rest with its trailing CRC32C recomputed
     * (so mutations reach the fields behind it); odd, the rest as it is.
     */
    @FuzzTest(maxDuration = "1m")
    void segmentMeta(byte[] data) {
        if (data.length == 0) {
            return;
        }
        byte[] meta = (data[0] & 1) == 0 ? sealed(Arrays.copyOfRange(data, 1, data.length)) : Arrays.copyOfRange(data, 1, data.length);
        SegmentMeta m;
        try {
            m = SegmentMeta.fromBytes(meta, 0, meta.length, NAMED, BASE);
        } catch (CorruptSegmentException e) {
            refusedInside(e, meta.length);
            return;
        }
        assertArrayEquals(meta, m.toBytes(), "decoded metadata re-encodes to other bytes");
    }

    /** One edit's payload, as a manifest record holds it after its checksum. */
    @FuzzTest(maxDuration = "1m")
    void edit(byte[] data) {
        Edit e;
        try {
            e = Edit.decode(data, 0, data.length, NAMED, BASE);
        } catch (CorruptSegmentException x) {
            refusedInside(x, data.length);
            return;
        }
        assertArrayEquals(data, e.encode(), "decoded edit re-encodes to other bytes");
    }

    /** The content of {@code CURRENT}. */
    @FuzzTest(maxDuration = "1m")
    void current(byte[] data) {
        String name;
        try {
            name = Manifest.readCurrent(NAMED, data);
        } catch (CorruptManifestException e) {
            assertEquals(NAMED, e.file());
            assertTrue(e.offset() >= 0 && e.offset() <= data.length, "offset " + e.offset() + " outside the input");
            return;
        }
        assertArrayEquals(data, Manifest.currentFor(name), "accepted CURRENT is not what currentFor writes");
        assertTrue(Long.parseLong(name.substring(Manifest.PREFIX.length())) >= 0);
    }

    /**
     * A manifest file. The first byte picks the layout (bit 0) the tree is opened with; the rest
     * is read as records, each a 2-byte big-endian payload length and the payload, framed with a
     * correct length and CRC32C (so mutations reach the edits and the rules of applying them);
     * bytes after the last whole record are appended unframed, a torn or damaged tail.
     */
    @FuzzTest(maxDuration = "2m")
    void manifest(byte[] data) throws IOException {
        if (data.length == 0) {
            return;
        }
        Layout layout = (data[0] & 1) == 0 ? Layout.PARTITIONED : Layout.WHOLE_RUN;
        byte[] bytes = manifestFile(data);

        Path dir = Files.createTempDirectory(DIR, "m");
        try {
            Path manifest = dir.resolve("MANIFEST-000001");
            Files.write(manifest, bytes);
            Files.write(dir.resolve(Manifest.CURRENT), Manifest.currentFor("MANIFEST-000001"));
            Manifest.Replayed r;
            try {
                r = Manifest.replay(StorageFiles.system(), dir, layout);
            } catch (CorruptManifestException e) {
                assertEquals(manifest, e.file());
                assertTrue(e.offset() >= 0 && e.offset() <= bytes.length, "offset " + e.offset() + " outside the manifest");
                return;
            } catch (IllegalArgumentException e) {
                // Only the documented refusal: an intact snapshot of the other layout.
                assertTrue(e.getMessage().contains("tree, but the options ask for"), "unexpected: " + e);
                return;
            }
            // What was replayed, written back as a fresh manifest's snapshot, replays the same.
            byte[] snapshot = r.levels().snapshot(r.levels().number()).encode();
            Files.write(manifest, Manifest.frame(snapshot));
            Manifest.Replayed again = Manifest.replay(StorageFiles.system(), dir, layout);
            assertEquals(false, again.tornTail());
            assertArrayEquals(snapshot, again.levels().snapshot(again.levels().number()).encode(), "snapshot does not replay to its version");
        } finally {
            try (var files = Files.list(dir)) {
                for (Path f : files.toList()) {
                    Files.delete(f);
                }
            }
            Files.delete(dir);
        }
    }

    /** The manifest file a {@link #manifest} input stands for. */
    static byte[] manifestFile(byte[] data) {
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        int at = 1;
        while (at + 2 <= data.length) {
            int length = ((data[at] & 0xFF) << 8) | (data[at + 1] & 0xFF);
            if (at + 2 + length > data.length) {
                break;
            }
            file.writeBytes(Manifest.frame(Arrays.copyOfRange(data, at + 2, at + 2 + length)));
            at += 2 + length;
        }
        file.write(data, at, data.length - at);
        return file.toByteArray();
    }

    private static void refusedInside(CorruptSegmentException e, int length) {
        assertEquals(NAMED, e.file(), "refusal names another file");
        assertTrue(e.offset() >= BASE && e.offset() <= BASE + length, "offset " + e.offset() + " outside the input [" + BASE + ", " + (BASE + length) + "]");
    }

    /** {@code body} followed by its CRC32C, as metadata ends. */
    static byte[] sealed(byte[] body) {
        CRC32C crc = new CRC32C();
        crc.update(body);
        byte[] out = Arrays.copyOf(body, body.length + 4);
        int v = (int) crc.getValue();
        for (int i = 0; i < 4; i++) {
            out[body.length + i] = (byte) (v >>> (24 - 8 * i));
        }
        return out;
    }
}

package dev.everett.segment.objects;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.everett.api.CorruptSegmentException;
import dev.everett.api.ObjectId;
import dev.everett.api.Policy;
import dev.everett.segment.testing.FuzzInputs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Fuzz targets of the object store's own decoders: its descriptor {@code ROOT/OBJECTS}
 * ({@link StoreDescriptor#read}) and an object identity's text ({@link ObjectId#parse}, which
 * reads the segment directory names a tree lists and the identities in an index chain's
 * {@code HEAD}).
 *
 * <p>A damaged descriptor may be refused only with {@link CorruptSegmentException} naming the
 * file and an offset inside it; an accepted one is exactly what {@link StoreDescriptor#encode}
 * writes for the policy read. An identity's text may be refused only with
 * {@link IllegalArgumentException} quoting it; an accepted one is exactly the identity's
 * {@link ObjectId#hex()}.
 *
 * <p>Seeds: {@code src/test/resources/dev/everett/segment/objects/ObjectsFuzzTestInputs/<method>/},
 * written by {@link ObjectsFuzzCorpusTest}. Regression mode runs them in every build; fuzz with
 * (pick a method)
 * <pre>
 * JAZZER_FUZZ=1 ./.ci/with-jdk25 ./mvnw -pl segment -am test \
 *     -Dtest='ObjectsFuzzTest#descriptor' -Dsurefire.failIfNoSpecifiedTests=false -Djazzer.max_duration=5m
 * </pre>
 * and for {@code objectId} add {@code -Djazzer.instrumentation_includes='dev.everett.**'}: {@link ObjectId}
 * lives in the api module, whose classes Jazzer does not instrument by default.
 */
class ObjectsFuzzTest {
    private static final Path DIR = FuzzInputs.scratchDirectory("everett-objects-fuzz-");
    private static final Path FILE = DIR.resolve(StoreDescriptor.FILE_NAME);

    /**
     * The descriptor. The first byte chooses: even, the rest is the lines before the checksum and
     * a correct {@code crc32c=} line is appended (so mutations reach the fields); odd, the rest is
     * the file as it is.
     */
    @FuzzTest(maxDuration = "1m")
    void descriptor(byte[] data) throws IOException {
        if (data.length == 0) {
            return;
        }
        byte[] bytes = descriptorFile(data);
        Files.write(FILE, bytes);
        Policy p;
        try {
            p = StoreDescriptor.read(FILE);
        } catch (CorruptSegmentException e) {
            assertEquals(FILE, e.file(), "refusal names another file");
            assertTrue(e.offset() >= 0 && e.offset() <= bytes.length, "offset " + e.offset() + " outside the " + bytes.length + " bytes");
            return;
        }
        assertArrayEquals(bytes, StoreDescriptor.encode(p), "accepted descriptor is not what encode writes");
    }

    /** An identity's text, one char per byte. */
    @FuzzTest(maxDuration = "1m")
    void objectId(byte[] data) {
        String text = new String(data, StandardCharsets.ISO_8859_1);
        ObjectId id;
        try {
            id = ObjectId.parse(text);
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage() != null && e.getMessage().contains("\"" + text + "\""), "refusal does not quote the text: " + e.getMessage());
            return;
        }
        assertEquals(text, id.hex(), "accepted text is not the identity's hex");
    }

    /** The descriptor a {@link #descriptor} input stands for. */
    static byte[] descriptorFile(byte[] data) {
        return FuzzInputs.textWithCrcLine(data, "crc32c=");
    }
}

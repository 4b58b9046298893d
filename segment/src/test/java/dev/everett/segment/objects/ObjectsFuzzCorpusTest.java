package dev.everett.segment.objects;

import dev.everett.api.BackspaceCode;
import dev.everett.api.ObjectId;
import dev.everett.api.Policy;
import dev.everett.api.SegmentFormat;
import dev.everett.api.ValueGrammar;
import dev.everett.api.ValueWidth;
import dev.everett.segment.testing.FuzzCorpusHarness;
import dev.everett.segment.testing.FuzzInputs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The seeds of {@link ObjectsFuzzTest}: descriptors as the store writes them under several
 * policies and damaged ones, identities' text and damaged text. Regenerate with
 * <pre>
 * ./.ci/with-jdk25 ./mvnw -pl segment -am test -Dtest=ObjectsFuzzCorpusTest \
 *     -Dsurefire.failIfNoSpecifiedTests=false -Deverett.fuzz.writeCorpus=true
 * </pre>
 */
class ObjectsFuzzCorpusTest extends FuzzCorpusHarness {
    @TempDir
    Path dir;

    @Override
    protected String resourceDir() {
        return "src/test/resources/dev/everett/segment/objects/ObjectsFuzzTestInputs";
    }

    static Map<String, byte[]> descriptors() {
        Policy bytes = Policy.defaultBytes();
        // Each line damaged in turn (name, text replaced, replacement), a correct checksum appended.
        String[][] fields = {
                {"mut-first-line", "everett-objects 1", "everett-objects 2"},
                {"mut-format", "format=KV02", "format=KV04"},
                {"mut-unit", "unit=BYTE", "unit=byte"},
                {"mut-w-zero", "blockWidth=15", "blockWidth=0"},
                {"mut-w-plus", "blockWidth=15", "blockWidth=+15"},
                {"mut-w-overflow", "blockWidth=15", "blockWidth=2147483648"},
                {"mut-k-not-power", "groupSize=15", "groupSize=16"},
                {"mut-k-leading-zero", "groupSize=15", "groupSize=015"},
                {"mut-width-huge", "valueWidth=-1", "valueWidth=-2"},
                {"mut-backspace-code", "backspaceCode=0", "backspaceCode=1"},
                {"mut-backspace-parameter", "backspaceParameter=0", "backspaceParameter=99999999999999999999"},
                {"mut-grammar", "grammar=OPTIONAL", "grammar=NONE"},
                {"mut-line-missing", "grammar=OPTIONAL\n", ""},
                {"mut-line-extra", "grammar=OPTIONAL\n", "grammar=OPTIONAL\nextra=1\n"},
                {"mut-field-order", "format=KV02\nunit=BYTE\n", "unit=BYTE\nformat=KV02\n"},
                {"mut-not-ascii", "unit=BYTE", "unit=BYT\u00c9"}};
        Map<String, byte[]> s = FuzzInputs.checksummedTextSeeds("bytes", StoreDescriptor.encode(bytes), 30, fields);
        s.put("valid-bits", FuzzInputs.withSelector(1, StoreDescriptor.encode(Policy.stringPolicy())));
        s.put("valid-bits-golomb-raw", FuzzInputs.withSelector(1, StoreDescriptor.encode(Policy.stringPolicy()
                .withFormat(SegmentFormat.KV02).withBackspace(BackspaceCode.golomb(5)).withGrammar(ValueGrammar.RAW))));
        s.put("valid-fixed-width", FuzzInputs.withSelector(1, StoreDescriptor.encode(bytes.withValueWidth(ValueWidth.fixed(8)).withBlockWidth(7).withGroupSize(63))));
        s.put("mut-too-large", FuzzInputs.withSelector(1, new byte[4097]));
        return s;
    }

    static Map<String, byte[]> objectIds() {
        Map<String, byte[]> s = new LinkedHashMap<>();
        String hex = new ObjectId(0x5c1f00aa11223344L, 0x0123456789abcdefL).hex();
        s.put("valid-id", ascii(hex));
        s.put("valid-none", ascii(ObjectId.NONE.hex()));
        s.put("valid-all-ones", ascii(new ObjectId(-1, -1).hex()));
        s.put("mut-empty", new byte[0]);
        s.put("mut-short", ascii(hex.substring(1)));
        s.put("mut-long", ascii(hex + "0"));
        s.put("mut-upper", ascii(hex.toUpperCase(java.util.Locale.ROOT)));
        s.put("mut-not-hex", ascii("g" + hex.substring(1)));
        s.put("mut-sign", ascii("-" + hex.substring(1)));
        s.put("mut-space", ascii(hex.substring(0, 16) + " " + hex.substring(17)));
        s.put("mut-not-ascii", ascii("\u00e9" + hex.substring(1)));
        return s;
    }

    @Override
    protected Map<String, Map<String, byte[]>> corpus(Path scratch) {
        return Map.of("descriptor", descriptors(), "objectId", objectIds());
    }

    @Test
    void seedsAreWhatTheirNamesSay() throws Exception {
        Path file = dir.resolve(StoreDescriptor.FILE_NAME);
        assertSeedsAsNamed(descriptors(), dev.everett.api.CorruptSegmentException.class, d -> {
            Files.write(file, ObjectsFuzzTest.descriptorFile(d));
            StoreDescriptor.read(file);
        });
        assertSeedsAsNamed(objectIds(), IllegalArgumentException.class, d -> ObjectId.parse(new String(d, StandardCharsets.ISO_8859_1)));
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }
}

package dev.everett.cli;

import dev.everett.api.CatalogRef;
import dev.everett.api.ObjectId;
import dev.everett.segment.testing.FuzzCorpusHarness;
import dev.everett.segment.testing.FuzzInputs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The seeds of {@link CliFuzzTest}: records, arguments and {@code HEAD} files as the command
 * writes or takes them, and damaged ones. Regenerate with
 * <pre>
 * ./.ci/with-jdk25 ./mvnw -pl cli -am test -Dtest=CliFuzzCorpusTest \
 *     -Dsurefire.failIfNoSpecifiedTests=false -Deverett.fuzz.writeCorpus=true
 * </pre>
 */
class CliFuzzCorpusTest extends FuzzCorpusHarness {
    private static final IndexChain.Head HEAD = new IndexChain.Head(new ObjectId(0x5c1f00aa11223344L, 0x0123456789abcdefL),
            new CatalogRef(new ObjectId(0x9a0e000000000001L, 2), new ObjectId(0x41b7000000000003L, 4)), 0x1a2b3c4dL, 123456);

    @Override
    protected String resourceDir() {
        return "src/test/resources/dev/everett/cli/CliFuzzTestInputs";
    }

    static Map<String, byte[]> jsonRecords() {
        Map<String, byte[]> s = new LinkedHashMap<>();
        s.put("valid-record", ascii(JsonRecords.format("apple".getBytes(StandardCharsets.US_ASCII), new byte[] {1, 2})));
        s.put("valid-tombstone", ascii(JsonRecords.format(new byte[] {0, (byte) 0xff}, null)));
        s.put("valid-empty-key-and-value", ascii(JsonRecords.format(new byte[0], new byte[0])));
        s.put("valid-spaced-reordered", ascii(" \t{ \"value\" : null ,\t\"key\" : \"ABcd\" }\r"));
        s.put("mut-odd-hex", ascii("{\"key\":\"61\",\"value\":\"0\"}"));
        s.put("mut-not-hex", ascii("{\"key\":\"6g\",\"value\":\"00\"}"));
        s.put("mut-unknown-member", ascii("{\"key\":\"61\",\"val\":\"00\"}"));
        s.put("mut-key-twice", ascii("{\"key\":\"61\",\"key\":\"62\"}"));
        s.put("mut-value-twice", ascii("{\"value\":null,\"value\":\"62\"}"));
        s.put("mut-missing-comma", ascii("{\"key\":\"61\" \"value\":\"00\"}"));
        s.put("mut-text-after", ascii("{\"key\":\"61\",\"value\":\"00\"},"));
        s.put("mut-unterminated", ascii("{\"key\":\"61"));
        s.put("mut-escape", ascii("{\"key\":\"6\\u0031\",\"value\":null}"));
        s.put("mut-number-value", ascii("{\"key\":\"61\",\"value\":0}"));
        s.put("mut-empty", new byte[0]);
        s.put("mut-not-ascii", new byte[] {'{', '"', 'k', 'e', 'y', '"', ':', '"', (byte) 0xC3, (byte) 0xA9, '"', ',', '"', 'v', 'a', 'l', 'u', 'e', '"', ':', 'n', 'u', 'l', 'l', '}'});
        return s;
    }

    static Map<String, byte[]> byteTexts() {
        Map<String, byte[]> s = new LinkedHashMap<>();
        s.put("valid-text", utf8("apple"));
        s.put("valid-text-utf8", utf8("änderung €"));
        s.put("valid-hex", utf8("0x00ff"));
        s.put("valid-hex-upper", utf8("0XABcd"));
        s.put("valid-hex-empty", utf8("0x"));
        s.put("valid-utf16-text", utf16("grüße"));
        s.put("mut-hex-odd", utf8("0x0"));
        s.put("mut-hex-not-hex", utf8("0xzz"));
        s.put("mut-not-utf8", FuzzInputs.withSelector(0, new byte[] {'k', (byte) 0xff, 'y'}));
        s.put("mut-utf16-lone-surrogate", FuzzInputs.withSelector(1, new byte[] {0, 'k', (byte) 0xd8, 0}));
        return s;
    }

    static Map<String, byte[]> chainHeads() {
        byte[] file = IndexChain.headBytes(HEAD);
        String body = new String(file, 0, file.length - "crc32c 01234567\n".length(), StandardCharsets.US_ASCII);
        // Each field damaged in turn (name, text replaced, replacement), a correct checksum appended.
        String[][] fields = {
                {"mut-magic", "everett-chain 1", "everett-chain 2"},
                {"mut-id-upper", "5c1f", "5C1F"},
                {"mut-id-short", "5c1f", "5c1"},
                {"mut-id-not-hex", "5c1f", "5c1g"},
                {"mut-head-one-id", " 41b7", "41b7"},
                {"mut-head-three-ids", "head ", "head 9a0e000000000001000000000000000b "},
                {"mut-header-crc-short", "native-header-crc 1a2b3c4d", "native-header-crc 1a2b3c4"},
                {"mut-header-crc-not-hex", "native-header-crc 1a2b3c4d", "native-header-crc 1a2b3c4x"},
                {"mut-bytes-plus", "native-bytes 123456", "native-bytes +123456"},
                {"mut-bytes-leading-zero", "native-bytes 123456", "native-bytes 0123456"},
                {"mut-bytes-negative", "native-bytes 123456", "native-bytes -123456"},
                {"mut-bytes-overflow", "native-bytes 123456", "native-bytes 9223372036854775808"},
                {"mut-field-name", "native-bytes", "native-bytez"}};
        Map<String, byte[]> s = FuzzInputs.checksummedTextSeeds("head", file, 20, fields);
        s.put("valid-head-zero", FuzzInputs.withSelector(1, IndexChain.headBytes(new IndexChain.Head(ObjectId.NONE,
                new CatalogRef(ObjectId.NONE, ObjectId.NONE), 0, 0))));
        byte[] notAscii = ascii(body);
        notAscii["everett-chain 1\nnative ".length()] = (byte) 0xff;
        s.put("mut-not-ascii", FuzzInputs.withSelector(0, notAscii));
        return s;
    }

    @Override
    protected Map<String, Map<String, byte[]>> corpus(Path scratch) {
        return Map.of("jsonRecord", jsonRecords(), "byteText", byteTexts(), "chainHead", chainHeads());
    }

    @Test
    void seedsAreWhatTheirNamesSay() throws Exception {
        assertSeedsAsNamed(jsonRecords(), JsonRecords.SyntaxException.class, d -> JsonRecords.parse(CliFuzzTest.line(d)));
        assertSeedsAsNamed(byteTexts(), IllegalArgumentException.class, d -> ByteText.parse(CliFuzzTest.argument(d)));
        assertSeedsAsNamed(chainHeads(), CliException.class, d -> IndexChain.parseHead(CliFuzzTest.HEAD, CliFuzzTest.chainHeadFile(d)));
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static byte[] utf8(String s) {
        return FuzzInputs.withSelector(0, s.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] utf16(String s) {
        return FuzzInputs.withSelector(1, s.getBytes(StandardCharsets.UTF_16BE));
    }
}

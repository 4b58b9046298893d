package dev.everett.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.everett.segment.testing.FuzzInputs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Fuzz targets of the decoders of the {@code everett} command: a line of a {@code load} file
 * ({@link JsonRecords#parse}), a key or value on the command line ({@link ByteText#parse}) and an
 * index chain's {@code HEAD} ({@link IndexChain#parseHead}).
 *
 * <p>Each refuses bad input only with its own exception, saying where: a
 * {@link JsonRecords.SyntaxException} with a column inside the line, an
 * {@link IllegalArgumentException} quoting the argument, a {@link CliException} naming
 * {@code HEAD} and an offset inside it. Anything else is a finding, and so is a broken round trip:
 * an accepted record formats to a line that parses to the same record, accepted text is the
 * argument's own UTF-8 bytes (and, for a command line's bytes, those bytes) and every rendering of the bytes parses back to them, an accepted
 * {@code HEAD} is exactly what {@link IndexChain#headBytes} writes.
 *
 * <p>Seeds: {@code src/test/resources/dev/everett/cli/CliFuzzTestInputs/<method>/}, written by
 * {@link CliFuzzCorpusTest}. Regression mode runs them in every build; fuzz with (pick a method)
 * <pre>
 * JAZZER_FUZZ=1 ./.ci/with-jdk25 ./mvnw -pl cli -am test \
 *     -Dtest='CliFuzzTest#chainHead' -Dsurefire.failIfNoSpecifiedTests=false -Djazzer.max_duration=5m
 * </pre>
 */
class CliFuzzTest {
    static final Path HEAD = Path.of("fuzz.kv.chain", "HEAD");
    private static final Pattern AT = Pattern.compile("^" + Pattern.quote(HEAD.toString()) + ": offset (\\d+): .+", Pattern.DOTALL);

    /** One line of a {@code load} file, as {@code load} reads it: one char per byte, up to the first line end. */
    @FuzzTest(maxDuration = "1m")
    void jsonRecord(byte[] data) throws JsonRecords.SyntaxException {
        String line = line(data);
        JsonRecords.Line r;
        try {
            r = JsonRecords.parse(line);
        } catch (JsonRecords.SyntaxException e) {
            assertTrue(e.column >= 1 && e.column <= line.length() + 1, "column " + e.column + " outside the line of " + line.length());
            assertTrue(e.getMessage() != null && !e.getMessage().isEmpty());
            return;
        }
        JsonRecords.Line again = JsonRecords.parse(JsonRecords.format(r.key(), r.value()));
        assertArrayEquals(r.key(), again.key());
        assertArrayEquals(r.value(), again.value());
    }

    /**
     * A key or value argument. The first byte chooses how the rest becomes the argument: even,
     * decoded as UTF-8 with replacement (what the JVM makes of a command line's bytes), odd, each
     * two bytes one char (any Java string, lone surrogates too).
     */
    @FuzzTest(maxDuration = "1m")
    void byteText(byte[] data) {
        if (data.length == 0) {
            return;
        }
        String arg = argument(data);
        byte[] b;
        try {
            b = ByteText.parse(arg);
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage().contains("\"" + arg + "\""), "refusal does not quote the argument: " + e.getMessage());
            return;
        }
        if (!arg.startsWith("0x") && !arg.startsWith("0X")) {
            assertEquals(arg, new String(b, StandardCharsets.UTF_8), "text is not its own UTF-8 bytes");
            if ((data[0] & 1) == 0) {
                assertArrayEquals(Arrays.copyOfRange(data, 1, data.length), b, "text is not the bytes given");
            }
        }
        for (ByteText.Style style : ByteText.Style.values()) {
            assertArrayEquals(b, ByteText.parse(ByteText.render(b, style)), "rendered " + style + " does not parse back");
        }
    }

    /**
     * An index chain's {@code HEAD}. The first byte chooses: even, the rest is the five lines
     * before the checksum and a correct {@code crc32c} line is appended (so mutations reach the
     * fields); odd, the rest is the file as it is.
     */
    @FuzzTest(maxDuration = "1m")
    void chainHead(byte[] data) {
        if (data.length == 0) {
            return;
        }
        byte[] head = chainHeadFile(data);
        IndexChain.Head h;
        try {
            h = IndexChain.parseHead(HEAD, head);
        } catch (CliException e) {
            Matcher m = AT.matcher(e.getMessage());
            assertTrue(m.matches(), "refusal does not name HEAD and an offset: " + e.getMessage());
            long offset = Long.parseLong(m.group(1));
            assertTrue(offset <= head.length, "offset " + offset + " outside the " + head.length + " bytes");
            return;
        }
        assertArrayEquals(head, IndexChain.headBytes(h), "accepted HEAD is not what headBytes writes");
    }

    /** The line a {@link #jsonRecord} input stands for. */
    static String line(byte[] data) {
        String s = new String(data, StandardCharsets.ISO_8859_1);
        int end = s.length();
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) == '\n' || s.charAt(i) == '\r') {
                end = i;
                break;
            }
        }
        return s.substring(0, end);
    }

    /** The argument a {@link #byteText} input stands for. */
    static String argument(byte[] data) {
        if ((data[0] & 1) == 0) {
            return new String(data, 1, data.length - 1, StandardCharsets.UTF_8);
        }
        // Each pair of bytes one char, big-endian, as it is (a decoder would replace a lone surrogate).
        StringBuilder s = new StringBuilder();
        for (int i = 1; i + 1 < data.length; i += 2) {
            s.append((char) (((data[i] & 0xFF) << 8) | (data[i + 1] & 0xFF)));
        }
        return s.toString();
    }

    /** The {@code HEAD} a {@link #chainHead} input stands for. */
    static byte[] chainHeadFile(byte[] data) {
        return FuzzInputs.textWithCrcLine(data, "crc32c ");
    }
}

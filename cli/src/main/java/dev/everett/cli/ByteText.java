package dev.everett.cli;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import picocli.CommandLine;

/**
 * Keys and values on the command line and in output: text as it is, or hex behind {@code 0x}
 * ({@code 0x} alone is the empty string). Output shows printable ASCII as text and anything
 * else, the empty string, or text that would read as hex, as {@code 0x} hex, so that every
 * printed key can be typed back.
 */
final class ByteText {
    private static final HexFormat HEX = HexFormat.of();

    private ByteText() {
    }

    /** How output spells bytes. */
    enum Style { TEXT, HEX }

    /**
     * Parses an argument: {@code 0x} then an even number of hex digits, or UTF-8 text. Text with
     * U+FFFD is refused: the JVM puts it where a command line's bytes were not UTF-8, so its UTF-8
     * bytes would be another key than the one typed (and a lone surrogate has no UTF-8 at all).
     */
    static byte[] parse(String arg) {
        if (arg.startsWith("0x") || arg.startsWith("0X")) {
            String digits = arg.substring(2);
            if (digits.length() % 2 != 0) {
                throw new IllegalArgumentException("\"" + arg + "\": hex after 0x needs an even number of digits");
            }
            try {
                return HEX.parseHex(digits);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("\"" + arg + "\": not hex after 0x");
            }
        }
        for (int i = 0; i < arg.length(); i++) {
            char c = arg.charAt(i);
            if (c == '\uFFFD') {
                throw new IllegalArgumentException("\"" + arg + "\": character " + i + " is U+FFFD, what the command line makes of bytes"
                        + " that are not UTF-8; give such a key or value as hex after 0x");
            }
            if (Character.isSurrogate(c)) {
                if (Character.isHighSurrogate(c) && i + 1 < arg.length() && Character.isLowSurrogate(arg.charAt(i + 1))) {
                    i++;
                } else {
                    throw new IllegalArgumentException("\"" + arg + "\": character " + i + " is a lone UTF-16 surrogate, which UTF-8 cannot"
                            + " spell; give such a key or value as hex after 0x");
                }
            }
        }
        return arg.getBytes(StandardCharsets.UTF_8);
    }

    static String render(byte[] bytes, Style style) {
        if (style == Style.TEXT && bytes.length > 0 && printable(bytes)) {
            return new String(bytes, StandardCharsets.ISO_8859_1);
        }
        return "0x" + HEX.formatHex(bytes);
    }

    /** Printable ASCII that does not itself start with "0x". */
    private static boolean printable(byte[] bytes) {
        for (byte b : bytes) {
            if (b < 0x20 || b > 0x7E) {
                return false;
            }
        }
        return !(bytes.length >= 2 && bytes[0] == '0' && (bytes[1] == 'x' || bytes[1] == 'X'));
    }

    static String hex(byte[] bytes) {
        return HEX.formatHex(bytes);
    }

    /** Parses a command-line argument; a malformed one is a usage error (exit 2) naming {@code label}. */
    static byte[] arg(CommandLine.Model.CommandSpec spec, String label, String arg) {
        if (arg == null) {
            return null;
        }
        try {
            return parse(arg);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), label + " " + e.getMessage());
        }
    }
}

package dev.everett.cli;

import java.util.HexFormat;

/**
 * The JSON-lines form of records that {@code load} reads and {@code dump --json} writes: one
 * object a line, {@code {"key": HEX, "value": HEX}}, with {@code "value": null} for a tombstone.
 * The reader is strict (exactly those two members, hex strings, nothing after the object) and
 * says what it expected at which column; the caller adds the file and line. A line is read one
 * char per byte (ISO-8859-1), so a column is a byte offset and a byte that is not ASCII is refused
 * where it stands.
 */
final class JsonRecords {
    private static final HexFormat HEX = HexFormat.of();

    private JsonRecords() {
    }

    /**
     * One parsed line.
     *
     * @param key   the key bytes
     * @param value the value bytes, or null for a tombstone
     */
    record Line(byte[] key, byte[] value) {
    }

    /** A line that is not a record; {@code column} counts from 1. */
    static final class SyntaxException extends Exception {
        private static final long serialVersionUID = 1L;
        final int column;

        SyntaxException(int column, String message) {
            super(message);
            this.column = column;
        }
    }

    static String format(byte[] key, byte[] value) {
        return "{\"key\":\"" + HEX.formatHex(key) + "\",\"value\":" + (value == null ? "null" : "\"" + HEX.formatHex(value) + "\"") + "}";
    }

    static Line parse(String line) throws SyntaxException {
        Parser p = new Parser(line);
        p.skipSpace();
        p.expect('{');
        byte[] key = null;
        byte[] value = null;
        boolean sawValue = false;
        for (int member = 0; member < 2; member++) {
            p.skipSpace();
            int at = p.pos;
            String name = p.string();
            p.skipSpace();
            p.expect(':');
            p.skipSpace();
            switch (name) {
                case "key" -> {
                    if (key != null) {
                        throw new SyntaxException(at + 1, "\"key\" given twice");
                    }
                    key = p.hex("key");
                }
                case "value" -> {
                    if (sawValue) {
                        throw new SyntaxException(at + 1, "\"value\" given twice");
                    }
                    sawValue = true;
                    value = p.nullOrHex("value");
                }
                default -> throw new SyntaxException(at + 1, "unknown member \"" + name + "\" (a record has \"key\" and \"value\")");
            }
            p.skipSpace();
            if (member == 0) {
                p.expect(',');
            }
        }
        p.expect('}');
        p.skipSpace();
        if (p.pos != line.length()) {
            throw new SyntaxException(p.pos + 1, "text after the record");
        }
        if (key == null || !sawValue) {
            throw new SyntaxException(1, "a record needs both \"key\" and \"value\"");
        }
        return new Line(key, value);
    }

    private static final class Parser {
        final String s;
        int pos;

        Parser(String s) {
            this.s = s;
        }

        void skipSpace() {
            while (pos < s.length() && (s.charAt(pos) == ' ' || s.charAt(pos) == '\t' || s.charAt(pos) == '\r')) {
                pos++;
            }
        }

        void expect(char c) throws SyntaxException {
            if (pos >= s.length() || s.charAt(pos) != c) {
                throw new SyntaxException(pos + 1, "expected '" + c + "'" + (pos >= s.length() ? " at the end of the line" : ", found " + shown(s.charAt(pos))));
            }
            pos++;
        }

        /** A character as a message shows it: printable ASCII quoted, anything else as its code. */
        private static String shown(char c) {
            return c >= 0x20 && c <= 0x7E ? "'" + c + "'" : String.format("byte 0x%02x", (int) c);
        }

        /** A JSON string without escapes (names and hex digits need none). */
        String string() throws SyntaxException {
            expect('"');
            int start = pos;
            while (pos < s.length() && s.charAt(pos) != '"') {
                if (s.charAt(pos) == '\\') {
                    throw new SyntaxException(pos + 1, "escapes are not used in records (names and hex digits need none)");
                }
                pos++;
            }
            if (pos >= s.length()) {
                throw new SyntaxException(start, "unterminated string");
            }
            return s.substring(start, pos++);
        }

        byte[] hex(String member) throws SyntaxException {
            int at = pos;
            if (pos >= s.length() || s.charAt(pos) != '"') {
                throw new SyntaxException(pos + 1, "\"" + member + "\" must be a hex string");
            }
            String digits = string();
            if (digits.length() % 2 != 0) {
                throw new SyntaxException(at + 1, "\"" + member + "\" has an odd number of hex digits");
            }
            try {
                return HEX.parseHex(digits);
            } catch (IllegalArgumentException e) {
                throw new SyntaxException(at + 1, "\"" + member + "\" is not hex");
            }
        }

        byte[] nullOrHex(String member) throws SyntaxException {
            if (s.startsWith("null", pos)) {
                pos += 4;
                return null;
            }
            if (pos >= s.length() || s.charAt(pos) != '"') {
                throw new SyntaxException(pos + 1, "\"" + member + "\" must be a hex string or null");
            }
            return hex(member);
        }
    }
}

package dev.everett.streams;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The little JSON the streams benchmark needs: writes maps, lists, strings and numbers; reads back
 * the flat objects (string and number members) a benchmark JVM writes. Numbers read as doubles.
 */
final class BenchJson {
    private BenchJson() {
    }

    static String write(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out, "");
        return out.toString();
    }

    private static void write(Object value, StringBuilder out, String indent) {
        switch (value) {
            case null -> out.append("null");
            case String s -> quote(s, out);
            case Double d -> out.append(d.isNaN() || d.isInfinite() ? "null" : String.format(Locale.ROOT, "%.1f", d));
            case Number n -> out.append(n);
            case Map<?, ?> map -> {
                out.append('{');
                String inner = indent + "  ";
                boolean first = true;
                for (Map.Entry<?, ?> e : map.entrySet()) {
                    out.append(first ? "\n" : ",\n").append(inner);
                    quote(String.valueOf(e.getKey()), out);
                    out.append(": ");
                    write(e.getValue(), out, inner);
                    first = false;
                }
                out.append(first ? "}" : "\n" + indent + "}");
            }
            case List<?> list -> {
                out.append('[');
                String inner = indent + "  ";
                for (int i = 0; i < list.size(); i++) {
                    out.append(i == 0 ? "\n" : ",\n").append(inner);
                    write(list.get(i), out, inner);
                }
                out.append(list.isEmpty() ? "]" : "\n" + indent + "]");
            }
            default -> throw new IllegalArgumentException("cannot write " + value.getClass().getName() + " as JSON");
        }
    }

    private static void quote(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20) {
                out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        out.append('"');
    }

    /** Reads a flat object whose members are strings or numbers; {@code source} names it in errors. */
    static Map<String, Object> readFlatObject(String json, String source) {
        Map<String, Object> result = new LinkedHashMap<>();
        int[] at = {skipSpace(json, 0)};
        expect(json, at, '{', source);
        if (peek(json, at) == '}') {
            return result;
        }
        for (;;) {
            String key = readString(json, at, source);
            expect(json, at, ':', source);
            Object value = peek(json, at) == '"' ? readString(json, at, source) : readNumber(json, at, source);
            result.put(key, value);
            char next = peek(json, at);
            expect(json, at, next == ',' ? ',' : '}', source);
            if (next != ',') {
                return result;
            }
        }
    }

    private static char peek(String json, int[] at) {
        at[0] = skipSpace(json, at[0]);
        return at[0] < json.length() ? json.charAt(at[0]) : '\0';
    }

    private static void expect(String json, int[] at, char wanted, String source) {
        if (peek(json, at) != wanted) {
            throw new IllegalArgumentException(source + ": expected '" + wanted + "' at character " + at[0]);
        }
        at[0]++;
    }

    private static String readString(String json, int[] at, String source) {
        expect(json, at, '"', source);
        StringBuilder s = new StringBuilder();
        for (int i = at[0]; i < json.length(); i++) {
            char c = json.charAt(i);
            if (c == '"') {
                at[0] = i + 1;
                return s.toString();
            }
            if (c == '\\' && i + 1 < json.length()) {
                char escaped = json.charAt(++i);
                if (escaped == 'u' && i + 4 < json.length()) {
                    s.append((char) Integer.parseInt(json.substring(i + 1, i + 5), 16));
                    i += 4;
                } else {
                    s.append(escaped);
                }
            } else {
                s.append(c);
            }
        }
        throw new IllegalArgumentException(source + ": unterminated string from character " + at[0]);
    }

    private static double readNumber(String json, int[] at, String source) {
        int start = skipSpace(json, at[0]);
        int end = start;
        while (end < json.length() && "+-0123456789.eE".indexOf(json.charAt(end)) >= 0) {
            end++;
        }
        try {
            at[0] = end;
            return Double.parseDouble(json.substring(start, end));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(source + ": expected a number at character " + start, e);
        }
    }

    private static int skipSpace(String json, int from) {
        int i = from;
        while (i < json.length() && Character.isWhitespace(json.charAt(i))) {
            i++;
        }
        return i;
    }
}

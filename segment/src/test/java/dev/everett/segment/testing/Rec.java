package dev.everett.segment.testing;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * A test record: a key and a value, where a {@code null} value is a tombstone. Compares and
 * prints by content, so lists of records can be asserted equal.
 */
public record Rec(byte[] key, byte[] value) {
    public static Rec of(String key, String value) {
        return new Rec(bytes(key), value == null ? null : bytes(value));
    }

    public static byte[] bytes(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    public boolean tombstone() {
        return value == null;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Rec r && Arrays.equals(key, r.key) && Arrays.equals(value, r.value);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(key) * 31 + Arrays.hashCode(value);
    }

    @Override
    public String toString() {
        HexFormat h = HexFormat.of();
        return h.formatHex(key) + "=" + (value == null ? "∅" : h.formatHex(value));
    }
}

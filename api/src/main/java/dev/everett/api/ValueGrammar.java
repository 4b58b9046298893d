package dev.everett.api;

/**
 * What the value units of a record mean. The file does not record the grammar: writer and reader
 * must agree on it through the {@link Policy}.
 */
public enum ValueGrammar {
    /** Values are opaque bytes; there are no tombstones. */
    RAW,
    /**
     * Values are optional: absent is a tombstone. In byte units the transport is {@code 00} for
     * absent and {@code 01} followed by the value bytes for present (the empty value is {@code 01}).
     */
    OPTIONAL
}

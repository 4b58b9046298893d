package dev.everett.api;

/**
 * What the value units of a record mean. The file does not record the grammar: writer and reader
 * must agree on it through the {@link Policy}. Encodings (bit strings are MSB-first):
 *
 * <table>
 *   <caption>Encoded values</caption>
 *   <tr><th></th><th>byte unit (KV02)</th><th>bit unit, KV02</th><th>bit unit, KV03</th></tr>
 *   <tr><td>{@link #RAW}</td><td>the bytes</td><td>the bytes (8 bits each)</td>
 *       <td>EG0(byte count), then the bytes ({@code string_value<EG0>})</td></tr>
 *   <tr><td>{@link #OPTIONAL}</td><td>{@code 00} absent; {@code 01} then the bytes</td>
 *       <td colspan="2">{@code 0} absent; {@code 1}, EG0(byte count), then the bytes
 *       ({@code tombstone_value<string_value<EG0>>})</td></tr>
 * </table>
 *
 * <p>KV02 frames each encoded value with its length (unless the file has a common width); KV03
 * values delimit themselves.
 */
public enum ValueGrammar {
    /** Values are opaque bytes; there are no tombstones. */
    RAW,
    /** Values are optional: absent is a tombstone. The empty value is present. */
    OPTIONAL
}

package dev.everett.api;

/**
 * The native file format a policy writes and reads. The envelope does not record it: the body's
 * directory magic does ({@code KV02} or {@code KV03}), and a reader whose policy names the other
 * format refuses the file with {@link PolicyMismatchException} (field {@code "segment format"}).
 */
public enum SegmentFormat {
    /**
     * Everett's generic front-coded profile, in byte or bit units: a 128-byte directory, five
     * sections, an explicit value length per record unless the file has a common width. In bytes
     * the keys are the host's byte strings as they are; in bits each key is Everett's string-policy
     * key encoding: the sort code {@code 0}, then the key's ordered string form (every
     * {@code 0x00} byte followed by {@code 0xFF}, then 16 zero bits). Readers and cursors take
     * and give host keys. The default for byte units.
     */
    KV02,
    /**
     * Everett's sort-owned bit profile as its {@code string_policy} writes it (bit units only): a
     * 192-byte directory, eight sections (the five of KV02, a selector dictionary, its offsets and
     * per-block seeds). Each logical key is the sort code {@code 0} followed by the key's bits;
     * values use a self-delimiting codec and no length. The default for bit units.
     */
    KV03;

    /** The format a policy of this unit writes unless told otherwise: KV02 for bytes, KV03 for bits. */
    public static SegmentFormat defaultFor(Unit unit) {
        return unit == Unit.BIT ? KV03 : KV02;
    }
}

package dev.everett.api;

/** How much of a file a reader checks when it opens it. A full check is {@link SegmentReader#verify()}. */
public enum OpenMode {
    /**
     * Checks only the 96-byte envelope: magic, version, header checksum, flags, policy fields,
     * sizes; and the directory's 4-byte magic, which names the format (KV02 or KV03) the policy
     * must match. The rest of the directory is checked when it is first needed.
     */
    HEADER,
    /**
     * Also checks the section directory and the Elias–Fano shapes (sizes, alignment, zero
     * reserved bytes), without touching payload pages. The default.
     */
    TYPED
}

package dev.everett.segment.fc;

/**
 * The sequential walk of one front-coded stream, rebuilding each key in a reused buffer and
 * checking framing, block offsets, key order and the stream's end as it goes:
 * {@link ByteWalker} for byte units, {@link BitWalker} for bit units.
 *
 * <p>Keys are in the stream's units: bytes, or for bit-unit streams MSB-first bit strings whose
 * unused tail bits are zero (for KV03 and the borrowed streams over it, the logical key: sort
 * code first).
 */
public interface KeyWalker extends KeySource {
    /** Moves to the next record; false once past the last (after checking the stream's end). */
    @Override
    boolean next();

    long ordinal();

    /** The current record's framing. */
    Frame frame();

    /** Ordinal of the first record found with shorter-than-maximal retention, or -1. */
    long firstNonCanonical();

    /**
     * Continues a walk from record {@code at}, whose full key is the first {@code length} units of
     * {@code k} and whose record ends at position {@code end}: the next {@link #next()} decodes
     * record at + 1.
     */
    void resume(long at, byte[] k, long length, long end);

    /** Stops the walk; later calls to {@link #next()} return false. */
    void stop();
}

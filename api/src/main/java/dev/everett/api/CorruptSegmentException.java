package dev.everett.api;

import java.nio.file.Path;

/**
 * A segment or index file breaks a rule of its format: bad magic, a checksum mismatch, a
 * truncated section, an out-of-order key, a non-canonical integer, and so on. The message names
 * the file, the byte offset at which the problem was found and the rule broken.
 *
 * <p>Readers never answer from a file they have found corrupt: the query that found the problem
 * throws this exception instead of returning a record.
 */
public class CorruptSegmentException extends EverettException {
    private static final long serialVersionUID = 1L;

    private final transient Path file;
    private final long offset;
    private final String rule;

    public CorruptSegmentException(Path file, long offset, String rule) {
        super(file + " @" + offset + ": " + rule);
        this.file = file;
        this.offset = offset;
        this.rule = rule;
    }

    /** The file that broke the rule (may be a placeholder name for in-memory bytes). */
    public Path file() {
        return file;
    }

    /** File byte offset at which the problem was found. */
    public long offset() {
        return offset;
    }

    /** The rule broken, in words. */
    public String rule() {
        return rule;
    }
}

package dev.everett.store;

import dev.everett.api.EverettException;

import java.nio.file.Path;

/**
 * A store file (write-ahead log, store descriptor, manifest) breaks a rule of its format: the
 * message names the file, the byte offset and the rule. Thrown by open (or the read that meets the
 * damage) instead of returning a wrong answer or losing data silently.
 */
public class CorruptFileException extends EverettException {

    private final transient Path file;
    private final long offset;
    private final String rule;

    public CorruptFileException(Path file, long offset, String rule) {
        super(file + " at offset " + offset + ": " + rule);
        this.file = file;
        this.offset = offset;
        this.rule = rule;
    }

    /** The damaged file. */
    public Path file() {
        return file;
    }

    /** The byte offset where the rule is broken. */
    public long offset() {
        return offset;
    }

    /** The rule that is broken. */
    public String rule() {
        return rule;
    }
}

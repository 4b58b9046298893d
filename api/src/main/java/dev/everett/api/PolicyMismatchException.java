package dev.everett.api;

import java.nio.file.Path;

/**
 * A well-formed file was written under another policy than the one the reader was opened with
 * (unit, W, K, backspace code or value width). The file is not corrupt; it belongs elsewhere.
 */
public class PolicyMismatchException extends EverettException {
    private static final long serialVersionUID = 1L;

    private final transient Path file;
    private final String field;

    public PolicyMismatchException(Path file, String field, Object expected, Object actual) {
        super(file + ": policy mismatch on " + field + ": reader expects " + expected + ", file has " + actual);
        this.file = file;
        this.field = field;
    }

    public Path file() {
        return file;
    }

    /** The policy field that differs. */
    public String field() {
        return field;
    }
}

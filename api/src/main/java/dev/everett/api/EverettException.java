package dev.everett.api;

/** The root of the exceptions Everett throws for bad files and misuse it can name precisely. */
public class EverettException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public EverettException(String message) {
        super(message);
    }

    public EverettException(String message, Throwable cause) {
        super(message, cause);
    }
}

package dev.everett.api;

/**
 * A writer or merger was handed a key that is not strictly greater than the previous one. The
 * message names both keys in hex. The writer that throws it is poisoned and publishes nothing.
 */
public class KeyOrderException extends EverettException {
    private static final long serialVersionUID = 1L;

    public KeyOrderException(String message) {
        super(message);
    }
}

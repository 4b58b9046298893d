package dev.everett.cli;

/** A command failed for a reason its message states in full (exit code 1, no stack trace). */
final class CliException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    CliException(String message) {
        super(message);
    }

    CliException(String message, Throwable cause) {
        super(message, cause);
    }
}

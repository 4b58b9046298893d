package dev.everett.cli;

/** A command failed for a reason its message states in full (exit code 1, no stack trace). */
final class CliException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** True if the message reports damage found in a file, which verify calls CORRUPT. */
    final boolean damage;

    CliException(String message) {
        super(message);
        this.damage = false;
    }

    private CliException(String message, boolean damage) {
        super(message);
        this.damage = damage;
    }

    /** A file that breaks a rule of its format, or contents that contradict each other. */
    static CliException damage(String message) {
        return new CliException(message, true);
    }

    CliException(String message, Throwable cause) {
        super(message, cause);
        this.damage = false;
    }
}

package dev.everett.api;

/**
 * The unit in which a segment counts key, suffix and value lengths, backspaces, extents and
 * Elias–Fano residuals. Stored in envelope byte 16.
 */
public enum Unit {
    /** Whole bytes; counts are unsigned LEB128 varints. */
    BYTE(0, 8),
    /** Single bits, MSB-first; counts are exponential-Golomb codes. */
    BIT(1, 1);

    private final int code;
    private final int bitsPerUnit;

    Unit(int code, int bitsPerUnit) {
        this.code = code;
        this.bitsPerUnit = bitsPerUnit;
    }

    /** The value stored in envelope byte 16. */
    public int code() {
        return code;
    }

    /** 8 for {@link #BYTE}, 1 for {@link #BIT}. */
    public int bitsPerUnit() {
        return bitsPerUnit;
    }

    /** The unit with the given envelope code, or {@code null} if the code names none. */
    public static Unit ofCode(int code) {
        return switch (code) {
            case 0 -> BYTE;
            case 1 -> BIT;
            default -> null;
        };
    }
}

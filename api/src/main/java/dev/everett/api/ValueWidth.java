package dev.everett.api;

/**
 * The value layout a policy declares: variable (each record states its value length) or fixed
 * (every encoded value is exactly {@code units} policy units, recorded in envelope flag bit 0 and
 * bytes 32–39).
 *
 * @param units the fixed width in policy units, or {@code -1} for variable values
 */
public record ValueWidth(long units) {
    private static final ValueWidth VARIABLE = new ValueWidth(-1);

    public ValueWidth {
        if (units < -1) {
            throw new IllegalArgumentException("fixed value width must be ≥ 0, got " + units);
        }
    }

    /** Values of any length; each record carries its length unless the file has a common width. */
    public static ValueWidth variable() {
        return VARIABLE;
    }

    /** Every encoded value is exactly {@code units} policy units long. */
    public static ValueWidth fixed(long units) {
        if (units < 0) {
            throw new IllegalArgumentException("fixed value width must be ≥ 0, got " + units);
        }
        return new ValueWidth(units);
    }

    public boolean isFixed() {
        return units >= 0;
    }

    @Override
    public String toString() {
        return isFixed() ? "fixed(" + units + ")" : "variable";
    }
}

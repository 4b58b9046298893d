package dev.everett.api;

/**
 * How a non-block-start record encodes its backspace (the predecessor's key length minus the
 * retained prefix). Stored as envelope byte 18 (the code) and bytes 88–95 (the parameter).
 *
 * <p>Byte-unit policies always use {@link #VARINT}, which the file records as code 0 with
 * parameter 0; the backspace is then an unsigned LEB128 like every other byte-unit count.
 *
 * @param code      0 for exponential-Golomb (and for the byte-unit varint), 1 for Golomb
 * @param parameter the exponential-Golomb order k (0…63) or the Golomb modulus M (≥ 1)
 */
public record BackspaceCode(int code, long parameter) {
    /** Envelope code of the exponential-Golomb family (and of the byte-unit varint). */
    public static final int EXP_GOLOMB = 0;
    /** Envelope code of the Golomb family. */
    public static final int GOLOMB = 1;

    /** The byte-unit backspace: an unsigned LEB128 varint, recorded as (0, 0). */
    public static final BackspaceCode VARINT = new BackspaceCode(EXP_GOLOMB, 0);

    public BackspaceCode {
        if (code == EXP_GOLOMB) {
            if (parameter < 0 || parameter > 63) {
                throw new IllegalArgumentException("exponential-Golomb order must be 0…63, got " + parameter);
            }
        } else if (code == GOLOMB) {
            if (parameter < 1) {
                throw new IllegalArgumentException("Golomb modulus must be ≥ 1, got " + parameter);
            }
        } else {
            throw new IllegalArgumentException("backspace code must be 0 (exp-Golomb) or 1 (Golomb), got " + code);
        }
    }

    /** Exponential-Golomb of order {@code k}: EG0(v >> k) then the low k bits of v. */
    public static BackspaceCode expGolomb(int k) {
        return new BackspaceCode(EXP_GOLOMB, k);
    }

    /** Golomb with modulus {@code m}: unary quotient, truncated-binary remainder. */
    public static BackspaceCode golomb(long m) {
        return new BackspaceCode(GOLOMB, m);
    }

    @Override
    public String toString() {
        return code == EXP_GOLOMB ? "exp-golomb(k=" + parameter + ")" : "golomb(M=" + parameter + ")";
    }
}

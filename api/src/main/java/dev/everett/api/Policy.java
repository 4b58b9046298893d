package dev.everett.api;

import java.util.Objects;

/**
 * Everything writer and reader must agree on for a segment: the unit, the block width W, the
 * group size K of the index cascade, the value layout, the backspace code and the value grammar.
 * All but the grammar are stored in the file's envelope and checked when it is opened; a file
 * whose envelope disagrees is refused with {@link PolicyMismatchException}.
 *
 * @param unit         byte or bit
 * @param blockWidth   W: records 0, W, 2W, … start a block and get an Elias–Fano offset (≥ 1)
 * @param groupSize    K: the index cascade's sampling interval, 2^n − 1 and ≥ 3 (3, 7, 15, 31 are tested)
 * @param valueWidth   variable, or a fixed width in policy units
 * @param backspace    the backspace code; byte-unit policies must use {@link BackspaceCode#VARINT}
 * @param grammar      raw values, or optional values whose absence is a tombstone
 */
public record Policy(Unit unit, int blockWidth, long groupSize, ValueWidth valueWidth,
                     BackspaceCode backspace, ValueGrammar grammar) {

    /** W and K of Everett's default policies. */
    public static final int DEFAULT_WIDTH = 15;

    public Policy {
        Objects.requireNonNull(unit, "unit");
        Objects.requireNonNull(valueWidth, "valueWidth");
        Objects.requireNonNull(backspace, "backspace");
        Objects.requireNonNull(grammar, "grammar");
        if (blockWidth < 1) {
            throw new IllegalArgumentException("block width W must be ≥ 1, got " + blockWidth);
        }
        if (groupSize < 3 || ((groupSize + 1) & groupSize) != 0) {
            throw new IllegalArgumentException("group size K must be 2^n − 1 and ≥ 3, got " + groupSize);
        }
        if (unit == Unit.BYTE && !backspace.equals(BackspaceCode.VARINT)) {
            throw new IllegalArgumentException("byte-unit policies use the varint backspace, got " + backspace);
        }
    }

    /**
     * Everett's default storage policy: byte unit, K = W = 15, variable values, varint backspaces,
     * optional values (tombstones allowed). Its native files are KV02.
     */
    public static Policy defaultBytes() {
        return new Policy(Unit.BYTE, DEFAULT_WIDTH, DEFAULT_WIDTH, ValueWidth.variable(),
                BackspaceCode.VARINT, ValueGrammar.OPTIONAL);
    }

    public Policy withBlockWidth(int w) {
        return new Policy(unit, w, groupSize, valueWidth, backspace, grammar);
    }

    public Policy withGroupSize(long k) {
        return new Policy(unit, blockWidth, k, valueWidth, backspace, grammar);
    }

    public Policy withValueWidth(ValueWidth width) {
        return new Policy(unit, blockWidth, groupSize, width, backspace, grammar);
    }

    public Policy withGrammar(ValueGrammar g) {
        return new Policy(unit, blockWidth, groupSize, valueWidth, backspace, g);
    }

    /** Same policy in another unit; switching to bytes resets the backspace to the varint. */
    public Policy withUnit(Unit u, BackspaceCode code) {
        return new Policy(u, blockWidth, groupSize, valueWidth, code, grammar);
    }

    /** True if the grammar allows tombstones. */
    public boolean allowsTombstones() {
        return grammar == ValueGrammar.OPTIONAL;
    }
}

package dev.everett.api;

import java.util.Objects;

/**
 * Everything writer and reader must agree on for a segment: the unit, the block width W, the
 * group size K of the index cascade, the value layout, the backspace code, the value grammar and
 * the native file format. The envelope stores the unit, W, K, the backspace code and the value
 * width fields; the body's directory magic names the format. No file records the grammar (raw
 * or optional): as in Everett, the reader's policy decides how values are read. What a file
 * records is checked when it is opened; a file that disagrees is refused with
 * {@link PolicyMismatchException}.
 *
 * <p>In bit units every length is counted in bits and keys are the host's byte strings, stored
 * behind the string sort's one-bit code {@code 0}: KV03 as they are, KV02 in their ordered string
 * form (each {@code 0x00} followed by {@code 0xFF}, then a 16-bit zero terminator), as Everett's
 * string policy writes them; readers, cursors and merges give back the host's keys. Fixed value
 * widths count bits of the <em>encoded</em> value (see {@link ValueGrammar}); KV03 policies take
 * none (refused when the policy is made).
 *
 * @param unit         byte or bit
 * @param blockWidth   W: records 0, W, 2W, … start a block and get an Elias–Fano offset (≥ 1)
 * @param groupSize    K: the index cascade's sampling interval, 2^n − 1 and ≥ 3 (3, 7, 15, 31 are tested)
 * @param valueWidth   variable, or a fixed width in policy units
 * @param backspace    the backspace code; byte-unit policies must use {@link BackspaceCode#VARINT}
 * @param grammar      raw values, or optional values whose absence is a tombstone
 * @param format       the native file format: KV02 (byte or bit units) or KV03 (bit units only)
 */
public record Policy(Unit unit, int blockWidth, long groupSize, ValueWidth valueWidth,
                     BackspaceCode backspace, ValueGrammar grammar, SegmentFormat format) {

    /** W and K of Everett's default policies. */
    public static final int DEFAULT_WIDTH = 15;

    public Policy {
        Objects.requireNonNull(unit, "unit");
        Objects.requireNonNull(valueWidth, "valueWidth");
        Objects.requireNonNull(backspace, "backspace");
        Objects.requireNonNull(grammar, "grammar");
        Objects.requireNonNull(format, "format");
        if (blockWidth < 1) {
            throw new IllegalArgumentException("block width W must be ≥ 1, got " + blockWidth);
        }
        if (groupSize < 3 || ((groupSize + 1) & groupSize) != 0) {
            throw new IllegalArgumentException("group size K must be 2^n − 1 and ≥ 3, got " + groupSize);
        }
        if (unit == Unit.BYTE && !backspace.equals(BackspaceCode.VARINT)) {
            throw new IllegalArgumentException("byte-unit policies use the varint backspace, got " + backspace);
        }
        if (format == SegmentFormat.KV03 && unit != Unit.BIT) {
            throw new IllegalArgumentException("KV03 is a bit-unit format; byte-unit policies write KV02");
        }
        if (format == SegmentFormat.KV03 && valueWidth.isFixed()) {
            // Everett's string codecs declare no fixed width, and its writer refuses a policy that
            // promises one its codec does not supply; a KV03 file records only the width it finds.
            throw new IllegalArgumentException("KV03 policies cannot declare a fixed value width (got "
                    + valueWidth.units() + " bits): the string codecs have none; KV03 records the common width its values have");
        }
    }

    /** A policy in the default format of its unit ({@link SegmentFormat#defaultFor}): KV02 for bytes, KV03 for bits. */
    public Policy(Unit unit, int blockWidth, long groupSize, ValueWidth valueWidth, BackspaceCode backspace, ValueGrammar grammar) {
        this(unit, blockWidth, groupSize, valueWidth, backspace, grammar, SegmentFormat.defaultFor(unit));
    }

    /**
     * Everett's default storage policy: byte unit, K = W = 15, variable values, varint backspaces,
     * optional values (tombstones allowed). Its native files are KV02.
     */
    public static Policy defaultBytes() {
        return new Policy(Unit.BYTE, DEFAULT_WIDTH, DEFAULT_WIDTH, ValueWidth.variable(),
                BackspaceCode.VARINT, ValueGrammar.OPTIONAL, SegmentFormat.KV02);
    }

    /**
     * Everett's {@code string_policy}: bit unit, K = W = 15, variable values, exponential-Golomb
     * order-0 backspaces, optional values. Its native files are KV03.
     */
    public static Policy stringPolicy() {
        return new Policy(Unit.BIT, DEFAULT_WIDTH, DEFAULT_WIDTH, ValueWidth.variable(),
                BackspaceCode.expGolomb(0), ValueGrammar.OPTIONAL, SegmentFormat.KV03);
    }

    public Policy withBlockWidth(int w) {
        return new Policy(unit, w, groupSize, valueWidth, backspace, grammar, format);
    }

    public Policy withGroupSize(long k) {
        return new Policy(unit, blockWidth, k, valueWidth, backspace, grammar, format);
    }

    public Policy withValueWidth(ValueWidth width) {
        return new Policy(unit, blockWidth, groupSize, width, backspace, grammar, format);
    }

    public Policy withGrammar(ValueGrammar g) {
        return new Policy(unit, blockWidth, groupSize, valueWidth, backspace, g, format);
    }

    /** Same policy in another unit and backspace code, in that unit's default format (KV03 for bits, which takes no fixed width). */
    public Policy withUnit(Unit u, BackspaceCode code) {
        return withUnit(u, code, SegmentFormat.defaultFor(u));
    }

    /** Same policy in another unit, backspace code and format. */
    public Policy withUnit(Unit u, BackspaceCode code, SegmentFormat f) {
        return new Policy(u, blockWidth, groupSize, valueWidth, code, grammar, f);
    }

    /** Same policy writing another native format (KV03 needs bit units). */
    public Policy withFormat(SegmentFormat f) {
        return new Policy(unit, blockWidth, groupSize, valueWidth, backspace, grammar, f);
    }

    /** Same policy with another backspace code (bit units; byte units take only the varint). */
    public Policy withBackspace(BackspaceCode code) {
        return new Policy(unit, blockWidth, groupSize, valueWidth, code, grammar, format);
    }

    /** True if the grammar allows tombstones. */
    public boolean allowsTombstones() {
        return grammar == ValueGrammar.OPTIONAL;
    }
}

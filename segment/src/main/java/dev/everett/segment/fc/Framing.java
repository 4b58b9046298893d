package dev.everett.segment.fc;

import dev.everett.api.BackspaceCode;
import dev.everett.api.Policy;
import dev.everett.api.SegmentFormat;
import dev.everett.api.Unit;
import dev.everett.api.ValueGrammar;
import dev.everett.segment.io.FileOutput;

/**
 * How the records of one front-coded stream are framed, which fixes its unit and the frame that
 * parses it. This is the one place that turns a policy into its format family's parts: the
 * framing of its natives ({@link #ofNatives}) and borrowed keys ({@link #ofBorrowedKeys}), the
 * frame ({@link #newFrame}), the unit ({@link #units}: positions, key copies and comparisons,
 * the walker), the value codec ({@link #values}), the host key form ({@link #keyForm}) and the
 * record encoder ({@link #newEncoder}); readers, writers, cursors, the cascade and the merger
 * take those and never ask "bits? optional?" themselves.
 *
 * <ul>
 *   <li>{@link Kind#BYTES}: byte-unit KV02 framing (LEB128 counts), natives and borrowed keys.</li>
 *   <li>{@link Kind#BITS}: bit-unit KV02 framing (EG0 counts, the policy's backspace code), for
 *       KV02 natives and for every bit-unit borrowed stream.</li>
 *   <li>{@link Kind#KV03}: the sort-owned record grammar of KV03 natives.</li>
 * </ul>
 *
 * @param kind      the framing
 * @param backspace the backspace code (the varint for bytes)
 * @param optional  KV03 only: values carry a presence bit (tombstone_value) before the string codec
 * @param pathBits  bits of sort code in front of every logical key: 1 for every bit-unit stream
 *                  (Everett's string sort), 0 for bytes. Keys are whole bytes after it.
 */
public record Framing(Kind kind, BackspaceCode backspace, boolean optional, int pathBits) {
    public enum Kind {
        BYTES(StreamUnits.BYTES), BITS(StreamUnits.BITS), KV03(StreamUnits.BITS);

        final StreamUnits units;

        Kind(StreamUnits units) {
            this.units = units;
        }
    }

    static final Framing BYTES = new Framing(Kind.BYTES, BackspaceCode.VARINT, false, 0);

    /** The sort code of Everett's string policy: the single bit {@code 0}. */
    public static final int KV03_PATH_BITS = 1;

    /** The framing of a native written under {@code p}. */
    public static Framing ofNatives(Policy p) {
        if (p.unit() == Unit.BYTE) {
            return BYTES;
        }
        if (p.format() == SegmentFormat.KV03) {
            return new Framing(Kind.KV03, p.backspace(), p.grammar() == ValueGrammar.OPTIONAL, KV03_PATH_BITS);
        }
        return new Framing(Kind.BITS, p.backspace(), false, KV03_PATH_BITS);
    }

    /**
     * True if the natives of {@code p} store each key in its ordered string form
     * ({@link dev.everett.segment.bits.OrderedStrings}) behind the sort code: KV02 in bit units,
     * where Everett's string sort has no framing of its own to delimit the key. The host's keys
     * are encoded on the way in (writes, queries) and decoded on the way out (cursors, merges).
     */
    public static boolean orderedStrings(Policy p) {
        return p.unit() == Unit.BIT && p.format() == SegmentFormat.KV02;
    }

    /** The framing of the borrowed key streams of an index under {@code p}: logical keys, KV02 framing. */
    public static Framing ofBorrowedKeys(Policy p) {
        if (p.unit() == Unit.BYTE) {
            return BYTES;
        }
        return new Framing(Kind.BITS, p.backspace(), false, KV03_PATH_BITS);
    }

    /** A fresh value decoder for the natives written under {@code p} (one per reader, cursor or query, reused). */
    public static ValueCodec values(Policy p) {
        if (p.unit() == Unit.BYTE) {
            return p.grammar() == ValueGrammar.OPTIONAL ? new OptionalValue() : new RawValue();
        }
        return new BitValue(BitValue.codec(p));
    }

    /**
     * The encoder that writes the records of a native under {@code p} into {@code out}, from its
     * current position; {@code streamWidth} is the width every encoded value must have while
     * streaming, or -1.
     */
    public static RecordEncoder newEncoder(Policy p, FileOutput out, long streamWidth) {
        if (p.unit() == Unit.BYTE) {
            return new ByteRecordEncoder(BYTES, values(p), p.blockWidth(), streamWidth, out);
        }
        return new BitRecordEncoder(ofNatives(p), new BitValue(BitValue.codec(p)), p.blockWidth(), streamWidth, orderedStrings(p), out);
    }

    /** The unit of the streams so framed: what positions, lengths and keys count. */
    public StreamUnits units() {
        return kind.units;
    }

    /** How the host's keys relate to the keys stored under {@code p} (sort code, ordered string form). */
    public static KeyForm keyForm(Policy p) {
        Framing f = ofNatives(p);
        return f.kind() == Kind.BYTES ? KeyForm.BYTES : new KeyForm.Logical(f.pathBits(), orderedStrings(p));
    }

    /** A frame that parses this framing (bind it to a stream before reading). */
    public Frame newFrame() {
        return switch (kind) {
            case BYTES -> new ByteFrame();
            case BITS -> new BitFrame();
            case KV03 -> new Kv03Frame();
        };
    }

    @Override
    public String toString() {
        return switch (kind) {
            case BYTES -> "byte-unit";
            case BITS -> "bit-unit KV02" + (pathBits > 0 ? " (" + pathBits + "-bit sort code)" : "");
            case KV03 -> "KV03";
        };
    }
}

package dev.everett.segment.encoded;

import dev.everett.api.Policy;
import dev.everett.api.Unit;
import dev.everett.api.ValueGrammar;
import dev.everett.segment.bits.BitOutput;
import dev.everett.segment.bits.BitStrings;
import dev.everett.segment.fc.BitValue;
import dev.everett.segment.fc.OptionalValue;
import dev.everett.segment.io.Corruption;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The value codec of a policy, for consumers of {@link EncodedRecords} that combine values (the
 * native merger's value callbacks): it turns an encoded value, in the units of
 * {@link EncodedRecords} (bytes, or bits at a bit offset), into the host's bytes, and host bytes
 * back into an encoded value that {@link EncodedOutput#append} copies like any input value.
 *
 * <ul>
 *   <li>Byte units: the optional grammar's tag byte ({@code 00} absent, {@code 01} + bytes), or
 *       the raw bytes.</li>
 *   <li>Bit units ({@link BitValue}'s codecs): optional {@code 0} / {@code 1} EG0(byte count)
 *       bytes in both formats; raw KV02 bit the bytes; raw KV03 EG0(byte count) then the bytes.</li>
 * </ul>
 * Values it decodes were already checked by {@link EncodedRecords} or were encoded here. Get one
 * from {@link EncodedRecords#values()}.
 */
public final class EncodedValues {
    private final boolean bitUnit;
    private final boolean optional;
    private final BitValue.Codec codec;
    private final BitValue bits;
    private final Corruption corruption;
    /** Decoded bit values that start inside a byte are copied here, two buffers taking turns. */
    private byte[] copy = new byte[64];
    private byte[] otherCopy = new byte[64];

    EncodedValues(Policy p, Corruption corruption) {
        this.corruption = corruption;
        this.bitUnit = p.unit() == Unit.BIT;
        this.optional = p.grammar() == ValueGrammar.OPTIONAL;
        this.codec = bitUnit ? BitValue.codec(p) : null;
        this.bits = bitUnit ? new BitValue(codec) : null;
    }

    /** True if the encoded value at {@code at} is a tombstone (never under the raw grammar). */
    public boolean tombstone(MemorySegment s, long at) {
        if (!optional) {
            return false;
        }
        return bitUnit ? BitStrings.bit(s, at) == 0 : s.get(ValueLayout.JAVA_BYTE, at) == 0;
    }

    /**
     * The host bytes of the encoded value {@code [at, at + length)} of {@code s}, or null for a
     * tombstone: a view of {@code s} when they start on a byte boundary, else a copy that stays
     * valid until the decode after next (so an older and a newer value can be held together).
     */
    public MemorySegment decode(MemorySegment s, long at, long length) {
        if (!bitUnit) {
            if (!optional) {
                return s.asSlice(at, length);
            }
            return s.get(ValueLayout.JAVA_BYTE, at) == 0 ? null : s.asSlice(at + 1, length - 1);
        }
        BitValue v = bits;
        v.decode(s, corruption, at, length);
        if (v.tombstone) {
            return null;
        }
        if ((v.at & 7) == 0) {
            return s.asSlice(v.at >>> 3, v.bytes);
        }
        int n = Math.toIntExact(v.bytes);
        byte[] b = otherCopy.length >= n ? otherCopy : new byte[Math.max(n, 2 * otherCopy.length)];
        otherCopy = copy;
        copy = b;
        BitStrings.copy(s, v.at, b, 0, 8L * n);
        return MemorySegment.ofArray(b).asSlice(0, n);
    }

    /** Units the encoding of {@code v} (null: a tombstone) takes. */
    public long encodedLength(MemorySegment v) {
        if (v == null && !optional) {
            throw new IllegalArgumentException("a value merger returned null (a tombstone) under the RAW grammar");
        }
        if (v == null) {
            return 1;
        }
        long n = v.byteSize();
        if (!bitUnit) {
            return optional ? n + 1 : n;
        }
        return switch (codec) {
            case BYTES -> 8 * n;
            case STRING -> BitOutput.eg0Bits(n) + 8 * n;
            case OPTIONAL_STRING -> 1 + BitOutput.eg0Bits(n) + 8 * n;
        };
    }

    /** Encodes {@code v} (null: a tombstone) into {@code out} from unit 0; it must hold {@link #encodedLength} units. */
    public void encode(MemorySegment v, byte[] out) {
        long n = v == null ? 0 : v.byteSize();
        if (!bitUnit) {
            int at = 0;
            if (optional) {
                out[at++] = v == null ? OptionalValue.ABSENT : OptionalValue.PRESENT;
            }
            if (v != null) {
                MemorySegment.copy(v, ValueLayout.JAVA_BYTE, 0, out, at, (int) n);
            }
            return;
        }
        long at = 0;
        if (optional) {
            BitStrings.write(out, at++, v == null ? 0 : 1, 1);
            if (v == null) {
                return;
            }
        }
        if (codec != BitValue.Codec.BYTES) {
            at = writeEg0(out, at, n);
        }
        long end = at + 8 * n;
        BitStrings.copy(v, 0, out, at, 8 * n);
        BitStrings.clearTail(out, end);
    }

    /** EG0 of a byte count below 2^31 (at most 63 bits) at bit {@code at}; returns the bit after it. */
    private static long writeEg0(byte[] out, long at, long v) {
        long x = v + 1;
        int b = 64 - Long.numberOfLeadingZeros(x);
        BitStrings.write(out, at, 0, b - 1);
        BitStrings.write(out, at + b - 1, x, b);
        return at + 2L * b - 1;
    }
}

package dev.everett.segment.fc;

import dev.everett.api.Policy;
import dev.everett.api.SegmentFormat;
import dev.everett.api.ValueGrammar;
import dev.everett.segment.bits.BitInput;
import dev.everett.segment.bits.BitOutput;
import dev.everett.segment.bits.BitStrings;
import dev.everett.segment.io.Corruption;
import java.lang.foreign.MemorySegment;

/**
 * Decodes one encoded value of a bit-unit native, given its bit span, into a tombstone flag and
 * the position and length of its bytes (which may start at any bit). One instance is reused.
 *
 * <ul>
 *   <li>{@link Codec#BYTES} (KV02, raw): the span is the bytes, so its length must be a multiple of 8;</li>
 *   <li>{@link Codec#STRING} (KV03, raw; {@code string_value<EG0>}): EG0(byte count), the bytes;</li>
 *   <li>{@link Codec#OPTIONAL_STRING} (optional, both formats; {@code tombstone_value<string_value<EG0>>}):
 *       {@code 0} absent, or {@code 1} then the string codec.</li>
 * </ul>
 * The codec must fill the span exactly.
 */
public final class BitValue extends ValueCodec {
    public enum Codec { BYTES, STRING, OPTIONAL_STRING }

    private final Codec codec;
    private final BitInput in = new BitInput(MemorySegment.NULL, null, 0, 0);
    private byte[] scratch = new byte[64];
    private MemorySegment scratchView = MemorySegment.ofArray(scratch);

    public BitValue(Codec codec) {
        this.codec = codec;
    }

    public Codec codec() {
        return codec;
    }

    /** The codec of a bit-unit native written under {@code p}. */
    public static Codec codec(Policy p) {
        if (p.grammar() == ValueGrammar.OPTIONAL) {
            return Codec.OPTIONAL_STRING;
        }
        return p.format() == SegmentFormat.KV03 ? Codec.STRING : Codec.BYTES;
    }

    /** Decodes the value occupying bits {@code [from, from + length)}; {@link #at} is then a bit position. */
    @Override
    public void decode(MemorySegment s, Corruption c, long from, long length) {
        if (codec == Codec.BYTES) {
            if ((length & 7) != 0) {
                throw c.at(from >>> 3, "raw value of " + length + " bits is not whole bytes");
            }
            tombstone = false;
            at = from;
            bytes = length >>> 3;
            return;
        }
        in.over(s, c, from, from + length);
        if (codec == Codec.OPTIONAL_STRING && in.readBits(1, "presence bit") == 0) {
            if (length != 1) {
                throw c.at(from >>> 3, "absent value (presence bit 0) followed by " + (length - 1) + " bits");
            }
            tombstone = true;
            at = in.pos;
            bytes = 0;
            return;
        }
        long n = in.readEg0("value byte count");
        if (Long.compareUnsigned(n, (in.end() - in.pos) >>> 3) > 0 || in.end() - in.pos != 8 * n) {
            throw c.at(from >>> 3, "value of " + Long.toUnsignedString(n) + " bytes does not fill its " + length + "-bit slot exactly");
        }
        tombstone = false;
        at = in.pos;
        bytes = n;
    }

    /** As {@link #decode(MemorySegment, Corruption, long, long)}, or for a KV03 frame the value it has parsed already. */
    @Override
    public void decode(Frame f, MemorySegment s, Corruption c) {
        if (f instanceof Kv03Frame k) {
            of(k);
        } else {
            decode(s, c, f.valueAt, f.valueLength);
        }
    }

    /** Takes the value a KV03 frame has just parsed (it delimits itself, so the frame decoded it already). */
    public void of(Kv03Frame f) {
        tombstone = !f.present;
        at = f.payloadAt;
        bytes = f.payloadBytes;
    }

    @Override
    public boolean absentAt(MemorySegment s, long at) {
        return codec == Codec.OPTIONAL_STRING && BitStrings.bit(s, at) == 0;
    }

    @Override
    public long encodedLength(boolean present, long n) {
        if (!present) {
            if (codec != Codec.OPTIONAL_STRING) {
                throw new IllegalArgumentException("a tombstone needs the OPTIONAL value grammar; this policy's values are RAW");
            }
            return 1;
        }
        return switch (codec) {
            case BYTES -> 8 * n;
            case STRING -> BitOutput.eg0Bits(n) + 8 * n;
            case OPTIONAL_STRING -> 1 + BitOutput.eg0Bits(n) + 8 * n;
        };
    }

    @Override
    public void encode(MemorySegment v, byte[] out) {
        long at = 0;
        if (codec == Codec.OPTIONAL_STRING) {
            BitStrings.write(out, at++, v == null ? 0 : 1, 1);
            if (v == null) {
                return;
            }
        }
        long n = v.byteSize();
        if (codec != Codec.BYTES) {
            at = writeEg0(out, at, n);
        }
        BitStrings.copy(v, 0, out, at, 8 * n);
        BitStrings.clearTail(out, at + 8 * n);
    }

    /** EG0 of a byte count below 2^31 (at most 63 bits) at bit {@code at}; returns the bit after it. */
    private static long writeEg0(byte[] out, long at, long v) {
        long x = v + 1;
        int b = 64 - Long.numberOfLeadingZeros(x);
        BitStrings.write(out, at, 0, b - 1);
        BitStrings.write(out, at + b - 1, x, b);
        return at + 2L * b - 1;
    }

    @Override
    public long byteOffset() {
        return (at & 7) == 0 ? at >>> 3 : -1;
    }

    @Override
    public void copyTo(MemorySegment s, byte[] dst) {
        BitStrings.copy(s, at, dst, 0, 8 * bytes);
    }

    /** The value's bytes: a view of the mapping when they start on a byte boundary, else a fresh copy. */
    @Override
    public MemorySegment copyOrView(MemorySegment s) {
        if ((at & 7) == 0) {
            return s.asSlice(at >>> 3, bytes);
        }
        byte[] b = new byte[copyable()];
        BitStrings.copy(s, at, b, 0, 8 * bytes);
        return MemorySegment.ofArray(b);
    }

    /**
     * For a cursor step, without allocating: the offset of the value's bytes in
     * {@link #source}, which is the mapping when they start on a byte boundary, else a reused
     * buffer (valid until the next call) into which this copies them. Call before {@link #source}.
     */
    @Override
    public long offsetIn(MemorySegment s) {
        if ((at & 7) == 0) {
            return at >>> 3;
        }
        int n = copyable();
        if (scratch.length < n) {
            scratch = new byte[Math.max(n, 2 * scratch.length)];
            scratchView = MemorySegment.ofArray(scratch);
        }
        BitStrings.copy(s, at, scratch, 0, 8L * n);
        return 0;
    }

    /** The byte count, if an array can hold a copy of the value. */
    private int copyable() {
        if (bytes > Integer.MAX_VALUE - 16) {
            throw new UnsupportedOperationException("a value of " + bytes + " bytes that starts inside a byte is too large to copy into an array");
        }
        return (int) bytes;
    }

    /** Where the bytes {@link #offsetIn} located live: the mapping or the scratch buffer. */
    @Override
    public MemorySegment source(MemorySegment s) {
        return (at & 7) == 0 ? s : scratchView;
    }
}

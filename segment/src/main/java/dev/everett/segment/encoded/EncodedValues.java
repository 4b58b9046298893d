package dev.everett.segment.encoded;

import dev.everett.api.Policy;
import dev.everett.segment.fc.Framing;
import dev.everett.segment.fc.ValueCodec;
import dev.everett.segment.io.Corruption;
import java.lang.foreign.MemorySegment;

/**
 * The value codec of a policy, for consumers of {@link EncodedRecords} that combine values (the
 * native merger's value callbacks): it turns an encoded value, in the units of
 * {@link EncodedRecords} (bytes, or bits at a bit offset), into the host's bytes, and host bytes
 * back into an encoded value that {@link EncodedOutput#append} copies like any input value.
 * The codec is the one {@link Framing#values} chooses for the policy:
 *
 * <ul>
 *   <li>Byte units: the optional grammar's tag byte ({@code 00} absent, {@code 01} + bytes), or
 *       the raw bytes.</li>
 *   <li>Bit units ({@link dev.everett.segment.fc.BitValue}'s codecs): optional {@code 0} /
 *       {@code 1} EG0(byte count) bytes in both formats; raw KV02 bit the bytes; raw KV03
 *       EG0(byte count) then the bytes.</li>
 * </ul>
 * Values it decodes were already checked by {@link EncodedRecords} or were encoded here. Get one
 * from {@link EncodedRecords#values()}.
 */
public final class EncodedValues {
    private final ValueCodec codec;
    private final Corruption corruption;
    /** Decoded bit values that start inside a byte are copied here, two buffers taking turns. */
    private byte[] copy = new byte[64];
    private byte[] otherCopy = new byte[64];

    EncodedValues(Policy p, Corruption corruption) {
        this.corruption = corruption;
        this.codec = Framing.values(p);
    }

    /** True if the encoded value at {@code at} is a tombstone (never under the raw grammar). */
    public boolean tombstone(MemorySegment s, long at) {
        return codec.absentAt(s, at);
    }

    /**
     * The host bytes of the encoded value {@code [at, at + length)} of {@code s}, or null for a
     * tombstone: a view of {@code s} when they start on a byte boundary, else a copy that stays
     * valid until the decode after next (so an older and a newer value can be held together).
     */
    public MemorySegment decode(MemorySegment s, long at, long length) {
        ValueCodec v = codec;
        v.decode(s, corruption, at, length);
        if (v.tombstone) {
            return null;
        }
        long offset = v.byteOffset();
        if (offset >= 0) {
            return s.asSlice(offset, v.bytes);
        }
        int n = Math.toIntExact(v.bytes);
        byte[] b = otherCopy.length >= n ? otherCopy : new byte[Math.max(n, 2 * otherCopy.length)];
        otherCopy = copy;
        copy = b;
        v.copyTo(s, b);
        return MemorySegment.ofArray(b).asSlice(0, n);
    }

    /**
     * Units the encoding of {@code v} (null: a tombstone) takes.
     *
     * @throws IllegalArgumentException for a tombstone under the raw grammar
     */
    public long encodedLength(MemorySegment v) {
        return codec.encodedLength(v != null, v == null ? 0 : v.byteSize());
    }

    /** Encodes {@code v} (null: a tombstone) into {@code out} from unit 0; it must hold {@link #encodedLength} units. */
    public void encode(MemorySegment v, byte[] out) {
        codec.encode(v, out);
    }
}

package dev.everett.segment.fc;

import dev.everett.segment.io.Corruption;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** Byte-unit values under the raw grammar: the encoded bytes are the value; never a tombstone. */
final class RawValue extends ValueCodec {
    @Override
    public void decode(MemorySegment s, Corruption c, long from, long length) {
        tombstone = false;
        at = from;
        bytes = length;
    }

    @Override
    public void checkWalked(Frame f, MemorySegment s, Corruption c) {
        // Any bytes are a raw value.
    }

    @Override
    public boolean absentAt(MemorySegment s, long at) {
        return false;
    }

    @Override
    public long encodedLength(boolean present, long bytes) {
        if (!present) {
            throw new IllegalArgumentException("a tombstone needs the OPTIONAL value grammar; this policy's values are RAW");
        }
        return bytes;
    }

    @Override
    public void encode(MemorySegment v, byte[] out) {
        MemorySegment.copy(v, ValueLayout.JAVA_BYTE, 0, out, 0, (int) v.byteSize());
    }
}

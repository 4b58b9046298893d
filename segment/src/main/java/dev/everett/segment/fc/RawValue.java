package dev.everett.segment.fc;

import dev.everett.segment.io.Corruption;
import java.lang.foreign.MemorySegment;

/** Byte-unit values under the raw grammar: the encoded bytes are the value; never a tombstone. */
final class RawValue extends ValueCodec {
    @Override
    public void decode(MemorySegment s, Corruption c, long from, long length) {
        tombstone = false;
        at = from;
        bytes = length;
    }
}

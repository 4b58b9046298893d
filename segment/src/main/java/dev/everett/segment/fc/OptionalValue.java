package dev.everett.segment.fc;

import dev.everett.segment.io.Corruption;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The byte transport of optional values: {@code 00} alone is absent (a tombstone), {@code 01}
 * followed by the bytes is present (the empty value is {@code 01}). Anything else is corrupt.
 */
public final class OptionalValue extends ValueCodec {
    public static final byte ABSENT = 0;
    public static final byte PRESENT = 1;

    OptionalValue() {
    }

    @Override
    public void decode(MemorySegment s, Corruption c, long from, long length) {
        tombstone = isTombstone(s, c, from, length);
        at = from + 1;
        bytes = tombstone ? 0 : length - 1;
    }

    /**
     * A walk's record: the tag usually lies in the word the byte frame loaded for the record's
     * header, so it is taken from there; anything but a well-formed tag goes through
     * {@link #decode(MemorySegment, Corruption, long, long)}, which names what is wrong.
     */
    @Override
    public void decode(Frame f, MemorySegment s, Corruption c) {
        long from = f.valueAt;
        long length = f.valueLength;
        if (length != 0 && f instanceof ByteFrame b) {
            byte tag = b.byteAt(from);
            if (tag == PRESENT || (tag == ABSENT && length == 1)) {
                tombstone = tag == ABSENT;
                at = from + 1;
                bytes = length - 1;
                return;
            }
        }
        decode(s, c, from, length);
    }

    @Override
    public boolean absentAt(MemorySegment s, long at) {
        return s.get(ValueLayout.JAVA_BYTE, at) == ABSENT;
    }

    @Override
    public long encodedLength(boolean present, long bytes) {
        return present ? 1 + bytes : 1;
    }

    @Override
    public void encode(MemorySegment v, byte[] out) {
        out[0] = v == null ? ABSENT : PRESENT;
        if (v != null) {
            MemorySegment.copy(v, ValueLayout.JAVA_BYTE, 0, out, 1, (int) v.byteSize());
        }
    }

    /**
     * Checks the encoded value at {@code at} of {@code length} bytes.
     *
     * @return true if it is a tombstone
     */
    public static boolean isTombstone(MemorySegment s, Corruption c, long at, long length) {
        if (length != 0) {
            byte tag = s.get(ValueLayout.JAVA_BYTE, at);
            if (tag == PRESENT) {
                return false;
            }
            if (tag == ABSENT && length == 1) {
                return true;
            }
        }
        throw malformed(s, c, at, length);
    }

    private static RuntimeException malformed(MemorySegment s, Corruption c, long at, long length) {
        if (length == 0) {
            return c.at(at, "an optional value must carry a presence tag (empty encoded value)");
        }
        byte tag = s.get(ValueLayout.JAVA_BYTE, at);
        if (tag == ABSENT) {
            return c.at(at, "absent value (tag 00) followed by " + (length - 1) + " bytes");
        }
        return c.at(at, "bad presence tag 0x" + Integer.toHexString(tag & 0xFF) + " (expected 00 or 01)");
    }
}

package dev.everett.api;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The one copy of a key or value out of a segment into a new array, for the {@code keyBytes} and
 * {@code valueBytes} of cursors and lookups. Not {@link MemorySegment#toArray}: that also wraps the
 * new array in a heap segment and names the array class (a reflective lookup) on every call, a
 * few percent of a point get.
 */
final class SegmentBytes {

    private SegmentBytes() {
    }

    /** All of {@code from}, in a new array. */
    static byte[] copy(MemorySegment from) {
        return copy(from, from.byteSize());
    }

    /** Bytes {@code [0, length)} of {@code from}, in a new array. */
    static byte[] copy(MemorySegment from, long length) {
        if (length > Integer.MAX_VALUE) {
            throw new IllegalStateException("a key or value of " + length + " bytes does not fit a byte array");
        }
        byte[] out = new byte[(int) length];
        MemorySegment.copy(from, ValueLayout.JAVA_BYTE, 0, out, 0, out.length);
        return out;
    }
}

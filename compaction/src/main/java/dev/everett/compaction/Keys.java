package dev.everett.compaction;

import dev.everett.api.SeekCursor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** Unsigned byte-string order over cursors' reused key buffers, without copying keys. */
final class Keys {
    private Keys() {
    }

    static int compare(MemorySegment a, long aLength, MemorySegment b, long bLength) {
        long m = MemorySegment.mismatch(a, 0, aLength, b, 0, bLength);
        if (m < 0) {
            return 0;
        }
        if (m == aLength || m == bLength) {
            return Long.compare(aLength, bLength);
        }
        return Integer.compare(a.get(ValueLayout.JAVA_BYTE, m) & 0xFF, b.get(ValueLayout.JAVA_BYTE, m) & 0xFF);
    }

    static int compare(SeekCursor a, SeekCursor b) {
        return compare(a.keyBuffer(), a.keyLength(), b.keyBuffer(), b.keyLength());
    }

    static int compare(SeekCursor a, byte[] key) {
        return compare(a.keyBuffer(), a.keyLength(), MemorySegment.ofArray(key), key.length);
    }
}

package dev.everett.segment.io;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Copies of a few bytes from a segment into an array. Literals and values of store keys are mostly
 * a few bytes long, and copied once per record; {@link MemorySegment#copy} pays a fixed cost per
 * call (checks, then a copy routine) that is larger than such a copy. Two word loads and stores do
 * it when both sides have 16 bytes of room, else a byte loop.
 */
public final class ShortCopy {
    /** The longest copy {@link #into} takes. */
    public static final int MAX = 16;
    private static final VarHandle WORD = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());
    private static final ValueLayout.OfLong WORD_LAYOUT = ValueLayout.JAVA_LONG_UNALIGNED;

    private ShortCopy() {
    }

    /**
     * Copies {@code src[at, at + length)} to {@code dst[dstAt, dstAt + length)}, for a length of
     * at most {@link #MAX} that fits in {@code dst}. It may also store up to {@code MAX - length}
     * further bytes after the copy (from {@code src}), where {@code dst} has room for them: the
     * caller keeps nothing there.
     */
    public static void into(MemorySegment src, long at, byte[] dst, int dstAt, int length) {
        if (dstAt + MAX <= dst.length && at + MAX <= src.byteSize()) {
            WORD.set(dst, dstAt, src.get(WORD_LAYOUT, at));
            WORD.set(dst, dstAt + 8, src.get(WORD_LAYOUT, at + 8));
            return;
        }
        for (int i = 0; i < length; i++) {
            dst[dstAt + i] = src.get(ValueLayout.JAVA_BYTE, at + i);
        }
    }
}

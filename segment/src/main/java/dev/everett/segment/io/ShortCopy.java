package dev.everett.segment.io;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Copies of a few bytes from a segment into an array. Literals and values of store keys are mostly
 * a few bytes long, and copied once per record; {@link MemorySegment#copy} pays a fixed cost per
 * call (checks, then a copy routine) that is larger than such a copy. Where both sides have
 * {@link #MAX} bytes of room, {@link #words} does it with two word loads and stores. It is kept
 * this small so that it inlines into the callers' record loops, which check the room themselves.
 */
public final class ShortCopy {
    /** The longest copy {@link #words} makes, and the room it needs on both sides. */
    public static final int MAX = 16;
    private static final VarHandle WORD = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());
    private static final ValueLayout.OfLong WORD_LAYOUT = ValueLayout.JAVA_LONG_UNALIGNED;

    private ShortCopy() {
    }

    /**
     * Copies {@code src[at, at + MAX)} to {@code dst[dstAt, dstAt + MAX)}: a copy of at most
     * {@link #MAX} bytes, with the bytes after it stored too. The caller checks that both ranges
     * exist and keeps nothing in {@code dst} after the bytes it wanted.
     */
    public static void words(MemorySegment src, long at, byte[] dst, int dstAt) {
        WORD.set(dst, dstAt, src.get(WORD_LAYOUT, at));
        WORD.set(dst, dstAt + 8, src.get(WORD_LAYOUT, at + 8));
    }
}

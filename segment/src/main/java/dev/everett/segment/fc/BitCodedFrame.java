package dev.everett.segment.fc;

import dev.everett.api.BackspaceCode;
import dev.everett.segment.bits.BitInput;
import dev.everett.segment.io.Corruption;
import java.lang.foreign.MemorySegment;

/**
 * What the two bit-unit frames ({@link BitFrame}, {@link Kv03Frame}) take from the stream they
 * are bound to: the bit reader, the stream's end and common width, and the backspace code. Each
 * keeps its own {@link #read}, the hot parse of its grammar.
 */
abstract sealed class BitCodedFrame extends Frame permits BitFrame, Kv03Frame {
    final BitInput in = new BitInput(MemorySegment.NULL, null, 0, 0);
    Corruption corruption;
    long end;
    long commonWidth;
    boolean golomb;
    long parameter;

    /** Starts a record at {@link #pos}: the bit reader goes there; returns the position. */
    final long begin() {
        long at = pos;
        in.pos = at;
        start = at;
        return at;
    }

    /** Binds to {@code stream}, which must be framed as {@code kind} ({@code name} says what this frame is, for the error). */
    final Framing bindBits(FcStream stream, Framing.Kind kind, String name) {
        Framing c = stream.framing();
        if (c.kind() != kind) {
            throw new IllegalArgumentException("a " + name + " cannot read a " + c + " stream");
        }
        in.over(stream.segment(), stream.corruption(), stream.start(), stream.end());
        this.corruption = stream.corruption();
        this.end = stream.end();
        this.commonWidth = stream.commonWidth();
        this.golomb = c.backspace().code() == BackspaceCode.GOLOMB;
        this.parameter = c.backspace().parameter();
        return c;
    }
}

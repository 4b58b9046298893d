package dev.everett.segment.fc;

import dev.everett.api.CorruptSegmentException;
import dev.everett.segment.bits.EliasFanoReader;
import dev.everett.segment.io.Corruption;
import java.lang.foreign.MemorySegment;

/**
 * What the sequential walks of both units share: the stream's shape, the walk's place, and the
 * checks at block starts and at the end. The per-record step lives in each unit's final class
 * ({@link ByteWalker}, {@link BitWalker}) with its own concrete frame and key buffer, so the hot
 * loop has no virtual call; the checks here are final methods it calls at most once per block.
 */
abstract sealed class StreamWalk implements KeyWalker permits ByteWalker, BitWalker {
    final MemorySegment s;
    final Corruption corruption;
    final StreamUnits units;
    private final EliasFanoReader offsets;
    private EliasFanoReader.Cursor blockOffsets;
    final long fcStart;
    private final long fcEnd;
    private final long blockWidth;
    private final long stride;
    final long count;
    private final long terminalLength;
    private final long terminalAt;
    final boolean unique;

    long ordinal = -1;
    long nextBlock;
    private boolean ended;
    private long firstNonCanonical = -1;

    StreamWalk(FcStream st) {
        this.s = st.segment();
        this.corruption = st.corruption();
        this.units = st.framing().units();
        this.offsets = st.offsets();
        this.blockOffsets = offsets.cursor(0);
        this.fcStart = st.start();
        this.fcEnd = st.end();
        this.blockWidth = st.blockWidth();
        this.stride = st.stride();
        this.count = st.count();
        this.terminalLength = st.terminalLength();
        this.terminalAt = st.terminalAt();
        this.unique = st.unique();
    }

    @Override
    public final long ordinal() {
        return ordinal;
    }

    /** Checks that record {@code o}, a block start at position {@code pos}, sits where its Elias–Fano entry says. */
    final void checkBlockStart(long o, long pos) {
        long expected = blockOffsets.next() + o * stride;
        if (expected != pos - fcStart) {
            throw corruption.at(units.byteOffset(pos), "block " + o / blockWidth + " starts at " + streamAt() + " " + (pos - fcStart)
                    + " but its Elias–Fano entry says " + expected);
        }
        nextBlock += blockWidth;
    }

    private String streamAt() {
        return units.partialBytes() ? "stream bit" : "stream offset";
    }

    /** Past the last record ({@code pos} where the records end, {@code keyUnits} the last key's length): checks the end once; false. */
    final boolean finish(long pos, long keyUnits) {
        if (ended) {
            return false;
        }
        ended = true;
        ordinal = count;
        if (pos != fcEnd) {
            throw corruption.at(units.byteOffset(pos), "records end at " + streamAt() + " " + (pos - fcStart) + " but the extent is " + (fcEnd - fcStart));
        }
        if (count > 0 && keyUnits != terminalLength) {
            throw corruption.at(terminalAt, "terminal key length " + terminalLength + " but the last key has " + keyUnits
                    + (units.partialBytes() ? " bits" : " units"));
        }
        long last = blockOffsets.next();
        if (last != fcEnd - fcStart - count * stride) {
            throw corruption.at(units.byteOffset(fcEnd), "last Elias–Fano entry " + last + " is not the extent less the value stride");
        }
        return false;
    }

    /** After a subclass took over a resumed key: the walk continues after record {@code at}. */
    final void resumeAt(long at) {
        ordinal = at;
        long nextBlockIndex = at / blockWidth + 1;
        nextBlock = nextBlockIndex * blockWidth;
        blockOffsets = offsets.cursor(Math.min(nextBlockIndex, offsets.size() - 1));
        ended = false;
    }

    final void nonCanonical(long o) {
        if (firstNonCanonical < 0) {
            firstNonCanonical = o;
        }
    }

    final CorruptSegmentException outOfOrder(long o, long recordStart) {
        return corruption.at(units.byteOffset(recordStart), "key of record " + o + (unique ? " is not greater than" : " is less than") + " its predecessor");
    }

    /** Stops the walk; later calls to {@link #next()} return false. */
    @Override
    public final void stop() {
        ended = true;
        ordinal = count;
    }

    /** Ordinal of the first record found with shorter-than-maximal retention, or -1. */
    @Override
    public final long firstNonCanonical() {
        return firstNonCanonical;
    }
}

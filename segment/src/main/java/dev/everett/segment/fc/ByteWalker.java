package dev.everett.segment.fc;

import dev.everett.api.CorruptSegmentException;
import dev.everett.segment.bits.EliasFanoReader;
import dev.everett.segment.io.Corruption;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * The sequential walk of one byte-unit front-coded stream (a native stream, or a borrowed one
 * with repeats allowed and no values). The key is rebuilt in one reused buffer: each record
 * keeps the retained prefix already there and copies only its suffix.
 *
 * <p>While walking it checks what a query may rely on: framing and bounds, that each block
 * start sits where its Elias–Fano entry says, key order (one byte comparison in the canonical
 * case), and at the end the extent, the terminal key length and the last residual. The error
 * paths are separate cold methods so that {@link #next()} stays small enough to inline.
 */
public final class ByteWalker implements KeyWalker {
    // Deliberately a near-copy of BitWalker: each is the monomorphic hot loop of one unit (no per-record virtual calls).
    private final MemorySegment s;
    private final Corruption corruption;
    private final ByteFrame frame;
    private EliasFanoReader.Cursor blockOffsets;
    private final EliasFanoReader offsets;
    private final long fcStart;
    private final long fcEnd;
    private final long blockWidth;
    private final long stride;
    private final long count;
    private final long terminalLength;
    private final long terminalAt;
    private final boolean unique;

    private long ordinal = -1;
    private long nextBlock;
    public byte[] key = new byte[64];
    public int keyLength;
    private boolean ended;
    private long firstNonCanonical = -1;
    private byte[] displaced = new byte[0];

    ByteWalker(MemorySegment s, Corruption corruption, EliasFanoReader offsets, long fcStart, long fcEnd,
             long blockWidth, long commonWidth, long count, long terminalLength, long terminalAt, boolean unique) {
        this.s = s;
        this.corruption = corruption;
        this.fcStart = fcStart;
        this.fcEnd = fcEnd;
        this.blockWidth = blockWidth;
        this.stride = Math.max(0, commonWidth);
        this.count = count;
        this.terminalLength = terminalLength;
        this.terminalAt = terminalAt;
        this.unique = unique;
        this.frame = new ByteFrame(s, corruption, fcEnd, commonWidth, unique);
        this.frame.pos = fcStart;
        this.offsets = offsets;
        this.blockOffsets = offsets.cursor(0);
    }

    @Override
    public ByteFrame frame() {
        return frame;
    }

    @Override
    public long ordinal() {
        return ordinal;
    }

    @Override
    public byte[] keyBuffer() {
        return key;
    }

    @Override
    public long keyUnits() {
        return keyLength;
    }

    /** Moves to the next record; false once past the last (after checking the stream's end). */
    @Override
    public boolean next() {
        long o = ordinal + 1;
        if (o >= count) {
            return finish();
        }
        boolean blockStart = o == nextBlock;
        if (blockStart) {
            checkBlockStart(o);
        }
        int previous = keyLength;
        ByteFrame f = frame;
        f.read(blockStart, previous, o == 0, fcStart);
        long length = f.retained + f.suffixLength;
        if (length > key.length) {
            grow(length);
        }
        int retained = (int) f.retained;
        int suffix = (int) f.suffixLength;
        if (retained < previous && o > 0) {
            byte incoming = s.get(ValueLayout.JAVA_BYTE, f.suffixAt);
            int cmp = Byte.compareUnsigned(incoming, key[retained]);
            if (cmp <= 0) {
                checkConservativeOrder(o, retained, previous, cmp);
            }
        }
        copySuffix(f.suffixAt, retained, suffix);
        keyLength = (int) length;
        ordinal = o;
        return true;
    }

    private void copySuffix(long at, int to, int n) {
        if (n <= 16) {
            byte[] k = key;
            for (int i = 0; i < n; i++) {
                k[to + i] = s.get(ValueLayout.JAVA_BYTE, at + i);
            }
        } else {
            MemorySegment.copy(s, ValueLayout.JAVA_BYTE, at, key, to, n);
        }
    }

    private void checkBlockStart(long o) {
        long expected = blockOffsets.next() + o * stride;
        if (expected != frame.pos - fcStart) {
            throw corruption.at(frame.pos, "block " + o / blockWidth + " starts at stream offset " + (frame.pos - fcStart)
                    + " but its Elias–Fano entry says " + expected);
        }
        nextBlock += blockWidth;
    }

    private void grow(long length) {
        if (length > Integer.MAX_VALUE - 16) {
            throw corruption.at(frame.start, "key of " + length + " bytes exceeds the reader's 2 GiB key limit");
        }
        key = Arrays.copyOf(key, (int) Math.max(length, Math.min(Integer.MAX_VALUE - 16, 2L * key.length)));
    }

    /**
     * The first new byte is not above the old one at the same position: either the record kept
     * less than the whole shared prefix (legal, not canonical) or the keys are out of order.
     * Compare the rest of the old key with the incoming suffix before it is overwritten.
     */
    private void checkConservativeOrder(long o, int retained, int previous, int firstCmp) {
        if (firstCmp < 0) {
            throw outOfOrder(o);
        }
        if (firstNonCanonical < 0) {
            firstNonCanonical = o;
        }
        int oldRest = previous - retained;
        if (displaced.length < oldRest) {
            displaced = new byte[oldRest];
        }
        System.arraycopy(key, retained, displaced, 0, oldRest);
        long n = Math.min(oldRest, frame.suffixLength);
        for (long i = 0; i < n; i++) {
            int cmp = Byte.compareUnsigned(s.get(ValueLayout.JAVA_BYTE, frame.suffixAt + i), displaced[(int) i]);
            if (cmp != 0) {
                if (cmp < 0) {
                    throw outOfOrder(o);
                }
                return;
            }
        }
        if (frame.suffixLength < oldRest || (unique && frame.suffixLength == oldRest)) {
            throw outOfOrder(o);
        }
    }

    private CorruptSegmentException outOfOrder(long o) {
        return corruption.at(frame.start, "key of record " + o + (unique ? " is not greater than" : " is less than") + " its predecessor");
    }

    private boolean finish() {
        if (ended) {
            return false;
        }
        ended = true;
        ordinal = count;
        if (frame.pos != fcEnd) {
            throw corruption.at(frame.pos, "records end at stream offset " + (frame.pos - fcStart) + " but the extent is " + (fcEnd - fcStart));
        }
        if (count > 0 && keyLength != terminalLength) {
            throw corruption.at(terminalAt, "terminal key length " + terminalLength + " but the last key has " + keyLength + " units");
        }
        long last = blockOffsets.next();
        if (last != fcEnd - fcStart - count * stride) {
            throw corruption.at(fcEnd, "last Elias–Fano entry " + last + " is not the extent less the value stride");
        }
        return false;
    }

    /**
     * Continues a walk from record {@code at}, whose full key is {@code k[0 .. length)} and
     * whose record ends at file offset {@code end} (its key was rebuilt elsewhere, for example
     * from a query through the index): the next {@link #next()} decodes record at + 1.
     */
    @Override
    public void resume(long at, byte[] k, long units, long end) {
        int length = Math.toIntExact(units);
        if (key.length < length) {
            key = Arrays.copyOf(key, Math.max(length, 2 * key.length));
        }
        System.arraycopy(k, 0, key, 0, length);
        keyLength = length;
        ordinal = at;
        frame.pos = end;
        long nextBlockIndex = at / blockWidth + 1;
        nextBlock = nextBlockIndex * blockWidth;
        blockOffsets = offsets.cursor(Math.min(nextBlockIndex, offsets.size() - 1));
        ended = false;
    }

    /** Stops the walk; later calls to {@link #next()} return false. */
    @Override
    public void stop() {
        ended = true;
        ordinal = count;
    }

    /** Ordinal of the first record found with shorter-than-maximal retention, or -1. */
    @Override
    public long firstNonCanonical() {
        return firstNonCanonical;
    }
}

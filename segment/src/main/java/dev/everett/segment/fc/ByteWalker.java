package dev.everett.segment.fc;

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
public final class ByteWalker extends StreamWalk {
    // Its step is a near-copy of BitWalker's on purpose: each is the monomorphic hot loop of one unit.
    private final ByteFrame frame;
    public byte[] key = new byte[64];
    public int keyLength;
    private byte[] displaced = new byte[0];

    ByteWalker(FcStream st) {
        super(st);
        this.frame = new ByteFrame();
        this.frame.bind(st);
        this.frame.pos = fcStart;
    }

    @Override
    public ByteFrame frame() {
        return frame;
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
            return finish(frame.pos, keyLength);
        }
        boolean blockStart = o == nextBlock;
        if (blockStart) {
            checkBlockStart(o, frame.pos);
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
            byte incoming = f.byteAt(f.suffixAt);
            int cmp = Byte.compareUnsigned(incoming, key[retained]);
            if (cmp <= 0) {
                checkConservativeOrder(o, retained, previous, cmp);
            }
        }
        f.copyTo(f.suffixAt, key, retained, suffix);
        keyLength = (int) length;
        ordinal = o;
        return true;
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
            throw outOfOrder(o, frame.start);
        }
        nonCanonical(o);
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
                    throw outOfOrder(o, frame.start);
                }
                return;
            }
        }
        if (frame.suffixLength < oldRest || (unique && frame.suffixLength == oldRest)) {
            throw outOfOrder(o, frame.start);
        }
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
        frame.pos = end;
        resumeAt(at);
    }
}

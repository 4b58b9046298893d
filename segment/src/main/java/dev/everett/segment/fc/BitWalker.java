package dev.everett.segment.fc;

import dev.everett.segment.bits.BitStrings;
import java.util.Arrays;

/**
 * The sequential walk of one bit-unit front-coded stream (a KV02 bit native, a KV03 native, or a
 * borrowed stream of a bit-unit index), as {@link ByteWalker} walks byte-unit ones. The key is
 * rebuilt as a bit string in one reused buffer (the logical key for KV03: sort code first): each
 * record keeps the retained prefix already there and copies its suffix in 56-bit pieces. The
 * buffer's unused tail bits are kept zero.
 *
 * <p>It checks what a query may rely on: framing and bounds (in the frame), that each block start
 * sits where its Elias–Fano entry says, key order (one bit comparison in the canonical case),
 * and at the end the extent, the terminal key length and the last residual.
 */
public final class BitWalker extends StreamWalk {
    // Its step is a near-copy of ByteWalker's on purpose: each is the monomorphic hot loop of one unit.
    private final Frame frame;
    private byte[] key = new byte[64];
    private long keyBits;

    BitWalker(FcStream st) {
        super(st);
        this.frame = st.framing().newFrame();
        this.frame.bind(st);
        this.frame.pos = st.start();
    }

    @Override
    public Frame frame() {
        return frame;
    }

    @Override
    public byte[] keyBuffer() {
        return key;
    }

    /** The current key's length in bits. */
    @Override
    public long keyUnits() {
        return keyBits;
    }

    @Override
    public boolean next() {
        long o = ordinal + 1;
        if (o >= count) {
            return finish(frame.pos, keyBits);
        }
        boolean blockStart = o == nextBlock;
        if (blockStart) {
            checkBlockStart(o, frame.pos);
        }
        long previous = keyBits;
        Frame f = frame;
        f.read(blockStart, previous, o == 0, fcStart);
        long retained = f.retained;
        long suffix = f.suffixLength;
        long length = retained + suffix;
        if (length > 8L * key.length) {
            grow(length);
        }
        if (o > 0) {
            if (retained < previous && (suffix == 0 || BitStrings.bit(s, f.suffixAt) <= BitStrings.bit(key, retained))) {
                checkConservativeOrder(o, retained, previous, suffix);
            }
            if (f.respelled) {
                nonCanonical(o);
            }
        }
        BitStrings.copy(s, f.suffixAt, key, retained, suffix);
        BitStrings.clearTail(key, length);
        keyBits = length;
        ordinal = o;
        return true;
    }

    private void grow(long bits) {
        long bytes = (bits + 7) >>> 3;
        if (bytes > Integer.MAX_VALUE - 16) {
            throw corruption.at(frame.start >>> 3, "key of " + bits + " bits exceeds the reader's 2 GiB key limit");
        }
        key = Arrays.copyOf(key, (int) Math.max(bytes, Math.min(Integer.MAX_VALUE - 16, 2L * key.length)));
    }

    /**
     * The record keeps less than the previous key and its first new bit is not a 1 over a 0:
     * either it kept less than the whole shared prefix (legal, not canonical) or the keys are out
     * of order. Compare the rest of the old key with the incoming suffix before it is overwritten.
     */
    private void checkConservativeOrder(long o, long retained, long previous, long suffix) {
        long oldRest = previous - retained;
        long n = Math.min(oldRest, suffix);
        long m = BitStrings.mismatch(s, frame.suffixAt, key, retained, n);
        if (m >= 0) {
            if (BitStrings.bit(s, frame.suffixAt + m) == 0) {
                throw outOfOrder(o, frame.start);
            }
            if (m > 0) {
                nonCanonical(o);
            }
            return;
        }
        if (suffix < oldRest || (unique && suffix == oldRest)) {
            throw outOfOrder(o, frame.start);
        }
        nonCanonical(o);
    }

    @Override
    public void resume(long at, byte[] k, long bits, long end) {
        int bytes = BitStrings.bytes(bits);
        if (key.length < bytes) {
            key = Arrays.copyOf(key, Math.max(bytes, 2 * key.length));
        }
        System.arraycopy(k, 0, key, 0, bytes);
        BitStrings.clearTail(key, bits);
        keyBits = bits;
        frame.pos = end;
        resumeAt(at);
    }
}

package dev.everett.segment.index;

import dev.everett.api.BackspaceCode;
import dev.everett.api.Policy;
import dev.everett.api.Unit;
import dev.everett.segment.bits.BitOutput;
import dev.everett.segment.bits.BitStrings;
import dev.everett.segment.bits.EliasFano;
import dev.everett.segment.io.FileOutput;
import dev.everett.segment.io.LongList;
import java.io.IOException;
import java.util.Arrays;

/**
 * Front-codes a borrowed stream: keys only (the common value width is 0, so no value lengths
 * and no values), non-decreasing, repeats allowed, retention the exact shared prefix in whole
 * units. Records one residual per block start.
 *
 * <p>Byte unit: LEB128 counts and backspaces. Bit unit: the keys are logical bit strings (for
 * KV03 chains the sort code first, as the natives' walkers rebuild them), counts are EG0 and
 * backspaces use the policy's code; the stream is padded to a byte by {@link #finish()}.
 */
final class KeyStreamEncoder {
    private final FileOutput out;
    private final long start;
    private final int blockWidth;
    private final LongList residuals = new LongList();
    private byte[] previous = new byte[64];
    private long previousLength;
    private long count;
    /** Bit unit only: the bit writer, the backspace code, and the extent once finished. */
    private final BitOutput bits;
    private final BackspaceCode backspace;
    private long finishedExtent = -1;

    KeyStreamEncoder(FileOutput out, int blockWidth) {
        this.out = out;
        this.start = out.position();
        this.blockWidth = blockWidth;
        this.bits = null;
        this.backspace = null;
    }

    /** A stream under {@code policy}'s unit, block width and backspace code. */
    KeyStreamEncoder(FileOutput out, Policy policy) {
        this.out = out;
        this.start = out.position();
        this.blockWidth = policy.blockWidth();
        boolean bitUnit = policy.unit() == Unit.BIT;
        this.bits = bitUnit ? new BitOutput(out) : null;
        this.backspace = bitUnit ? policy.backspace() : null;
    }

    /** Appends a key (its first {@code length} units) not smaller than the previous one. */
    void append(byte[] key, long length) throws IOException {
        if (bits != null) {
            appendBits(key, length);
            return;
        }
        int n = (int) length;
        int lcp = 0;
        int previousBytes = (int) previousLength;
        if (count > 0) {
            int m = Arrays.mismatch(previous, 0, previousBytes, key, 0, n);
            lcp = m < 0 ? n : m;
            if (m >= 0 && (m == n || (m < previousBytes && Byte.compareUnsigned(key[m], previous[m]) < 0))) {
                throw new IllegalArgumentException("borrowed keys must not decrease (record " + count + ")");
            }
        }
        if (count % blockWidth == 0) {
            residuals.add(out.position() - start);
            out.writeVarint(lcp);
        } else {
            out.writeVarint(previousBytes - lcp);
        }
        out.writeVarint(n - lcp);
        out.write(key, lcp, n - lcp);
        if (previous.length < n) {
            previous = Arrays.copyOf(previous, Math.max(n, previous.length * 2));
        }
        System.arraycopy(key, lcp, previous, lcp, n - lcp);
        previousLength = n;
        count++;
    }

    private void appendBits(byte[] key, long length) throws IOException {
        long lcp = 0;
        if (count > 0) {
            if (BitStrings.compare(previous, previousLength, key, length) > 0) {
                throw new IllegalArgumentException("borrowed keys must not decrease (record " + count + ")");
            }
            lcp = BitStrings.commonPrefixOfBits(previous, previousLength, key, length);
        }
        BitOutput o = bits;
        if (count % blockWidth == 0) {
            residuals.add(o.bitPosition());
            o.writeEg0(lcp);
        } else if (backspace.code() == BackspaceCode.GOLOMB) {
            o.writeGolomb(previousLength - lcp, backspace.parameter());
        } else {
            o.writeExpGolomb(previousLength - lcp, (int) backspace.parameter());
        }
        o.writeEg0(length - lcp);
        o.writeBitsOf(key, lcp, length - lcp);
        int bytes = BitStrings.bytes(length);
        if (previous.length < bytes) {
            previous = Arrays.copyOf(previous, Math.max(bytes, previous.length * 2));
        }
        System.arraycopy(key, 0, previous, 0, bytes);
        BitStrings.clearTail(previous, length);
        previousLength = length;
        count++;
    }

    /** Completes the stream: a bit-unit one is padded with zero bits to a byte. */
    void finish() throws IOException {
        if (bits != null && finishedExtent < 0) {
            finishedExtent = bits.bitPosition();
            bits.padToByte();
        }
    }

    long count() {
        return count;
    }

    /** The stream's length in units (bits for bit-unit streams). */
    long extent() {
        if (bits != null) {
            return finishedExtent >= 0 ? finishedExtent : bits.bitPosition();
        }
        return out.position() - start;
    }

    long terminalLength() {
        return count == 0 ? 0 : previousLength;
    }

    /** The canonical Elias–Fano directory of the block starts plus the final extent. */
    EliasFano directory() {
        LongList r = new LongList();
        for (int i = 0; i < residuals.size(); i++) {
            r.add(residuals.array()[i]);
        }
        r.add(extent());
        return EliasFano.build(r.array(), r.size());
    }
}

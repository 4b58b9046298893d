package dev.everett.segment.index;

import dev.everett.api.BackspaceCode;
import dev.everett.api.Policy;
import dev.everett.segment.bits.BitOutput;
import dev.everett.segment.bits.BitStrings;
import dev.everett.segment.bits.EliasFano;
import dev.everett.segment.fc.BlockCountdown;
import dev.everett.segment.fc.Framing;
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
 * backspaces use the policy's code; the stream is padded to a byte by {@link #finish()}. The
 * policy's unit picks the subclass once ({@link #of}); the per-key paths do not branch on it.
 */
abstract sealed class KeyStreamEncoder permits KeyStreamEncoder.Bytes, KeyStreamEncoder.Bits {
    final FileOutput out;
    final long start;
    final LongList residuals = new LongList();
    byte[] previous = new byte[64];
    long previousLength;
    long count;
    /** Which keys start a block; asked once per key, after its checks. */
    final BlockCountdown blocks;

    private KeyStreamEncoder(FileOutput out, int blockWidth) {
        this.out = out;
        this.start = out.position();
        this.blocks = new BlockCountdown(blockWidth);
    }

    /** A stream under {@code policy}'s unit, block width and backspace code. */
    static KeyStreamEncoder of(FileOutput out, Policy policy) {
        return Framing.ofBorrowedKeys(policy).units().<Factory>choose(Bytes::new, Bits::new).open(out, policy);
    }

    private interface Factory {
        KeyStreamEncoder open(FileOutput out, Policy policy);
    }

    /** Appends a key (its first {@code length} units) not smaller than the previous one. */
    abstract void append(byte[] key, long length) throws IOException;

    /** Completes the stream: a bit-unit one is padded with zero bits to a byte. */
    abstract void finish() throws IOException;

    /** The stream's length in units (bits for bit-unit streams). */
    abstract long extent();

    long count() {
        return count;
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

    /** Keeps the first {@code bytes} bytes of {@code key} as the previous key. */
    final void keep(byte[] key, int from, int bytes) {
        if (previous.length < bytes) {
            previous = Arrays.copyOf(previous, Math.max(bytes, previous.length * 2));
        }
        System.arraycopy(key, from, previous, from, bytes - from);
    }

    /** Byte units: LEB128 counts and backspaces. */
    static final class Bytes extends KeyStreamEncoder {
        Bytes(FileOutput out, Policy policy) {
            super(out, policy.blockWidth());
        }

        @Override
        void append(byte[] key, long length) throws IOException {
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
            if (blocks.next()) {
                residuals.add(out.position() - start);
                out.writeVarint(lcp);
            } else {
                out.writeVarint(previousBytes - lcp);
            }
            out.writeVarint(n - lcp);
            out.write(key, lcp, n - lcp);
            keep(key, lcp, n);
            previousLength = n;
            count++;
        }

        @Override
        void finish() {
        }

        @Override
        long extent() {
            return out.position() - start;
        }
    }

    /** Bit units: EG0 counts, the policy's backspace code, padded to a byte at the end. */
    static final class Bits extends KeyStreamEncoder {
        private final BitOutput bits;
        private final BackspaceCode backspace;
        private long finishedExtent = -1;

        Bits(FileOutput out, Policy policy) {
            super(out, policy.blockWidth());
            this.bits = new BitOutput(out);
            this.backspace = policy.backspace();
        }

        @Override
        void append(byte[] key, long length) throws IOException {
            long lcp = 0;
            if (count > 0) {
                if (BitStrings.compare(previous, previousLength, key, length) > 0) {
                    throw new IllegalArgumentException("borrowed keys must not decrease (record " + count + ")");
                }
                lcp = BitStrings.commonPrefixOfBits(previous, previousLength, key, length);
            }
            BitOutput o = bits;
            if (blocks.next()) {
                residuals.add(o.bitPosition());
                o.writeEg0(lcp);
            } else if (backspace.code() == BackspaceCode.GOLOMB) {
                o.writeGolomb(previousLength - lcp, backspace.parameter());
            } else {
                o.writeExpGolomb(previousLength - lcp, (int) backspace.parameter());
            }
            o.writeEg0(length - lcp);
            o.writeBitsOf(key, lcp, length - lcp);
            keep(key, 0, BitStrings.bytes(length));
            BitStrings.clearTail(previous, length);
            previousLength = length;
            count++;
        }

        @Override
        void finish() throws IOException {
            if (finishedExtent < 0) {
                finishedExtent = bits.bitPosition();
                bits.padToByte();
            }
        }

        @Override
        long extent() {
            return finishedExtent >= 0 ? finishedExtent : bits.bitPosition();
        }
    }
}

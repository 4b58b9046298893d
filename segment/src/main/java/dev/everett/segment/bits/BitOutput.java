package dev.everett.segment.bits;

import dev.everett.segment.io.FileOutput;
import java.io.IOException;
import java.lang.foreign.MemorySegment;

/**
 * Writes a bit string MSB-first into a {@link FileOutput}: the first bit written is bit 7 of the
 * first byte. Bits gather in a 64-bit reservoir and leave it eight bytes at a time, so a code of
 * any width costs a shift and an or. {@link #padToByte()} completes the last byte with zero bits.
 *
 * <p>Carries the integer codes of bit-unit streams: exponential-Golomb of order 0 for counts,
 * order k or Golomb with modulus M for backspaces.
 */
public final class BitOutput {
    private final FileOutput out;
    private final long startByte;
    private long reservoir;
    private int used;
    private long flushedBytes;

    public BitOutput(FileOutput out) {
        this.out = out;
        this.startByte = out.position();
    }

    /** Bits written so far. */
    public long bitPosition() {
        return 8 * flushedBytes + used;
    }

    /** Writes the low {@code n} bits of {@code v}, most significant first; 0 ≤ n ≤ 64. */
    public void writeBits(long v, int n) throws IOException {
        if (n == 0) {
            return;
        }
        if (n < 64) {
            v &= (1L << n) - 1;
        }
        int free = 64 - used;
        if (n <= free) {
            reservoir |= v << (free - n);
            used += n;
            if (used == 64) {
                emit(reservoir, 8);
                reservoir = 0;
                used = 0;
            }
        } else {
            int rest = n - free;
            reservoir |= v >>> rest;
            emit(reservoir, 8);
            reservoir = v << (64 - rest);
            used = rest;
        }
    }

    void writeZeros(long n) throws IOException {
        while (n > 0) {
            int k = (int) Math.min(n, 64);
            writeBits(0, k);
            n -= k;
        }
    }

    /** Exponential-Golomb of order 0: (b − 1) zeros, then v + 1 in b bits. 2^64 − 1 takes 129 bits. */
    public void writeEg0(long v) throws IOException {
        if (v == -1L) {
            writeZeros(64);
            writeBits(1, 1);
            writeZeros(64);
            return;
        }
        long x = v + 1;
        int b = 64 - Long.numberOfLeadingZeros(x);
        writeZeros(b - 1);
        writeBits(x, b);
    }

    /** Exponential-Golomb of order k: EG0(v >> k), then the low k bits of v. */
    public void writeExpGolomb(long v, int k) throws IOException {
        writeEg0(v >>> k);
        writeBits(v, k);
    }

    /** Golomb with modulus m: ⌊v/m⌋ zeros and a one, then v mod m in truncated binary. */
    public void writeGolomb(long v, long m) throws IOException {
        long q = Long.divideUnsigned(v, m);
        long r = Long.remainderUnsigned(v, m);
        writeZeros(q);
        writeBits(1, 1);
        int b = 64 - Long.numberOfLeadingZeros(m - 1);
        long cutoff = (1L << b) - m;
        if (r < cutoff) {
            writeBits(r, b - 1);
        } else {
            writeBits(r + cutoff, b);
        }
    }

    /** Copies {@code n} bits of {@code src} starting at bit {@code from} (MSB-first within bytes). */
    public void writeBitsOf(byte[] src, long from, long n) throws IOException {
        while (n > 0) {
            int k = (int) Math.min(n, 56);
            writeBits(BitStrings.read(src, from, k), k);
            from += k;
            n -= k;
        }
    }

    /**
     * Copies {@code n} bits of a mapped segment starting at bit {@code from}: 64 bits per step
     * (the native merger copies whole literals and values this way, some of them kilobytes).
     */
    public void writeBitsOf(MemorySegment src, long from, long n) throws IOException {
        if (n >= LONG_RUN) {
            writeLongRun(src, from, n);
            return;
        }
        while (n >= 64) {
            writeBits(BitStrings.read64(src, from), 64);
            from += 64;
            n -= 64;
        }
        while (n > 0) {
            int k = (int) Math.min(n, 56);
            writeBits(BitStrings.read(src, from, k), k);
            from += k;
            n -= k;
        }
    }

    /**
     * Runs at least this long (a 4 KiB key literal, say) take {@link #writeLongRun}; shorter ones
     * stay in the small loop above, which the record writer inlines.
     */
    private static final long LONG_RUN = 256;

    /**
     * A long copy out of line: the source is brought to a byte boundary, then each step loads
     * one aligned big-endian word and leaves one whole word, the reservoir's pending bits in
     * front. When the output is byte-aligned as well, the pending whole bytes leave first and
     * the run is one bulk copy.
     */
    private void writeLongRun(MemorySegment src, long from, long n) throws IOException {
        int head = (int) ((8 - (from & 7)) & 7);
        if (head > 0) {
            writeBits(BitStrings.read(src, from, head), head);
            from += head;
            n -= head;
        }
        long at = from >>> 3;
        long words = Math.min(n >>> 6, (src.byteSize() - at) >>> 3);
        if ((used & 7) == 0) {
            emit(reservoir, used >>> 3);
            reservoir = 0;
            used = 0;
            long bytes = 8 * words;
            out.write(src, at, bytes);
            flushedBytes += bytes;
        } else {
            // 0 < used < 64: the pending bits lead each word written, the word's low bits wait.
            reservoir = out.writeShiftedWords(src, at, words, reservoir, used);
            flushedBytes += 8 * words;
        }
        from += 64 * words;
        n -= 64 * words;
        while (n > 0) {
            int k = (int) Math.min(n, 56);
            writeBits(BitStrings.read(src, from, k), k);
            from += k;
            n -= k;
        }
    }

    /** Bits of the exponential-Golomb order-0 code of {@code v}. */
    public static int eg0Bits(long v) {
        if (v == -1L) {
            return 129;
        }
        return 2 * (64 - Long.numberOfLeadingZeros(v + 1)) - 1;
    }

    /** Zero-pads to a whole byte and hands every pending byte to the file output. */
    public void padToByte() throws IOException {
        int bytes = (used + 7) >>> 3;
        emit(reservoir, bytes);
        reservoir = 0;
        used = 0;
    }

    private void emit(long word, int bytes) throws IOException {
        if (bytes == 8) {
            out.writeLongBigEndian(word);
            flushedBytes += 8;
            return;
        }
        for (int i = 0; i < bytes; i++) {
            out.writeByte((int) (word >>> (56 - 8 * i)));
        }
        flushedBytes += bytes;
    }

    /** File byte position at which this bit stream began. */
    long startByte() {
        return startByte;
    }
}

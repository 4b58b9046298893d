package dev.everett.segment.bits;

import dev.everett.segment.io.Corruption;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Reads an MSB-first bit string in place from a mapped file, between a start and an end bit
 * position. Each read takes one unaligned 64-bit big-endian load at the current byte (plus one
 * byte when a field straddles it), so codes decode without per-bit loops. Every read is checked
 * against the end first: running off the stream raises {@code CorruptSegmentException}.
 */
public final class BitInput {
    private static final ValueLayout.OfLong BE64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private MemorySegment s;
    private Corruption corruption;
    private long end;
    private long segmentBytes;
    /** Absolute bit position of the next bit. */
    public long pos;

    public BitInput(MemorySegment s, Corruption corruption, long startBit, long endBit) {
        over(s, corruption, startBit, endBit);
    }

    /** Reads another segment (or the same one) from {@code startBit} up to {@code endBit}. */
    public void over(MemorySegment s, Corruption corruption, long startBit, long endBit) {
        this.s = s;
        this.corruption = corruption;
        this.pos = startBit;
        this.end = endBit;
        this.segmentBytes = s.byteSize();
    }

    public long end() {
        return end;
    }

    /** Reads on from {@code startBit}, up to {@code endBit}. */
    void range(long startBit, long endBit) {
        this.pos = startBit;
        this.end = endBit;
    }

    MemorySegment segment() {
        return s;
    }

    long remaining() {
        return end - pos;
    }

    /** 64 bits starting at byte {@code index}, zero-filled past the segment. */
    private long word(long index) {
        if (index + 8 <= segmentBytes) {
            return s.get(BE64, index);
        }
        long w = 0;
        for (int i = 0; i < 8; i++) {
            long at = index + i;
            w = (w << 8) | (at < segmentBytes ? s.get(ValueLayout.JAVA_BYTE, at) & 0xFF : 0);
        }
        return w;
    }

    /** The next {@code n} ≤ 64 bits, without moving; bits past the end read as 0. */
    private long peek(int n) {
        long index = pos >>> 3;
        int skip = (int) (pos & 7);
        long v = word(index) << skip;
        if (skip + n > 64) {
            v |= (word(index + 8) >>> 56) >>> (8 - skip) & ((1L << skip) - 1);
        }
        return n == 0 ? 0 : v >>> (64 - n);
    }

    private void need(long n, String what) {
        if (Long.compareUnsigned(n, end - pos) > 0) {
            throw corruption.at(pos >>> 3, what + " runs past the end of the bit stream");
        }
    }

    /** Reads {@code n} ≤ 64 bits as an unsigned number. */
    public long readBits(int n, String what) {
        need(n, what);
        long v = peek(n);
        pos += n;
        return v;
    }

    /**
     * Counts zero bits before the next one bit (which is not consumed). More than {@code limit}
     * (unsigned) zeros are corrupt: {@code tooMany} says why.
     */
    private long zeros(long limit, String what, String tooMany) {
        long start = pos;
        long z = 0;
        while (true) {
            long avail = Math.min(64, end - pos);
            if (avail <= 0) {
                throw corruption.at(pos >>> 3, what + " runs past the end of the bit stream");
            }
            long window = peek((int) avail) << (64 - avail);
            int lz = Long.numberOfLeadingZeros(window);
            if (lz < avail) {
                z += lz;
                pos += lz;
                if (Long.compareUnsigned(z, limit) > 0) {
                    throw corruption.at(start >>> 3, what + ": " + tooMany);
                }
                return z;
            }
            z += avail;
            pos += avail;
            if (Long.compareUnsigned(z, limit) > 0) {
                throw corruption.at(start >>> 3, what + ": " + tooMany);
            }
        }
    }

    /**
     * The next 57 or more bits, left-aligned, from one 64-bit load (the low {@code pos & 7} bits
     * are not stream bits). Only for the fast paths below, which require 57 bits before the end.
     */
    private long window57() {
        return word(pos >>> 3) << (pos & 7);
    }

    /** Exponential-Golomb order 0; at most 64 leading zeros, and with 64 the suffix must be 0. */
    public long readEg0(String what) {
        if (end - pos >= 57) {
            // Codes up to 57 bits (values below 2^28 - 1) come from a single load.
            long w = window57();
            int z = Long.numberOfLeadingZeros(w);
            if (z <= 28) {
                int length = 2 * z + 1;
                pos += length;
                return (w >>> (64 - length)) - 1;
            }
        }
        return readEg0Slow(what);
    }

    private long readEg0Slow(String what) {
        long start = pos;
        long z = zeros(64, what, "exponential-Golomb code with more than 64 leading zeros");
        if (z == 64) {
            readBits(1, what);
            long suffix = readBits(64, what);
            if (suffix != 0) {
                throw corruption.at(start >>> 3, what + ": exponential-Golomb code overflows 64 bits");
            }
            return -1L;
        }
        long x = readBits((int) z + 1, what);
        return x - 1;
    }

    /** Exponential-Golomb of order k. */
    public long readExpGolomb(int k, String what) {
        if (k == 0) {
            return readEg0(what);
        }
        if (end - pos >= 57) {
            long w = window57();
            int z = Long.numberOfLeadingZeros(w);
            int length = 2 * z + 1;
            if (length + k <= 57) {
                long high = (w >>> (64 - length)) - 1;
                long low = (w << length) >>> (64 - k);
                pos += length + k;
                return (high << k) | low;
            }
        }
        long start = pos;
        long high = readEg0(what);
        if (k > 0 && (high >>> (64 - k)) != 0) {
            throw corruption.at(start >>> 3, what + ": exponential-Golomb code overflows 64 bits");
        }
        return (high << k) | readBits(k, what);
    }

    /** Golomb with modulus m: unary quotient, truncated-binary remainder. */
    public long readGolomb(long m, String what) {
        if (end - pos >= 57 && m <= 1L << 32) {
            long w = window57();
            int q = Long.numberOfLeadingZeros(w);
            int b = 64 - Long.numberOfLeadingZeros(m - 1);
            if (q + 1 + b <= 57) {
                long rest = w << (q + 1);
                long r = 0;
                int used = 0;
                if (b > 0) {
                    long cutoff = (1L << b) - m;
                    r = b == 1 ? 0 : rest >>> (65 - b);
                    used = b - 1;
                    if (r >= cutoff) {
                        r = (rest >>> (64 - b)) - cutoff;
                        used = b;
                    }
                }
                pos += q + 1 + used;
                return q * m + r;
            }
        }
        long start = pos;
        long maxQ = Long.divideUnsigned(-1L, m);
        long q = zeros(maxQ, what, "Golomb quotient overflows 64 bits");
        readBits(1, what);
        int b = 64 - Long.numberOfLeadingZeros(m - 1);
        long cutoff = (1L << b) - m;
        long r = b == 0 ? 0 : readBits(b - 1, what);
        if (b > 0 && r >= cutoff) {
            r = ((r << 1) | readBits(1, what)) - cutoff;
        }
        long v = q * m + r;
        if (Long.compareUnsigned(v, q * m) < 0) {
            throw corruption.at(start >>> 3, what + ": Golomb code overflows 64 bits");
        }
        return v;
    }

    /** Copies {@code n} bits from the stream into {@code dst} at bit {@code at}. */
    void copyBits(byte[] dst, long at, long n, String what) {
        need(n, what);
        BitStrings.copy(s, pos, dst, at, n);
        pos += n;
    }

    /** Moves past {@code n} bits. */
    void skip(long n, String what) {
        need(n, what);
        pos += n;
    }

    /** The bit at absolute position {@code p} (which must lie before the end). */
    int bitAt(long p) {
        return (s.get(ValueLayout.JAVA_BYTE, p >>> 3) >>> (7 - (int) (p & 7))) & 1;
    }
}

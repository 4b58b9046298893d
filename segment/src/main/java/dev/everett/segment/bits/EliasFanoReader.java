package dev.everett.segment.bits;

import dev.everett.segment.io.Corruption;
import dev.everett.segment.io.LittleEndian;
import java.lang.foreign.MemorySegment;

/**
 * Reads an Elias–Fano sequence in place from a mapped file. The section sizes must already have
 * been checked against n, U and w (typed open); every value read is then checked as it is used:
 * sample and sparse indexes, the set high bit, the dense span, hi ≤ U >> w and value ≤ U.
 */
public final class EliasFanoReader {
    private final MemorySegment s;
    private final Corruption corruption;
    private final long lowOff;
    private final long highOff;
    private final long sampleOff;
    private final long sparseOff;
    private final long sparseCount;
    private final long highBits;
    private final long n;
    private final long universe;
    private final int w;
    private final long lowMask;

    public EliasFanoReader(MemorySegment s, Corruption corruption, long n, long universe, int w,
                    long lowOff, long highOff, long sampleOff, long sparseOff, long sparseBytes) {
        this.s = s;
        this.corruption = corruption;
        this.n = n;
        this.universe = universe;
        this.w = w;
        this.lowOff = lowOff;
        this.highOff = highOff;
        this.sampleOff = sampleOff;
        this.sparseOff = sparseOff;
        this.sparseCount = sparseBytes / 8;
        this.highBits = EliasFano.highBits(universe, w, n);
        this.lowMask = w == 0 ? 0 : -1L >>> (64 - w);
    }

    public long size() {
        return n;
    }

    long universe() {
        return universe;
    }

    private long highWord(long index) {
        return LittleEndian.u64(s, highOff + 8 * index);
    }

    private boolean highBitSet(long p) {
        return (highWord(p >>> 6) & (1L << (p & 63))) != 0;
    }

    long low(long i) {
        if (w == 0) {
            return 0;
        }
        long bit = i * w;
        long wordOff = lowOff + 8 * (bit >>> 6);
        int shift = (int) (bit & 63);
        long v = LittleEndian.u64(s, wordOff) >>> shift;
        if (shift + w > 64) {
            v |= LittleEndian.u64(s, wordOff + 8) << (64 - shift);
        }
        return v & lowMask;
    }

    /** The i-th value, 0 ≤ i < n. */
    public long select(long i) {
        long group = i >>> 8;
        int t = (int) (i & 255);
        long sampleAt = sampleOff + 16 * group;
        long first = LittleEndian.u64(s, sampleAt);
        long sparseIndex = LittleEndian.u64(s, sampleAt + 8);
        long p;
        if (sparseIndex != EliasFano.DENSE) {
            long idx = sparseIndex + t;
            if (Long.compareUnsigned(sparseIndex, sparseCount) >= 0 || Long.compareUnsigned(idx, sparseCount) >= 0) {
                throw corruption.at(sampleAt + 8, "Elias–Fano sample names sparse index " + Long.toUnsignedString(idx) + " beyond " + sparseCount);
            }
            p = LittleEndian.u64(s, sparseOff + 8 * idx);
            if (Long.compareUnsigned(p, highBits) >= 0 || !highBitSet(p)) {
                throw corruption.at(sparseOff + 8 * idx, "Elias–Fano sparse position " + Long.toUnsignedString(p) + " has no set high bit");
            }
        } else {
            p = scanDense(first, t, sampleAt);
        }
        long hi = p - i;
        if (hi < 0 || Long.compareUnsigned(hi, universe >>> w) > 0) {
            throw corruption.at(highOff + 8 * (p >>> 6), "Elias–Fano entry " + i + " has high part beyond U >> w");
        }
        long v = (hi << w) | low(i);
        if (Long.compareUnsigned(v, universe) > 0) {
            throw corruption.at(lowOff, "Elias–Fano entry " + i + " exceeds the universe " + universe);
        }
        return v;
    }

    /** The t-th set high bit at or after {@code first}, within the dense span. */
    private long scanDense(long first, int t, long sampleAt) {
        if (Long.compareUnsigned(first, highBits) >= 0) {
            throw corruption.at(sampleAt, "Elias–Fano sample position " + Long.toUnsignedString(first) + " beyond the high bits");
        }
        long wordIndex = first >>> 6;
        long words = (highBits + 63) >>> 6;
        long word = highWord(wordIndex) & (-1L << (first & 63));
        int remaining = t;
        while (true) {
            int ones = Long.bitCount(word);
            if (remaining < ones) {
                long p = (wordIndex << 6) + Long.numberOfTrailingZeros(Long.expand(1L << remaining, word));
                if (p - first >= EliasFano.DENSE_SPAN) {
                    throw corruption.at(sampleAt, "Elias–Fano dense group spans 4096 bits or more");
                }
                return p;
            }
            remaining -= ones;
            wordIndex++;
            if (wordIndex >= words || (wordIndex << 6) - first >= EliasFano.DENSE_SPAN) {
                throw corruption.at(highOff + 8 * Math.min(wordIndex, words - 1), "Elias–Fano high bits end before entry is found");
            }
            word = highWord(wordIndex);
        }
    }

    /** A forward cursor over the entries from {@code from}. */
    public Cursor cursor(long from) {
        return new Cursor(from);
    }

    /** Decodes consecutive entries by walking the high bits, without going back to the samples. */
    public final class Cursor {
        private long index;
        private long position;

        private Cursor(long from) {
            this.index = from;
            this.position = -1;
            if (from > 0 && from < n) {
                long v = select(from - 1);
                position = (v >>> w) + from - 1;
            }
        }

        boolean hasNext() {
            return index < n;
        }

        long index() {
            return index;
        }

        public long next() {
            if (index >= n) {
                throw new IllegalStateException("Elias–Fano cursor exhausted");
            }
            long p = position + 1;
            long words = (highBits + 63) >>> 6;
            long wordIndex = p >>> 6;
            if (wordIndex >= words) {
                throw corruption.at(highOff, "Elias–Fano high bits end before entry " + index);
            }
            long word = highWord(wordIndex) & (-1L << (p & 63));
            while (word == 0) {
                wordIndex++;
                if (wordIndex >= words) {
                    throw corruption.at(highOff, "Elias–Fano high bits end before entry " + index);
                }
                word = highWord(wordIndex);
            }
            position = (wordIndex << 6) + Long.numberOfTrailingZeros(word);
            long hi = position - index;
            if (Long.compareUnsigned(hi, universe >>> w) > 0) {
                throw corruption.at(highOff + 8 * wordIndex, "Elias–Fano entry " + index + " has high part beyond U >> w");
            }
            long v = (hi << w) | low(index);
            if (Long.compareUnsigned(v, universe) > 0) {
                throw corruption.at(lowOff, "Elias–Fano entry " + index + " exceeds the universe");
            }
            index++;
            return v;
        }
    }
}

package dev.everett.segment.bits;

import dev.everett.segment.io.LittleEndian;
import java.util.Arrays;

/**
 * The canonical Elias–Fano encoding of a non-decreasing sequence r_0 … r_{n−1} (the block-start
 * residuals of a stream), exactly as Everett lays it out: low fields of w bits packed LSB-first
 * into u64 words, high bits at positions (r_i >> w) + i, one (first, sparse) sample per 256
 * entries, and the positions of sparse groups (a span of 4096 bits or more) listed separately.
 *
 * @param universe  U = r_{n−1}
 * @param lowWidth  w = floor(log2(U / n)), 0 when U / n = 0
 * @param count     n
 * @param low       ceil(n·w / 64) words
 * @param high      ceil(((U >> w) + n) / 64) words
 * @param samples   2·ceil(n / 256) words: first, sparse (all ones for a dense group)
 * @param sparse    the high positions of the sparse groups, in order
 */
public record EliasFano(long universe, int lowWidth, long count, long[] low, long[] high, long[] samples, long[] sparse) {

    public static final int SAMPLE_EVERY = 256;
    static final int DENSE_SPAN = 4096;
    static final long DENSE = -1L;

    /** w for a sequence of {@code n} entries whose last value is {@code universe}. */
    static int lowWidth(long universe, long n) {
        long q = Long.divideUnsigned(universe, n);
        return q == 0 ? 0 : 63 - Long.numberOfLeadingZeros(q);
    }

    public static long lowWords(long n, int w) {
        return LittleEndian.ceilDiv(n * w, 64);
    }

    static long highBits(long universe, int w, long n) {
        return (universe >>> w) + n;
    }

    public static long highWords(long universe, int w, long n) {
        return LittleEndian.ceilDiv(highBits(universe, w, n), 64);
    }

    public static long sampleCount(long n) {
        return LittleEndian.ceilDiv(n, SAMPLE_EVERY);
    }

    /** Builds the canonical encoding of {@code r[0..n)}, which must be non-decreasing and start anywhere ≥ 0. */
    public static EliasFano build(long[] r, int n) {
        if (n < 1) {
            throw new IllegalArgumentException("an Elias–Fano sequence has at least one entry");
        }
        long u = r[n - 1];
        int w = lowWidth(u, n);
        long[] low = new long[Math.toIntExact(lowWords(n, w))];
        long[] high = new long[Math.toIntExact(highWords(u, w, n))];
        long mask = w == 0 ? 0 : -1L >>> (64 - w);
        long[] positions = new long[n];
        for (int i = 0; i < n; i++) {
            if (w > 0) {
                long bit = (long) i * w;
                long field = r[i] & mask;
                int word = (int) (bit >>> 6);
                int shift = (int) (bit & 63);
                low[word] |= field << shift;
                if (shift + w > 64) {
                    low[word + 1] |= field >>> (64 - shift);
                }
            }
            long p = (r[i] >>> w) + i;
            positions[i] = p;
            high[(int) (p >>> 6)] |= 1L << (p & 63);
        }
        int groups = (int) sampleCount(n);
        long[] samples = new long[2 * groups];
        long[] sparse = new long[0];
        int sparseLen = 0;
        for (int g = 0; g < groups; g++) {
            int s = g * SAMPLE_EVERY;
            int e = Math.min(n, s + SAMPLE_EVERY);
            samples[2 * g] = positions[s];
            if (positions[e - 1] - positions[s] >= DENSE_SPAN) {
                samples[2 * g + 1] = sparseLen;
                if (sparseLen + (e - s) > sparse.length) {
                    sparse = Arrays.copyOf(sparse, Math.max(sparseLen + (e - s), sparse.length * 2));
                }
                System.arraycopy(positions, s, sparse, sparseLen, e - s);
                sparseLen += e - s;
            } else {
                samples[2 * g + 1] = DENSE;
            }
        }
        return new EliasFano(u, w, n, low, high, samples, Arrays.copyOf(sparse, sparseLen));
    }
}

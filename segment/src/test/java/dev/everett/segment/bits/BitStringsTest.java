package dev.everett.segment.bits;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.everett.segment.testing.Seeds;
import java.lang.foreign.MemorySegment;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The word-at-a-time bit-string helpers against naive bit-by-bit versions. */
@ExtendWith(Seeds.class)
class BitStringsTest {
    private static int bit(byte[] b, long i) {
        return (b[(int) (i >>> 3)] >>> (7 - (int) (i & 7))) & 1;
    }

    private static void setBit(byte[] b, long i, int v) {
        int mask = 0x80 >>> (int) (i & 7);
        b[(int) (i >>> 3)] = (byte) (v != 0 ? b[(int) (i >>> 3)] | mask : b[(int) (i >>> 3)] & ~mask);
    }

    private static byte[] random(Random rnd, int n) {
        byte[] b = new byte[n];
        rnd.nextBytes(b);
        return b;
    }

    /** A bit string of {@code bits} bits with zero tail bits. */
    private static byte[] bitString(Random rnd, long bits) {
        byte[] b = random(rnd, BitStrings.bytes(bits));
        BitStrings.clearTail(b, bits);
        return b;
    }

    @Test
    void readWriteAndCopyMoveExactlyTheirBits(Random rnd) {
        for (int round = 0; round < 3000; round++) {
            byte[] src = random(rnd, 1 + rnd.nextInt(40));
            byte[] dst = random(rnd, 1 + rnd.nextInt(40));
            long srcBits = 8L * src.length;
            long dstBits = 8L * dst.length;
            long n = rnd.nextInt((int) Math.min(srcBits, dstBits) + 1);
            long from = rnd.nextLong(srcBits - n + 1);
            long at = rnd.nextLong(dstBits - n + 1);
            byte[] expected = dst.clone();
            for (long i = 0; i < n; i++) {
                setBit(expected, at + i, bit(src, from + i));
            }
            byte[] viaSegment = dst.clone();
            BitStrings.copy(MemorySegment.ofArray(src), from, viaSegment, at, n);
            assertArrayEquals(expected, viaSegment, "segment copy " + n + " bits " + from + " → " + at);
            byte[] viaArray = dst.clone();
            BitStrings.copy(src, from, viaArray, at, n);
            assertArrayEquals(expected, viaArray, "array copy");
            int k = (int) Math.min(n, 57);
            long v = 0;
            for (int i = 0; i < k; i++) {
                v = (v << 1) | bit(src, from + i);
            }
            assertEquals(v, BitStrings.read(src, from, k));
            assertEquals(v, BitStrings.read(MemorySegment.ofArray(src), from, k));
        }
    }

    @Test
    void compareLcpAndMismatchAgreeWithBitByBit(Random rnd) {
        for (int round = 0; round < 3000; round++) {
            long aBits = rnd.nextInt(200);
            byte[] a = bitString(rnd, aBits);
            long bBits;
            byte[] b;
            if (rnd.nextBoolean()) {
                // Share a prefix, then go anywhere (or stop).
                bBits = rnd.nextInt(200);
                b = bitString(rnd, bBits);
                long share = rnd.nextLong(Math.min(aBits, bBits) + 1);
                for (long i = 0; i < share; i++) {
                    setBit(b, i, bit(a, i));
                }
            } else {
                bBits = rnd.nextInt(200);
                b = bitString(rnd, bBits);
            }
            long lcp = 0;
            while (lcp < Math.min(aBits, bBits) && bit(a, lcp) == bit(b, lcp)) {
                lcp++;
            }
            int order = lcp < Math.min(aBits, bBits) ? Integer.compare(bit(a, lcp), bit(b, lcp)) : Long.compare(aBits, bBits);
            assertEquals(lcp, BitStrings.commonPrefixOfBits(a, aBits, b, bBits));
            assertEquals(order, Integer.signum(BitStrings.compare(a, aBits, b, bBits)));
            long n = Math.min(aBits, bBits);
            long from = rnd.nextLong(n + 1);
            long expected = lcp >= n ? -1 : lcp < from ? -2 : lcp - from;
            if (expected != -2) {
                assertEquals(expected, BitStrings.mismatch(MemorySegment.ofArray(a), from, b, from, n - from));
            }
        }
    }

    @Test
    void shiftingByTheSortCodeRoundTrips(Random rnd) {
        for (int round = 0; round < 500; round++) {
            byte[] key = random(rnd, rnd.nextInt(30));
            byte[] logical = BitStrings.shiftedRight(key, 8L * key.length, 1);
            assertEquals(BitStrings.bytes(8L * key.length + 1), logical.length);
            assertEquals(0, bit(logical, 0));
            byte[] back = new byte[key.length];
            BitStrings.dropFirstBit(logical, back, key.length);
            assertArrayEquals(key, back);
        }
    }

    /**
     * Long mismatches (the out-of-line path: same byte phase compared bytewise, other phases a
     * word at a time) at every pair of phases, against a bit-by-bit scan, with the first
     * difference anywhere (or none) and the run ending at or just short of the segment's end.
     */
    @Test
    void longMismatchesAtEveryPhaseFindTheFirstDifference(Random rnd) {
        for (int round = 0; round < 400; round++) {
            int aFrom = rnd.nextInt(16);
            int bFrom = rnd.nextInt(16);
            long n = 256 + rnd.nextInt(4000);
            byte[] a = random(rnd, BitStrings.bytes(aFrom + n) + rnd.nextInt(2));
            byte[] b = new byte[BitStrings.bytes(bFrom + n) + rnd.nextInt(2)];
            rnd.nextBytes(b);
            for (long i = 0; i < n; i++) {
                setBit(b, bFrom + i, bit(a, aFrom + i));
            }
            long expected = -1;
            if (rnd.nextInt(4) != 0) {
                expected = rnd.nextLong(n);
                setBit(b, bFrom + expected, 1 - bit(a, aFrom + expected));
            }
            assertEquals(expected, BitStrings.mismatch(MemorySegment.ofArray(a), aFrom, MemorySegment.ofArray(b), bFrom, n),
                    "round " + round + " phases " + aFrom + "/" + bFrom + " n " + n);
        }
    }
}

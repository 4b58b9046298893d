package dev.everett.segment.encoded;

import dev.everett.segment.bits.BitStrings;
import java.lang.foreign.MemorySegment;

/**
 * The bit-string reads, copies and mismatches the native merger needs to walk bit-unit
 * {@link EncodedRecords} as spans of mapped bits. They live in {@code bits}, which the module
 * does not export; this package is the one the merge module may read, so it hands them on.
 * Positions and lengths are in bits, MSB first (bit 0 is bit 7 of byte 0).
 */
public final class BitSpans {
    private BitSpans() {
    }

    /** Reads {@code n} ≤ 57 bits of {@code s} from bit {@code from}; bits past its end read as 0. */
    public static long read(MemorySegment s, long from, int n) {
        return BitStrings.read(s, from, n);
    }

    /** Copies {@code n} bits of {@code s} from bit {@code from} into {@code dst} at bit {@code at}. */
    public static void copy(MemorySegment s, long from, byte[] dst, long at, long n) {
        BitStrings.copy(s, from, dst, at, n);
    }

    /** Copies {@code n} bits of {@code src} from bit {@code from} into {@code dst} at bit {@code at}. */
    public static void copy(byte[] src, long from, byte[] dst, long at, long n) {
        BitStrings.copy(src, from, dst, at, n);
    }

    /** The first of {@code n} bit positions at which the two spans differ, or -1 if they agree. */
    public static long mismatch(MemorySegment a, long aFrom, MemorySegment b, long bFrom, long n) {
        return BitStrings.mismatch(a, aFrom, b, bFrom, n);
    }
}

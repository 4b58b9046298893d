package dev.everett.api;

import java.util.Arrays;

/**
 * Bounds on what a cursor may see, as RocksDB's iterate bounds: keys ≥ {@code lower} (inclusive)
 * and &lt; {@code upper} (exclusive), compared as unsigned bytes. A null bound is open.
 *
 * @param lower the smallest visible key, or null
 * @param upper the first key past the range, or null
 */
public record KeyRange(byte[] lower, byte[] upper) {
    private static final KeyRange ALL = new KeyRange(null, null);

    public KeyRange {
        lower = lower == null ? null : lower.clone();
        upper = upper == null ? null : upper.clone();
    }

    public static KeyRange all() {
        return ALL;
    }

    /** True if {@code key[0 .. n)} lies inside the range. */
    public boolean contains(byte[] key, int n) {
        return (lower == null || Arrays.compareUnsigned(key, 0, n, lower, 0, lower.length) >= 0)
                && (upper == null || Arrays.compareUnsigned(key, 0, n, upper, 0, upper.length) < 0);
    }
}

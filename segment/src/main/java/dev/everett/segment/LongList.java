package dev.everett.segment;

import java.util.Arrays;

/** A growable array of primitive longs (no boxing on the writer's per-block path). */
final class LongList {
    private long[] values = new long[64];
    private int size;

    void add(long v) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        values[size++] = v;
    }

    int size() {
        return size;
    }

    void clear() {
        size = 0;
    }

    /** The backing array; valid in [0, size()). */
    long[] array() {
        return values;
    }
}

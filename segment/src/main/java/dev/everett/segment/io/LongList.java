package dev.everett.segment.io;

import java.util.Arrays;

/** A growable array of primitive longs (no boxing on the writer's per-block path). */
public final class LongList {
    private long[] values = new long[64];
    private int size;

    public void add(long v) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        values[size++] = v;
    }

    public int size() {
        return size;
    }

    public void clear() {
        size = 0;
    }

    /** The backing array; valid in [0, size()). */
    public long[] array() {
        return values;
    }
}

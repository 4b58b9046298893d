package dev.everett.segment.fc;

/** Keys in order, one at a time, in a stream's units: what an index build reads its sources through. */
public interface KeySource {
    /** Moves to the next key; false after the last. */
    boolean next();

    /** The current key, valid in its first {@link #keyUnits()} units. */
    byte[] keyBuffer();

    /** The current key's length in units. */
    long keyUnits();
}

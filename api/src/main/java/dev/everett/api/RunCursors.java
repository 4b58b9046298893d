package dev.everett.api;

/**
 * One {@link SeekCursor} over each run of a chain (the natives of its bottom catalogs, newest
 * first), positioned together: a seek descends the cascade once, and fractional cascading gives
 * each run's answer on the way down (the window searched at each catalog holds that run's first
 * key at or after the target), instead of one search per run. After a positioning call each
 * cursor moves on its own ({@link SeekCursor#next()}, {@link SeekCursor#prev()}), and may also be
 * sought on its own. Every cursor shares the range given when this was made. One thread.
 */
public interface RunCursors extends AutoCloseable {
    /** How many runs: the cursors {@code run(0)} (the newest, top run) to {@code run(runs() - 1)} (the oldest). */
    int runs();

    /** The cursor over run {@code i}, 0 for the newest. */
    SeekCursor run(int i);

    /** Puts every run on its first record in range (one descent if the range has a lower bound, else none). */
    void seekToFirst();

    /** Puts every run on its last record in range (one descent if the range has an upper bound, else none). */
    void seekToLast();

    /** Puts every run on its first record ≥ {@code target} (and in range): one descent. */
    void seek(byte[] target);

    /** Puts every run on its last record ≤ {@code target} (and in range): one descent. */
    void seekForPrev(byte[] target);

    /** Closes every run's cursor. */
    @Override
    void close();
}

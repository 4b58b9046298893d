package dev.everett.store;

/**
 * What a read sees, as in RocksJava: an optional {@link Snapshot} (without one, a get reads the
 * latest state and an iterator an implicit snapshot taken when it is created) and, for iterators,
 * a lower bound (inclusive) and an upper bound (exclusive). Bounds are copied when set.
 */
public final class ReadOptions implements AutoCloseable {

    private Snapshot snapshot;
    private byte[] lowerBound;
    private byte[] upperBound;

    public ReadOptions() {
    }

    /** Reads at {@code snapshot}; {@code null} reads the latest state. */
    public ReadOptions setSnapshot(Snapshot snapshot) {
        this.snapshot = snapshot;
        return this;
    }

    public Snapshot snapshot() {
        return snapshot;
    }

    /** Iterators see no key below {@code lowerBound} (inclusive bound); {@code null} for none. */
    public ReadOptions setIterateLowerBound(byte[] lowerBound) {
        this.lowerBound = lowerBound == null ? null : lowerBound.clone();
        return this;
    }

    /** Iterators see no key at or above {@code upperBound} (exclusive bound); {@code null} for none. */
    public ReadOptions setIterateUpperBound(byte[] upperBound) {
        this.upperBound = upperBound == null ? null : upperBound.clone();
        return this;
    }

    /** The lower bound (a copy), or {@code null}. */
    public byte[] iterateLowerBound() {
        return lowerBound == null ? null : lowerBound.clone();
    }

    /** The upper bound (a copy), or {@code null}. */
    public byte[] iterateUpperBound() {
        return upperBound == null ? null : upperBound.clone();
    }

    byte[] lowerBoundView() {
        return lowerBound;
    }

    byte[] upperBoundView() {
        return upperBound;
    }

    /** Nothing to release (kept so RocksJava's try-with-resources habits carry over). */
    @Override
    public void close() {
    }
}

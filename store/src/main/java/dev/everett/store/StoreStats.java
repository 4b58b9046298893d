package dev.everett.store;

import java.util.concurrent.atomic.LongAdder;

/** Counters behind {@code everett.stats}: what writes, flushes, compactions and stalls cost. */
final class StoreStats {

    final LongAdder userBytes = new LongAdder();
    final LongAdder writes = new LongAdder();
    final LongAdder commitGroups = new LongAdder();
    final LongAdder walBytes = new LongAdder();
    final LongAdder walSyncs = new LongAdder();

    final LongAdder flushes = new LongAdder();
    final LongAdder flushBytes = new LongAdder();
    final LongAdder flushRecords = new LongAdder();
    final LongAdder flushNanos = new LongAdder();
    final LongAdder singleDeletesCancelled = new LongAdder();

    final LongAdder compactions = new LongAdder();
    final LongAdder compactionBytesRead = new LongAdder();
    final LongAdder compactionBytesWritten = new LongAdder();
    final LongAdder compactionNanos = new LongAdder();
    final LongAdder compactionsCancelled = new LongAdder();

    final LongAdder slowdowns = new LongAdder();
    final LongAdder slowdownNanos = new LongAdder();
    final LongAdder stopNanos = new LongAdder();
    final LongAdder memtableStallNanos = new LongAdder();

    /** Segment bytes written (flushes and compactions) per byte flushed; 1 before any compaction, 0 before any flush. */
    double writeAmplification() {
        long flushed = flushBytes.sum();
        return flushed == 0 ? 0 : (double) (flushed + compactionBytesWritten.sum()) / flushed;
    }

    static String millis(long nanos) {
        return String.format("%.1f ms", nanos / 1e6);
    }
}

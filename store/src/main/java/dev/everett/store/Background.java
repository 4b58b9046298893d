package dev.everett.store;

import com.google.common.util.concurrent.RateLimiter;
import dev.everett.compaction.CompactionJob;
import dev.everett.compaction.CompactionPlan;
import dev.everett.compaction.CompactionProgress;
import dev.everett.compaction.GeometricPicker;
import dev.everett.compaction.Layout;
import dev.everett.compaction.LeveledPicker;
import dev.everett.compaction.LsmTree;
import dev.everett.compaction.ManualCompactions;
import dev.everett.compaction.SegmentMeta;
import dev.everett.compaction.TreeOptions;
import dev.everett.compaction.Version;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The store's background threads: one flushes immutable memtables (oldest first) into segments,
 * the others run the tree's picker and its compactions, rate-limited when asked. A failure in
 * either is recorded with the store, which then refuses writes (reads go on).
 */
final class Background {

    private final EverettDB db;
    private final DBOptions options;
    private final RateLimiter limiter;
    private final Object pickLock = new Object();
    private final Set<CompactionJob> running = ConcurrentHashMap.newKeySet();
    private final List<Thread> threads = new ArrayList<>();

    Background(EverettDB db, DBOptions options) {
        this.db = db;
        this.options = options;
        this.limiter = options.rateLimiterBytesPerSecond() > 0 ? RateLimiter.create(options.rateLimiterBytesPerSecond()) : null;
    }

    /** The tree's options for a store's options. */
    static TreeOptions treeOptions(DBOptions o) {
        TreeOptions t = o.levelLayout() == Layout.PARTITIONED
                ? TreeOptions.partitioned()
                        .withPicker(new LeveledPicker(o.numLevels(), o.level0FileNumCompactionTrigger(), o.maxBytesForLevelBase(),
                                o.maxBytesForLevelMultiplier()))
                        .withTargetFileBytes(o.targetFileSizeBase())
                : TreeOptions.wholeRun().withPicker(new GeometricPicker(o.maxBytesForLevelMultiplier()));
        return t.withPolicy(o.policy()).withFilters(o.filterPolicy()).withFiles(o.treeFiles());
    }

    void start() {
        threads.add(Thread.ofPlatform().daemon().name("everett-flush").start(this::flushLoop));
        for (int i = 1; i < options.maxBackgroundJobs(); i++) {
            threads.add(Thread.ofPlatform().daemon().name("everett-compact-" + i).start(this::compactionLoop));
        }
    }

    /** Cancels running compactions and waits for every thread (a flush under way finishes). */
    void stop() {
        for (CompactionJob job : running) {
            job.cancel();
        }
        db.signalState();
        for (Thread t : threads) {
            boolean interrupted = false;
            while (t.isAlive()) {
                try {
                    t.join();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    int running() {
        return running.size();
    }

    private void flushLoop() {
        try {
            for (;;) {
                MemTable m = db.awaitImmutable(100);
                if (m == null) {
                    if (db.closing()) {
                        return;
                    }
                    continue;
                }
                db.flushOldest(m);
            }
        } catch (Throwable e) {
            db.backgroundFailed(e);
        }
    }

    private void compactionLoop() {
        LsmTree tree = db.tree();
        try {
            while (!db.closing()) {
                CompactionJob job = null;
                CompactionPlan plan = null;
                synchronized (pickLock) {
                    if (!options.disableAutoCompactions() && !db.manualCompactionRunning() && !db.closing()) {
                        Optional<CompactionPlan> p = tree.pickCompaction();
                        if (p.isPresent()) {
                            plan = p.get();
                            job = tree.compact(plan);
                            running.add(job);
                        }
                    }
                }
                if (job == null) {
                    db.awaitState(100);
                    continue;
                }
                run(job, plan);
            }
        } catch (Throwable e) {
            db.backgroundFailed(e);
        }
    }

    /**
     * Merges the segments holding keys in {@code [begin, end]} (null: unbounded on that side)
     * into the bottom of the tree with tombstones dropped (the caller has flushed and made
     * background compactions pause); waits for compactions already running.
     */
    void compactRange(byte[] begin, byte[] end) {
        LsmTree tree = db.tree();
        CompactionJob job;
        CompactionPlan plan;
        synchronized (pickLock) {
            while (!running.isEmpty()) {
                db.checkOpen();
                try {
                    pickLock.wait(10);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting for background compactions", e);
                }
            }
            if (db.closing()) {
                throw db.cancelledByClose("compactRange");
            }
            try (Version v = tree.current()) {
                plan = ManualCompactions.range(v, begin, end).orElse(null);
            }
            if (plan == null) {
                return;
            }
            try {
                job = tree.compact(plan);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start the " + plan.reason() + " of " + tree.directory(), e);
            }
            running.add(job);
        }
        boolean finished;
        try {
            finished = run(job, plan);
        } catch (IOException e) {
            db.backgroundFailed(e);
            throw new UncheckedIOException(plan.reason() + " of " + tree.directory() + " failed", e);
        }
        if (!finished) {
            // Only close cancels a job: the caller must not take the range for compacted.
            throw db.cancelledByClose("compactRange");
        }
    }

    /**
     * Drives one job to its end, rate-limited, and installs its version; false if close cancelled
     * it first, which leaves nothing behind.
     */
    private boolean run(CompactionJob job, CompactionPlan plan) throws IOException {
        StoreStats stats = db.stats();
        long t = System.nanoTime();
        long inputBytes = 0;
        long inputRecords = 0;
        for (SegmentMeta s : plan.inputs()) {
            inputBytes += s.fileBytes();
            inputRecords += s.records();
        }
        double bytesPerRecord = (double) inputBytes / Math.max(1, inputRecords);
        // Steps of about STEP_BYTES of input: the rate limiter charges after each, and close's cancel lands between them.
        long stepKeys = Math.max(16, (long) (STEP_BYTES / Math.max(1, bytesPerRecord)));
        long consumed = 0;
        try (job) {
            while (!job.done()) {
                if (db.closing()) {
                    job.cancel();
                }
                CompactionProgress p = job.step(stepKeys);
                if (limiter != null) {
                    // Paid in slices of about 50 ms each, so that a cancel (close) is not kept waiting.
                    long permits = (long) ((p.inputRecords() - consumed) * bytesPerRecord);
                    long slice = Math.max(1, options.rateLimiterBytesPerSecond() / 20);
                    while (permits > 0 && !job.cancelled()) {
                        int n = (int) Math.min(permits, Math.min(slice, Integer.MAX_VALUE));
                        limiter.acquire(n);
                        permits -= n;
                    }
                }
                consumed = p.inputRecords();
            }
            List<SegmentMeta> outputs = job.finish();
            long written = 0;
            for (SegmentMeta s : outputs) {
                written += s.fileBytes();
            }
            stats.compactions.increment();
            stats.compactionBytesRead.add(inputBytes);
            stats.compactionBytesWritten.add(written);
            stats.compactionNanos.add(System.nanoTime() - t);
            db.versionChanged();
            return true;
        } catch (CancellationException e) {
            stats.compactionsCancelled.increment();
            return false;
        } finally {
            running.remove(job);
            synchronized (pickLock) {
                pickLock.notifyAll();
            }
        }
    }

    /** Input bytes a compaction step reads between checks for cancellation and rate limiting. */
    private static final long STEP_BYTES = 32 << 10;
}

package dev.everett.integration;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The moments an aimed crash kills the store at, each recognised by the file operation that
 * marks it and the thread doing it (the store names its background threads {@code everett-flush}
 * and {@code everett-compact-<n>}; the crash child names its writers {@code writer-<t>} and its
 * maintenance thread {@link #MAINTENANCE}, which runs full compactions). Reached through
 * {@link InterposedFiles}, so the store needs no hook of its own.
 */
enum KillPoint {
    /** A commit group's log records written, not yet forced, acknowledged or in the memtable. */
    WAL_GROUP_COMMIT_MID("wal.group-commit.mid", 40),
    /** A flush half-way through writing a native (its temporary file holds part of the records). */
    FLUSH_SEGMENT_MID("flush.segment-mid", 3),
    /** A flush's segments written and published, its manifest edit not yet appended. */
    FLUSH_BEFORE_MANIFEST("flush.before-manifest", 1),
    /** A compaction's outputs written and published, its manifest edit not yet appended. */
    COMPACTION_OUTPUTS_WRITTEN("compaction.outputs-written", 1),
    /** At open: the new manifest written and forced, {@code CURRENT} not yet renamed to name it. */
    MANIFEST_ROLLOVER_MID("manifest.rollover.mid", 0);

    static final String MAINTENANCE = "crash-maintenance";

    final String label;
    /** Matches to let pass before the one that kills is drawn from 0 to this. */
    final int maxSkip;

    KillPoint(String label, int maxSkip) {
        this.label = label;
        this.maxSkip = maxSkip;
    }

    static KillPoint of(String label) {
        for (KillPoint p : values()) {
            if (p.label.equals(label)) {
                return p;
            }
        }
        throw new IllegalArgumentException("no kill point named \"" + label + "\"");
    }

    private boolean matches(InterposedFiles.Op op, boolean after, Path file) {
        String thread = Thread.currentThread().getName();
        String kind = FileKinds.of(file);
        return switch (this) {
            case WAL_GROUP_COMMIT_MID -> after && kind.equals("log") && thread.startsWith("writer-");
            case FLUSH_SEGMENT_MID -> !after && op == InterposedFiles.Op.WRITE && file.getFileName().toString().contains(".kv")
                    && thread.equals("everett-flush");
            case FLUSH_BEFORE_MANIFEST -> !after && op == InterposedFiles.Op.WRITE && kind.equals("manifest") && thread.equals("everett-flush");
            case COMPACTION_OUTPUTS_WRITTEN -> !after && op == InterposedFiles.Op.WRITE && kind.equals("manifest")
                    && (thread.startsWith("everett-compact-") || thread.equals(MAINTENANCE));
            case MANIFEST_ROLLOVER_MID -> !after && op == InterposedFiles.Op.MOVE && kind.equals("current");
        };
    }

    /**
     * Hooks that, at the {@code skip + 1}-th time this point is reached, call {@code reached} and
     * then hold the thread there for good (the parent's SIGKILL ends it); other threads run on.
     */
    InterposedFiles.Hooks hooks(int skip, Consumer<KillPoint> reached) {
        AtomicInteger seen = new AtomicInteger();
        AtomicBoolean fired = new AtomicBoolean();
        return new InterposedFiles.Hooks() {
            private void at(InterposedFiles.Op op, boolean after, Path file) {
                if (fired.get() || !matches(op, after, file) || seen.getAndIncrement() < skip || !fired.compareAndSet(false, true)) {
                    return;
                }
                reached.accept(KillPoint.this);
                while (true) {
                    try {
                        Thread.sleep(60_000);
                    } catch (InterruptedException e) {
                        // Held until the kill: nothing may proceed past this point.
                    }
                }
            }

            @Override
            public void before(InterposedFiles.Op op, Path file) throws IOException {
                at(op, false, file);
            }

            @Override
            public void afterWrite(Path file) throws IOException {
                at(InterposedFiles.Op.WRITE, true, file);
            }
        };
    }
}

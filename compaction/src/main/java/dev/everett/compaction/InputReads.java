package dev.everett.compaction;

import java.util.Arrays;

/**
 * Whether this machine reads a compaction's inputs faster through their mappings or as copies in
 * memory, found by timing both on the first inputs large enough to tell.
 *
 * <p>A compaction reads every input page once. Through a mapping, the first touch of each page
 * is a page fault; as a copy, each page is read with {@code pread} into fresh anonymous memory.
 * Which costs less depends on the machine, not on the data: on a guest whose hypervisor shadows
 * its page tables a fault costs about 1.6 µs and the copy wins by about 3× (docs/benchmarks/
 * compaction.md, "A new machine"); on a guest with hardware-assisted paging the mapping wins by
 * about 2× ("Mapped or copied inputs"). So a job times both ways on one input (the checksum
 * pass it makes anyway, through a mapping of its own and as a copy) and the process keeps the
 * answer.
 *
 * <p>The answer is the median of the first {@link #PROBES} probes' ratios, each from a job of its
 * own (a job probes at most once, and no more probes start than are still wanted), so that one
 * probe taken in a slow moment does not decide for the process; until then each job goes by the
 * probes so far. Copies win only when the mapped pass takes more than {@link #COPY_MARGIN}
 * times as long: a copy holds the input in anonymous memory for the whole job, a mapping holds
 * nothing the kernel cannot drop, so a near tie goes to the mapping. Both ways give the merge the
 * same bytes, so the answer changes how fast a job runs, never what it writes.
 */
final class InputReads {
    /** The smallest input timed: below this, caches and timer grain blur the two passes. */
    static final long PROBE_MIN_BYTES = 8L << 20;
    /** Probes taken before the answer is fixed. */
    static final int PROBES = 3;
    /** How much longer the mapped pass must take than the copy for copies to be used. */
    static final double COPY_MARGIN = 1.25;

    /** How a job reads its inputs. */
    enum Way {
        /** No answer yet: time both ways on the next input of at least {@link #PROBE_MIN_BYTES}. */
        PROBE,
        MAPPED,
        COPIED
    }

    private static final double[] ratios = new double[PROBES];
    private static int probes;
    /** Probes started and not yet recorded or abandoned. */
    private static int running;

    private InputReads() {
    }

    /**
     * The way to read the next input of {@code inputBytes}, when the job may copy its inputs;
     * {@code mayProbe} false once the job has probed. A {@link Way#PROBE} answer reserves the
     * probe: the caller reports it through {@link #probed} or {@link #abandoned}.
     */
    static synchronized Way next(long inputBytes, boolean mayProbe) {
        if (probes == PROBES) {
            return decided();
        }
        if (mayProbe && inputBytes >= PROBE_MIN_BYTES && probes + running < PROBES) {
            running++;
            return Way.PROBE;
        }
        // Too small to time, or every wanted probe is running: go by the probes so far.
        return decided();
    }

    /**
     * Records one probe: the checksum pass over the same input through its mapping and as a
     * fresh copy (the copy's read included). Returns the way the probing job should use.
     */
    static synchronized Way probed(long mappedNanos, long copiedNanos) {
        running = Math.max(0, running - 1);
        if (probes < PROBES) {
            ratios[probes++] = (double) mappedNanos / Math.max(1, copiedNanos);
        }
        return decided();
    }

    /** A reserved probe that failed before it was timed (the input is damaged, say). */
    static synchronized void abandoned() {
        running = Math.max(0, running - 1);
    }

    /** The probes' answer so far: copies before any probe (the way that avoids the dearer failure, a fault per page on a shadow-paged guest). */
    private static Way decided() {
        if (probes == 0) {
            return Way.COPIED;
        }
        double[] r = Arrays.copyOf(ratios, probes);
        Arrays.sort(r);
        double median = r.length % 2 == 1 ? r[r.length / 2] : (r[r.length / 2 - 1] + r[r.length / 2]) / 2;
        return median > COPY_MARGIN ? Way.COPIED : Way.MAPPED;
    }

    /** Probes reserved and not yet recorded or abandoned (tests). */
    static synchronized int probesRunning() {
        return running;
    }

    /** Probes recorded so far (tests). */
    static synchronized int probesTaken() {
        return probes;
    }

    /** Forgets every probe (tests). */
    static synchronized void reset() {
        probes = 0;
        running = 0;
        Arrays.fill(ratios, 0);
    }
}

package dev.everett.bench;

import dev.everett.api.MergeJob;
import dev.everett.api.OpenMode;
import dev.everett.api.Policy;
import dev.everett.api.SegmentEngine;
import dev.everett.api.SegmentReader;
import dev.everett.merge.NativeMerger;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Where {@link MergeBench#encoded}'s time goes, outside JMH: the same fixture merged
 * {@code ROUNDS} times in one JVM, each merge timed in three parts, {@code start} (the builder's
 * {@code start()}), {@code steps} ({@code step(128)} until done) and {@code finish} (publishing
 * the output). Prints the median of each part over the second half of the rounds (the first half
 * is warm-up), in ns per output key. For quick before/after checks of one fixture and for
 * profiling a long run of merges (docs/benchmarks/merge.md).
 *
 * <pre>java --enable-native-access=ALL-UNNAMED -Xms2g -Xmx2g -cp bench/target/benchmarks.jar \
 *     dev.everett.bench.MergeSteps POLICY VARIANT ROUNDS [DIR]</pre>
 */
public final class MergeSteps {
    private MergeSteps() {
    }

    /**
     * What the merge tools take, {@code POLICY VARIANT ROUNDS [DIR]}, and the fixture's two inputs
     * written in a fresh work directory (deleted again if writing them fails). Kept in this class
     * because {@code MergeSteps.java} is copied as it is into older checkouts to time them.
     */
    record Run(Policy policy, MergeFixture.Variant variant, int rounds, SegmentEngine engine, Path work,
               Path olderFile, Path newerFile) {
        static Run of(String tool, String example, String workPrefix, String[] args) throws IOException {
            if (args.length < 3 || args.length > 4) {
                System.err.println("usage: " + tool + " POLICY VARIANT ROUNDS [DIR] (e.g. " + example + ")");
                System.exit(2);
            }
            Policy policy = MergeFixture.policy(args[0]);
            MergeFixture.Variant variant = MergeFixture.Variant.of(args[1]);
            int rounds = Integer.parseInt(args[2]);
            if (rounds < 1) {
                System.err.println("ROUNDS must be at least 1, got " + rounds);
                System.exit(2);
            }
            SegmentEngine engine = SegmentEngine.load();
            Path work = Kv02Data.workDir(args.length == 4 ? args[3] : "auto", workPrefix);
            Run run = new Run(policy, variant, rounds, engine, work, work.resolve("older.kv02"), work.resolve("newer.kv02"));
            try {
                MergeFixture.writeOlder(engine, run.olderFile, policy, variant);
                MergeFixture.writeNewer(engine, run.newerFile, policy, variant);
            } catch (IOException | RuntimeException | Error e) {
                Kv02Data.deleteTree(work);
                throw e;
            }
            return run;
        }
    }

    public static void main(String[] args) throws IOException {
        Run run = Run.of("MergeSteps", "byte-fixed8 fragments 15000", "everett-bench-merge-steps-", args);
        Policy policy = run.policy();
        MergeFixture.Variant variant = run.variant();
        int rounds = run.rounds();
        SegmentEngine engine = run.engine();
        Path work = run.work();
        try {
            Path olderFile = run.olderFile();
            Path newerFile = run.newerFile();
            Path out = work.resolve("merged.kv02");
            long[][] t = new long[3][rounds];
            try (SegmentReader older = engine.open(olderFile, policy, OpenMode.TYPED);
                 SegmentReader newer = engine.open(newerFile, policy, OpenMode.TYPED)) {
                for (int r = 0; r < rounds; r++) {
                    long t0 = System.nanoTime();
                    try (MergeJob job = NativeMerger.of(older, newer).into(out).start()) {
                        long t1 = System.nanoTime();
                        while (!job.done()) {
                            job.step(MergeBench.STEP);
                        }
                        long t2 = System.nanoTime();
                        job.finish();
                        t[0][r] = t1 - t0;
                        t[1][r] = t2 - t1;
                        t[2][r] = System.nanoTime() - t2;
                    }
                }
            }
            MergeFixture.check(engine, out, policy, variant);
            double start = median(t[0], rounds / 2) / MergeFixture.N;
            double steps = median(t[1], rounds / 2) / MergeFixture.N;
            double finish = median(t[2], rounds / 2) / MergeFixture.N;
            System.out.printf("%s %s, median ns per key: start %.1f  steps %.1f  finish %.1f  sum %.1f%n",
                    args[0], args[1], start, steps, finish, start + steps + finish);
        } finally {
            Kv02Data.deleteTree(work);
        }
    }

    /** The median of {@code x[from ..]} (the upper one of an even count). */
    static double median(long[] x, int from) {
        long[] y = Arrays.copyOfRange(x, from, x.length);
        Arrays.sort(y);
        return y[y.length / 2];
    }
}

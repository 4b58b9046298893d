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

    public static void main(String[] args) throws IOException {
        if (args.length < 3 || args.length > 4) {
            System.err.println("usage: MergeSteps POLICY VARIANT ROUNDS [DIR] (e.g. byte-fixed8 fragments 15000)");
            System.exit(2);
        }
        Policy policy = MergeFixture.policy(args[0]);
        MergeFixture.Variant variant = MergeFixture.Variant.of(args[1]);
        int rounds = Integer.parseInt(args[2]);
        SegmentEngine engine = SegmentEngine.load();
        Path work = Kv02Data.workDir(args.length == 4 ? args[3] : "auto", "everett-bench-merge-steps-");
        try {
            Path olderFile = work.resolve("older.kv02");
            Path newerFile = work.resolve("newer.kv02");
            Path out = work.resolve("merged.kv02");
            MergeFixture.writeOlder(engine, olderFile, policy, variant);
            MergeFixture.writeNewer(engine, newerFile, policy, variant);
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

    private static double median(long[] x, int from) {
        long[] y = Arrays.copyOfRange(x, from, x.length);
        Arrays.sort(y);
        return y[y.length / 2];
    }
}

package dev.everett.bench;

import dev.everett.api.MergeJob;
import dev.everett.api.OpenMode;
import dev.everett.api.Policy;
import dev.everett.api.SegmentEngine;
import dev.everett.api.SegmentReader;
import dev.everett.merge.NativeMerger;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Merging k runs ({@link MergeRuns#kWay(int)}: one million 16-byte keys spread key by key over k
 * runs, every third key also in the next run, newer wins) into one published segment, two ways,
 * on the same open inputs. Scores are ns per distinct output key (one million per merge).
 *
 * <ul>
 *   <li>{@link #kway}: one {@code NativeMerger.of(runs)} over all k runs (oldest first),
 *       {@code step(4096)} until done;</li>
 *   <li>{@link #tree}: a balanced tree of two-way merges: adjacent pairs (older first) merged into
 *       intermediate files, which are opened and merged pairwise again, until one output remains
 *       (k = 4: 3 merges on 2 levels; k = 8: 7 merges on 3 levels). Opening and closing the
 *       intermediate segments is timed; the intermediates are overwritten, not deleted.</li>
 * </ul>
 *
 * <p>The trial set-up runs both once and checks that the output, walked once, holds exactly the
 * one million expected keys with the newest values, and that both outputs are byte-identical.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 3, jvmArgsAppend = {"-Xms2g", "-Xmx2g", "--enable-native-access=ALL-UNNAMED"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class MergeKWayBench {
    public static final int STEP = 4096;

    @Param({"4", "8"})
    public int k;

    /** Where to write: a directory, or "auto" for /dev/shm (else java.io.tmpdir). */
    @Param({"auto"})
    public String dir;

    private SegmentEngine engine;
    private Policy policy;
    private Path work;
    private List<SegmentReader> runs;
    private Path out;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        try {
            prepare();
        } catch (IOException | RuntimeException | Error e) {
            tearDown();
            throw e;
        }
    }

    private void prepare() throws IOException {
        engine = SegmentEngine.load();
        policy = Kv02Data.policy();
        work = Kv02Data.workDir(dir, "everett-bench-kway-");
        MergeRuns data = MergeRuns.kWay(k);
        runs = new ArrayList<>();
        for (int r = 0; r < k; r++) {
            Path p = work.resolve("run-" + r + ".kv02");
            data.writeEverett(engine, p, policy, r);
            runs.add(engine.open(p, policy, OpenMode.TYPED));
        }
        out = work.resolve("merged.kv02");
        Path checkKway = work.resolve("check-kway.kv02");
        Path checkTree = work.resolve("check-tree.kv02");
        kway(checkKway);
        tree(checkTree);
        data.checkEverett(engine, checkKway, policy);
        MergeFixture.checkSameBytes(checkKway, checkTree);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        if (runs != null) {
            for (SegmentReader r : runs) {
                r.close();
            }
        }
        Kv02Data.deleteTree(work);
    }

    private static long merge(List<SegmentReader> inputs, Path target) throws IOException {
        try (MergeJob job = NativeMerger.of(inputs).into(target).start()) {
            while (!job.done()) {
                job.step(STEP);
            }
            return job.finish().recordCount();
        }
    }

    private long kway(Path target) throws IOException {
        return merge(runs, target);
    }

    private long tree(Path target) throws IOException {
        List<SegmentReader> level = runs;
        int depth = 0;
        long records = 0;
        while (level.size() > 1) {
            List<SegmentReader> next = new ArrayList<>();
            boolean last = level.size() == 2;
            for (int j = 0; j + 1 < level.size(); j += 2) {
                Path t = last ? target : work.resolve("tree-" + depth + "-" + (j / 2) + ".kv02");
                records = merge(List.of(level.get(j), level.get(j + 1)), t);
                if (!last) {
                    next.add(engine.open(t, policy, OpenMode.TYPED));
                }
            }
            if (level.size() % 2 == 1) {
                next.add(level.get(level.size() - 1));
            }
            for (SegmentReader r : level) {
                if (!next.contains(r) && !runs.contains(r)) {
                    r.close();
                }
            }
            level = next;
            depth++;
        }
        return records;
    }

    /** One k-way native merge of all runs. */
    @Benchmark
    @OperationsPerInvocation(MergeRuns.KEYS)
    public long kway() throws IOException {
        return kway(out);
    }

    /** A balanced tree of two-way native merges through intermediate files. */
    @Benchmark
    @OperationsPerInvocation(MergeRuns.KEYS)
    public long tree() throws IOException {
        return tree(out);
    }
}

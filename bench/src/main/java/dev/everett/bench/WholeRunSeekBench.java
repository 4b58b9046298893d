package dev.everett.bench;

import dev.everett.api.CatalogRef;
import dev.everett.api.Chain;
import dev.everett.api.IndexedSegment;
import dev.everett.api.KeyRange;
import dev.everett.api.ObjectId;
import dev.everett.api.ObjectStore;
import dev.everett.api.ObjectStoreOptions;
import dev.everett.api.RunCursors;
import dev.everett.api.SeekCursor;
import dev.everett.api.SegmentEngine;
import dev.everett.compaction.GeometricPicker;
import dev.everett.compaction.LsmTree;
import dev.everett.compaction.SegmentMeta;
import dev.everett.compaction.TreeCursor;
import dev.everett.compaction.TreeOptions;
import dev.everett.compaction.Version;
import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
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
 * Positioning every run of a whole-run version: one descent of the runs' IX03 chain
 * ({@link Chain#runCursors}) against one search per run (each run's own segment index, as the
 * merged cursor did before), on the runs a realistic history leaves.
 *
 * <p>The history is {@link VersionReadVsRocksBench}'s ({@code keys} keys written by four batches,
 * then {@code batches − 4} more, each overwriting or deleting a pseudo-random eighth) written to an {@code LsmTree} with
 * {@code TreeOptions.wholeRun()} and {@code GeometricPicker(ratio)}, every picked compaction run
 * to completion. The runs it leaves (printed at set-up) are then indexed twice in one object
 * store, untimed: as one chain, newest on top, with its routing head, and each on its own with
 * its routing head.
 *
 * <ul>
 *   <li>{@link #oneDescent}: {@code runCursors.seek(key)}: every run lands on its first key ≥ the
 *       target from one descent.</li>
 *   <li>{@link #searchPerRun}: {@code cursor.seek(key)} on each run's own segment cursor.</li>
 *   <li>{@link #mergedSeek}: for context, the version's merged cursor ({@code Version.cursor()}),
 *       which positions its runs by one descent, then merges them: seek and read key and value.</li>
 * </ul>
 *
 * Targets: 1,024 pseudo-random keys between two written keys per invocation (ns per seek).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g", "--enable-native-access=ALL-UNNAMED"})
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
public class WholeRunSeekBench {
    static final int OPS = 1024;

    @State(Scope.Benchmark)
    public static class Runs {
        @Param({"1000000"})
        public int keys;

        /** The geometric picker's ratio: 1, the least it takes, keeps the most runs (each at least all above it). */
        @Param({"1"})
        public double ratio;

        /** Flushed batches: four that write every key, then eighths (4 + 15 leaves three runs at ratio 1). */
        @Param({"19"})
        public int batches;

        /**
         * The routing cache of the chain and of each run's own segment ({@code ObjectStoreOptions}):
         * the default decodes the top catalogs' samples, so each run's own search starts with one
         * binary search in memory; 0 makes every search walk the cascade from the head.
         */
        @Param({"2097152", "0"})
        public long routingCacheBytes;

        @Param({"auto"})
        public String dir;

        Path work;
        LsmTree tree;
        Version version;
        TreeCursor merged;
        ObjectStore store;
        RunCursors runs;
        final List<SeekCursor> perRun = new ArrayList<>();
        byte[][] targets;

        @Setup(Level.Trial)
        public void setUp() throws IOException {
            work = Kv02Data.workDir(dir, "everett-bench-whole-run-seek-");
            VersionReadVsRocksBench.History history = new VersionReadVsRocksBench.History(keys, batches);
            Path treeDir = work.resolve("tree");
            TreeOptions options = TreeOptions.wholeRun().withPicker(new GeometricPicker(ratio));
            tree = history.write(treeDir, options);
            version = tree.current();
            merged = version.cursor(KeyRange.all());
            // The runs' natives, copied into one store (untimed): a chain over all of them, and a
            // segment index over each.
            store = SegmentEngine.load().openObjectStore(work.resolve("store"), options.policy(), ObjectStoreOptions.defaults().withRoutingCacheBytes(routingCacheBytes));
            List<ObjectId> newestFirst = new ArrayList<>();
            StringBuilder shape = new StringBuilder();
            for (int n = 0; n < version.levelCount(); n++) {
                SegmentMeta m = version.level(n).getFirst();
                Path from = m.id().path(treeDir.resolve("segments").resolve(m.id().hex()), ".kv");
                Path to = m.id().path(store.root(), ".kv");
                Files.createDirectories(to.getParent());
                Files.copy(from, to);
                newestFirst.add(m.id());
                shape.append(n == 0 ? "" : ", ").append(m.records());
            }
            CatalogRef below = null;
            for (ObjectId id : newestFirst.reversed()) {
                below = store.index(id, below, null);
            }
            Chain chain = store.openChain(store.prepareHead(below, null));
            runs = chain.runCursors(newestFirst.size(), KeyRange.all());
            for (ObjectId id : newestFirst) {
                IndexedSegment segment = store.indexSegment(id);
                perRun.add(segment.cursor());
            }
            System.out.println("Whole-run version: " + newestFirst.size() + " runs of " + shape + " records, newest first");
            targets = new byte[OPS][];
            for (int j = 0; j < OPS; j++) {
                targets[j] = VersionReadVsRocksBench.missKey(Long.remainderUnsigned(Kv02Data.mix(0x5EEDL + j), keys));
            }
            check();
        }

        /** Both ways land every run on the same record. */
        private void check() {
            for (byte[] t : targets) {
                runs.seek(t);
                for (int i = 0; i < perRun.size(); i++) {
                    SeekCursor c = perRun.get(i);
                    c.seek(t);
                    SeekCursor r = runs.run(i);
                    if (c.valid() != r.valid() || (c.valid() && c.ordinal() != r.ordinal())) {
                        throw new IllegalStateException("run " + i + ": one descent and its own search disagree");
                    }
                }
            }
            System.out.println("check: " + OPS + " seeks land every run alike both ways");
        }

        @TearDown(Level.Trial)
        public void tearDown() throws IOException {
            perRun.forEach(SeekCursor::close);
            if (runs != null) {
                runs.close();
            }
            if (store != null) {
                store.close();
            }
            if (merged != null) {
                merged.close();
            }
            if (version != null) {
                version.close();
            }
            if (tree != null) {
                tree.close();
            }
            Kv02Data.deleteTree(work);
        }
    }

    @Benchmark
    @OperationsPerInvocation(OPS)
    public long oneDescent(Runs s) {
        long sum = 0;
        RunCursors r = s.runs;
        for (byte[] t : s.targets) {
            r.seek(t);
            sum += r.run(0).valid() ? r.run(0).ordinal() : -1;
        }
        return sum;
    }

    @Benchmark
    @OperationsPerInvocation(OPS)
    public long searchPerRun(Runs s) {
        long sum = 0;
        List<SeekCursor> cursors = s.perRun;
        for (byte[] t : s.targets) {
            for (int i = 0; i < cursors.size(); i++) {
                cursors.get(i).seek(t);
            }
            sum += cursors.getFirst().valid() ? cursors.getFirst().ordinal() : -1;
        }
        return sum;
    }

    @Benchmark
    @OperationsPerInvocation(OPS)
    public long mergedSeek(Runs s) {
        long sum = 0;
        TreeCursor c = s.merged;
        for (byte[] t : s.targets) {
            c.seek(t);
            if (c.valid()) {
                sum += c.key().get(ValueLayout.JAVA_BYTE, 15) + c.value().get(ValueLayout.JAVA_BYTE, 0);
            }
        }
        return sum;
    }
}

package dev.everett.bench;

import dev.everett.api.CommonWidthRule;
import dev.everett.api.KeyedValueMerger;
import dev.everett.api.MergeJob;
import dev.everett.api.OpenMode;
import dev.everett.api.Policy;
import dev.everett.api.SegmentEngine;
import dev.everett.api.SegmentInfo;
import dev.everett.api.SegmentReader;
import dev.everett.api.TombstonePolicy;
import dev.everett.api.ValueMerger;
import dev.everett.merge.NativeMerger;
import dev.everett.merge.ReferenceMerger;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeMap;
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
 * The native-merge fixture of Everett (docs/benchmarks/merge.md) ({@link MergeFixture}), byte and
 * bit policies (KV02 with bit units; see the fixture for how its bit keys and values are padded
 * to whole bytes): two inputs
 * of 2,731 and 2,730 records merged into 4,096 distinct keys, newer wins. Scores are ns per
 * distinct output key ({@code @OperationsPerInvocation(4096)}).
 *
 * <p>Every method does the same work from open inputs to a published output file (temporary
 * file, force, atomic rename over the previous output, force the directory):
 * <ul>
 *   <li>{@link #encoded}: {@code NativeMerger.of(older, newer).into(out).start()},
 *       {@code step(128)} until {@code done()}, {@code finish()}: the encoded-cursor merge;</li>
 *   <li>{@link #keyedCursor}: the same merger with a key-aware "newer wins" callback, which makes
 *       it rebuild every key into a scratch buffer (Everett's materialising cursor, the C++
 *       comparison's "materialising merger");</li>
 *   <li>{@link #reference}: {@code ReferenceMerger.merge} (every record into a {@code TreeMap})
 *       then {@code ReferenceMerger.write} with the ordinary writer: the materialising oracle.</li>
 * </ul>
 *
 * <p>The trial set-up writes both inputs, then runs the encoded and the reference merges once and
 * checks the output: walked once it holds exactly the 4,096 expected records (keys and newer
 * values), it verifies, and the two outputs are byte-identical.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 3, jvmArgsAppend = {"-Xms2g", "-Xmx2g", "--enable-native-access=ALL-UNNAMED"})
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 4, time = 1)
public class MergeBench {
    /** Steps of this many distinct keys, as the C++ timer. */
    public static final int STEP = 128;

    /** A key-aware "newer wins": forces the merger to materialise every key. */
    private static final KeyedValueMerger KEYED_NEWER_WINS = (key, older, newer) -> newer;

    @Param({"byte-fixed8", "byte-variable8-24", "bit-fixed13", "bit-variable8-24"})
    public String policy;

    @Param({"prefix0", "prefix64", "prefix4096", "tail4096", "fragments"})
    public String variant;

    /** Where to write: a directory, or "auto" for /dev/shm (else java.io.tmpdir). */
    @Param({"auto"})
    public String dir;

    private SegmentEngine engine;
    private Path work;
    private SegmentReader older;
    private SegmentReader newer;
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
        Policy p = MergeFixture.policy(policy);
        MergeFixture.Variant v = MergeFixture.Variant.of(variant);
        work = Kv02Data.workDir(dir, "everett-bench-merge-");
        Path olderFile = work.resolve("older.kv02");
        Path newerFile = work.resolve("newer.kv02");
        MergeFixture.writeOlder(engine, olderFile, p, v);
        MergeFixture.writeNewer(engine, newerFile, p, v);
        older = engine.open(olderFile, p, OpenMode.TYPED);
        newer = engine.open(newerFile, p, OpenMode.TYPED);
        runs = List.of(older, newer);
        out = work.resolve("merged.kv02");

        // Correctness, once per fork: the encoded output is the expected records, and the same
        // bytes as the reference merger's.
        Path checkEncoded = work.resolve("check-encoded.kv02");
        Path checkReference = work.resolve("check-reference.kv02");
        Path checkKeyed = work.resolve("check-keyed.kv02");
        mergeEncoded(checkEncoded, false);
        mergeEncoded(checkKeyed, true);
        mergeReference(checkReference);
        MergeFixture.check(engine, checkEncoded, p, v);
        MergeFixture.checkSameBytes(checkEncoded, checkReference);
        MergeFixture.checkSameBytes(checkEncoded, checkKeyed);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        if (older != null) {
            older.close();
        }
        if (newer != null) {
            newer.close();
        }
        Kv02Data.deleteTree(work);
    }

    private long mergeEncoded(Path target, boolean keyed) throws IOException {
        NativeMerger m = NativeMerger.of(older, newer).into(target);
        if (keyed) {
            m.values(KEYED_NEWER_WINS);
        }
        try (MergeJob job = m.start()) {
            while (!job.done()) {
                job.step(STEP);
            }
            SegmentInfo info = job.finish();
            return info.recordCount();
        }
    }

    private long mergeReference(Path target) throws IOException {
        TreeMap<byte[], byte[]> merged = ReferenceMerger.merge(runs, ValueMerger.NEWER_WINS, null, TombstonePolicy.KEEP);
        return ReferenceMerger.write(merged, target, older, CommonWidthRule.policy()).recordCount();
    }

    /** The encoded-cursor native merge, {@code step(128)} until done, then publish. */
    @Benchmark
    @OperationsPerInvocation(MergeFixture.N)
    public long encoded() throws IOException {
        return mergeEncoded(out, false);
    }

    /** The native merge with a key-aware callback: every key rebuilt (materialising cursor). */
    @Benchmark
    @OperationsPerInvocation(MergeFixture.N)
    public long keyedCursor() throws IOException {
        return mergeEncoded(out, true);
    }

    /** {@code ReferenceMerger.merge} into a TreeMap, then {@code ReferenceMerger.write}. */
    @Benchmark
    @OperationsPerInvocation(MergeFixture.N)
    public long reference() throws IOException {
        return mergeReference(out);
    }
}

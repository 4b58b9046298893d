package dev.everett.bench;

import dev.everett.api.ObjectStoreOptions;
import dev.everett.api.TombstonePolicy;
import dev.everett.compaction.CompactionJob;
import dev.everett.compaction.SegmentFiles;
import dev.everett.compaction.SegmentMeta;
import dev.everett.compaction.SortedEntries;
import dev.everett.compaction.StorageFiles;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
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
import org.rocksdb.CompressionType;
import org.rocksdb.EnvOptions;
import org.rocksdb.IngestExternalFileOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.SstFileWriter;

/**
 * Compaction throughput: one million 16-byte keys ({@code 8 × 'p'} ∥ big-endian ordinal) with
 * 100-byte values in four overlapping runs ({@link MergeRuns#kWay(int)} with k = 4: run r holds
 * {@code i % 4 == r}, and every third key also sits in the next run; 1,333,334 input records), all
 * compacted into outputs split at {@code targetMiB}, against RocksDB's {@code compactRange()} of
 * the same runs in the same JMH run. Scores are ns per input record
 * ({@code @OperationsPerInvocation(1,333,334)}); input keys/s = 10^9 / score.
 *
 * <ul>
 *   <li>{@link #everettCompaction}: {@code SegmentFiles.compaction(runs oldest first)} with
 *       {@code targetFileBytes(targetMiB)} and dropped tombstones (a bottommost output, as
 *       RocksDB's), {@code step(4096)} until done, {@code finish()}: the job checks each input's
 *       body CRC, merges on encoded records, publishes every output (force, atomic rename, force the
 *       directory) and indexes it. Outputs are deleted after each invocation (untimed).</li>
 *   <li>{@link #rocksCompactRange}: before each invocation (untimed) a fresh DB (compression off,
 *       auto compactions off, {@code target_file_size_base = targetMiB}) ingests the four runs,
 *       written once per fork with {@code SstFileWriter}, oldest first; {@code compactRange()}
 *       then merges them into the last level, split at the target size.</li>
 * </ul>
 *
 * The set-up checks once per fork that both sides produce one million keys with the newest values.
 *
 * <p>Steady state, as a long-running host compacts: three forks, each with 60 untimed and 10 timed
 * compactions, and the heap touched when the JVM starts ({@code -XX:+AlwaysPreTouch}, as
 * Elasticsearch and Cassandra run). A fresh heap's pages cost a fault and zeroing the first time
 * they are allocated into; a compaction allocates 14–27 MB, so the first pass through a 550 MB
 * young generation took about 25 compactions, and until then Everett's times kept falling
 * (docs/benchmarks/compaction.md, "Steady state"). The JIT takes longer still: code that runs
 * once per output (indexing, publishing) is called 2 to 25 times a compaction, and the compiler
 * was still compiling it until about the 50th compaction, on the one core the benchmark is pinned
 * to, so a compaction during which it compiled ran up to twice as long (docs/benchmarks/compaction.md,
 * "Warm-up: the JIT"). RocksDB's side gets the same settings.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 3, jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-XX:+AlwaysPreTouch", "--enable-native-access=ALL-UNNAMED"})
@Warmup(iterations = 60, batchSize = 1)
@Measurement(iterations = 10, batchSize = 1)
public class CompactionVsRocksBench {
    public static final int KEYS = 1_000_000;
    public static final int VALUE_BYTES = 100;
    public static final int RUNS = 4;
    /** Input records over all runs ({@link MergeRuns#kWay(int)}, k = 4). */
    public static final int INPUT_RECORDS = 1_333_334;
    public static final int STEP = 4096;

    private static final MergeRuns SHAPE = MergeRuns.kWay(RUNS);
    private static final VarHandle LE_LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    static {
        RocksDB.loadLibrary();
    }

    /** Run {@code r}'s 100-byte value of ordinal {@code i}: SplitMix64 words, the first byte marked by the run. */
    static void fill(byte[] v, long i, int r) {
        for (int w = 0; w < 12; w++) {
            LE_LONG.set(v, 8 * w, Kv02Data.mix(i * 13 + w));
        }
        LE_LONG.set(v, 92, Kv02Data.mix(i * 13 + 12));
        v[0] ^= (byte) (0x21 * (r + 1));
    }

    /** Run {@code r} as a sorted source. */
    static SortedEntries run(int r) {
        return sorted(KEYS, i -> SHAPE.holds(r, i), i -> false, r);
    }

    /**
     * The ordinals below {@code keys} that {@code holds} accepts, in order, as a sorted source:
     * a tombstone where {@code deletes} says so, else the 100-byte value {@link #fill} gives with
     * {@code run}'s mark.
     */
    static SortedEntries sorted(long keys, java.util.function.LongPredicate holds, java.util.function.LongPredicate deletes, int run) {
        byte[] k = Kv02Data.newKey();
        byte[] v = new byte[VALUE_BYTES];
        MemorySegment key = MemorySegment.ofArray(k);
        MemorySegment val = MemorySegment.ofArray(v);
        return new SortedEntries() {
            long i = -1;
            boolean delete;

            @Override
            public boolean next() {
                do {
                    i++;
                } while (i < keys && !holds.test(i));
                if (i >= keys) {
                    return false;
                }
                Kv02Data.key(k, i);
                delete = deletes.test(i);
                if (!delete) {
                    fill(v, i, run);
                }
                return true;
            }

            @Override
            public MemorySegment key() {
                return key;
            }

            @Override
            public boolean tombstone() {
                return delete;
            }

            @Override
            public MemorySegment value() {
                return val;
            }
        };
    }

    @State(Scope.Benchmark)
    public static class EverettRuns {
        @Param({"64", "4"})
        public int targetMiB;

        /** Where to write: a directory, or "auto" for /dev/shm (else java.io.tmpdir). */
        @Param({"auto"})
        public String dir;

        Path work;
        SegmentFiles files;
        final List<SegmentMeta> inputs = new ArrayList<>();
        List<SegmentMeta> outputs = List.of();

        @Setup(Level.Trial)
        public void setUp() throws IOException {
            work = Kv02Data.workDir(dir, "everett-bench-compaction-");
            files = SegmentFiles.open(work.resolve("segments"), Kv02Data.policy(), ObjectStoreOptions.defaults(), StorageFiles.system());
            for (int r = 0; r < RUNS; r++) {
                inputs.addAll(files.flush(run(r), Long.MAX_VALUE, null));
            }
            outputs = compact(this);
            check(this);
            deleteOutputs();
        }

        /** Walks the outputs once: one million keys in order, each with the newest run's value. */
        private static void check(EverettRuns s) throws IOException {
            byte[] k = Kv02Data.newKey();
            byte[] v = new byte[VALUE_BYTES];
            long i = 0;
            for (SegmentMeta m : s.outputs) {
                try (var h = s.files.open(m); var c = h.segment().natives().cursor()) {
                    while (c.next()) {
                        Kv02Data.key(k, i);
                        fill(v, i, SHAPE.newest(i));
                        if (!java.util.Arrays.equals(c.keyBytes(), k) || !java.util.Arrays.equals(c.valueBytes(), v)) {
                            throw new IllegalStateException("output record " + i + " differs from the expected key and newest value");
                        }
                        i++;
                    }
                }
            }
            if (i != KEYS) {
                throw new IllegalStateException("outputs hold " + i + " keys, expected " + KEYS);
            }
            System.out.println("Everett check: " + s.outputs.size() + " outputs at " + s.targetMiB + " MiB, 1,000,000 keys with the newest values");
        }

        @TearDown(Level.Invocation)
        public void deleteOutputs() throws IOException {
            for (SegmentMeta m : outputs) {
                files.delete(m.id());
            }
            outputs = List.of();
        }

        @TearDown(Level.Trial)
        public void tearDown() throws IOException {
            if (files != null) {
                files.close();
            }
            Kv02Data.deleteTree(work);
        }
    }

    static List<SegmentMeta> compact(EverettRuns s) throws IOException {
        try (CompactionJob job = s.files.compaction(s.inputs).targetFileBytes((long) s.targetMiB << 20)
                .tombstones(TombstonePolicy.DROP).start()) {
            while (!job.done()) {
                job.step(STEP);
            }
            return job.finish();
        }
    }

    @State(Scope.Benchmark)
    public static class RocksRuns {
        @Param({"64", "4"})
        public int targetMiB;

        @Param({"auto"})
        public String dir;

        Path work;
        final List<Path> ssts = new ArrayList<>();
        EnvOptions env;
        Options options;
        IngestExternalFileOptions ingest;
        RocksDB db;
        Path dbDir;
        int invocation;

        @Setup(Level.Trial)
        public void setUp() throws IOException, RocksDBException {
            work = Kv02Data.workDir(dir, "everett-bench-rocks-compaction-");
            env = new EnvOptions();
            options = new Options()
                    .setCreateIfMissing(true)
                    .setCompressionType(CompressionType.NO_COMPRESSION)
                    .setDisableAutoCompactions(true)
                    .setTargetFileSizeBase((long) targetMiB << 20);
            ingest = new IngestExternalFileOptions().setMoveFiles(false);
            try (Options sstOptions = Kv02Data.rocksOptions()) {
                for (int r = 0; r < RUNS; r++) {
                    Path p = work.resolve("run" + r + ".sst");
                    writeSst(sstOptions, p, r);
                    ssts.add(p);
                }
            }
            openAndIngest();
            db.compactRange();
            checkRocks();
            closeDb();
        }

        private void writeSst(Options sstOptions, Path target, int r) throws RocksDBException, IOException {
            SortedEntries e = run(r);
            try (SstFileWriter w = new SstFileWriter(env, sstOptions)) {
                w.open(target.toString());
                while (e.next()) {
                    w.put(e.key().toArray(java.lang.foreign.ValueLayout.JAVA_BYTE), e.value().toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
                }
                w.finish();
            }
        }

        private void checkRocks() throws RocksDBException {
            byte[] k = Kv02Data.newKey();
            byte[] v = new byte[VALUE_BYTES];
            long i = 0;
            try (var it = db.newIterator()) {
                for (it.seekToFirst(); it.isValid(); it.next()) {
                    Kv02Data.key(k, i);
                    fill(v, i, SHAPE.newest(i));
                    if (!java.util.Arrays.equals(it.key(), k) || !java.util.Arrays.equals(it.value(), v)) {
                        throw new IllegalStateException("RocksDB record " + i + " differs from the expected key and newest value");
                    }
                    i++;
                }
            }
            if (i != KEYS) {
                throw new IllegalStateException("RocksDB holds " + i + " keys, expected " + KEYS);
            }
            System.out.println("RocksDB check: " + MergeVsRocksBench.RocksRuns.levels(db) + " at " + targetMiB + " MiB, 1,000,000 keys with the newest values");
        }

        @Setup(Level.Invocation)
        public void openAndIngest() throws RocksDBException {
            dbDir = work.resolve("db-" + invocation++);
            db = RocksDB.open(options, dbDir.toString());
            for (Path p : ssts) {
                db.ingestExternalFile(List.of(p.toString()), ingest);
            }
        }

        @TearDown(Level.Invocation)
        public void closeDb() throws IOException {
            db.close();
            db = null;
            Kv02Data.deleteTree(dbDir);
        }

        @TearDown(Level.Trial)
        public void tearDown() throws IOException {
            if (ingest != null) {
                ingest.close();
            }
            if (options != null) {
                options.close();
            }
            if (env != null) {
                env.close();
            }
            Kv02Data.deleteTree(work);
        }
    }

    /** Everett: the four runs compacted into outputs split at the target size. */
    @Benchmark
    @OperationsPerInvocation(INPUT_RECORDS)
    public int everettCompaction(EverettRuns s) throws IOException {
        s.outputs = compact(s);
        return s.outputs.size();
    }

    /** RocksDB: {@code compactRange()} of a fresh DB holding the four runs as ingested SST files. */
    @Benchmark
    @OperationsPerInvocation(INPUT_RECORDS)
    public long rocksCompactRange(RocksRuns s) throws RocksDBException {
        s.db.compactRange();
        return s.db.getLatestSequenceNumber();
    }
}

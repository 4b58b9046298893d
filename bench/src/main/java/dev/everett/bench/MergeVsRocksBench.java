package dev.everett.bench;

import dev.everett.api.MergeJob;
import dev.everett.api.OpenMode;
import dev.everett.api.Policy;
import dev.everett.api.SegmentEngine;
import dev.everett.api.SegmentReader;
import dev.everett.merge.NativeMerger;
import java.io.IOException;
import java.nio.file.Path;
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

/**
 * A two-way merge of one million 16-byte structured keys with 32-byte values
 * ({@link MergeRuns#twoWay()}: older {@code i % 3 != 1}, newer {@code i % 3 != 0}, every third key in
 * both, newer wins) against RocksDB compacting the same two runs, in the same JMH run. Scores are
 * ns per distinct output key ({@code @OperationsPerInvocation(1_000_000)}); keys/s = 10^9 / score.
 *
 * <ul>
 *   <li>{@link #everettMerge}: {@code NativeMerger.of(older, newer)} from open readers to a
 *       published file (force, atomic rename, force the directory), {@code step(4096)} until done.
 *       Policy: the KV02 foundation's ({@code defaultBytes()} with RAW values).</li>
 *   <li>{@link #rocksCompactRange}: {@code db.compactRange()} over the whole key space. Before each
 *       invocation (untimed, {@code Level.Invocation}) a fresh DB is opened in a new directory
 *       (compression off, auto compactions disabled, otherwise default options) and the two runs,
 *       written once per fork with {@code SstFileWriter}, are ingested as separate files, older first
 *       ({@code ingestExternalFile}, copying). RocksDB puts the older file in the bottommost level
 *       (L6) and the newer, overlapping one above it (L0 with this version's defaults; the
 *       placement is checked and printed); {@code compactRange()} then merges the two into L6:
 *       one two-way merge writing one SST. The DB is closed and deleted after each
 *       invocation (untimed). Each measurement is one compaction ({@code Mode.SingleShotTime}).</li>
 * </ul>
 *
 * <p>Each fork checks its side once in the trial set-up: the merged output (Everett) or the
 * compacted DB (RocksDB) walked once holds exactly the one million expected keys with the newer
 * values; for RocksDB also that the two ingested files sat in two levels (the older in L6) and
 * that one file remains, in L6.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 3, jvmArgsAppend = {"-Xms2g", "-Xmx2g", "--enable-native-access=ALL-UNNAMED"})
public class MergeVsRocksBench {
    /** Distinct keys resolved per step. */
    public static final int STEP = 4096;

    static {
        RocksDB.loadLibrary();
    }

    /** The two runs as Everett segments, open for the whole trial. */
    @State(Scope.Benchmark)
    public static class EverettRuns {
        /** Where to write: a directory, or "auto" for /dev/shm (else java.io.tmpdir). */
        @Param({"auto"})
        public String dir;

        SegmentEngine engine;
        Policy policy;
        Path work;
        SegmentReader older;
        SegmentReader newer;
        Path out;

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
            work = Kv02Data.workDir(dir, "everett-bench-merge2-");
            MergeRuns data = MergeRuns.twoWay();
            Path o = work.resolve("older.kv02");
            Path n = work.resolve("newer.kv02");
            data.writeEverett(engine, o, policy, 0);
            data.writeEverett(engine, n, policy, 1);
            older = engine.open(o, policy, OpenMode.TYPED);
            newer = engine.open(n, policy, OpenMode.TYPED);
            out = work.resolve("merged.kv02");
            Path check = work.resolve("check.kv02");
            merge(older, newer, check);
            data.checkEverett(engine, check, policy);
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
    }

    /** The two runs as SST files, and a fresh DB holding them before every invocation. */
    @State(Scope.Benchmark)
    public static class RocksRuns {
        @Param({"auto"})
        public String dir;

        Path work;
        Path olderSst;
        Path newerSst;
        EnvOptions env;
        Options options;
        IngestExternalFileOptions ingest;
        RocksDB db;
        Path dbDir;
        int invocation;

        @Setup(Level.Trial)
        public void setUp() throws IOException, RocksDBException {
            try {
                prepare();
            } catch (IOException | RocksDBException | RuntimeException | Error e) {
                if (db != null) {
                    closeDb();
                }
                tearDown();
                throw e;
            }
        }

        private void prepare() throws IOException, RocksDBException {
            work = Kv02Data.workDir(dir, "everett-bench-rocks2-");
            env = new EnvOptions();
            options = new Options()
                    .setCreateIfMissing(true)
                    .setCompressionType(CompressionType.NO_COMPRESSION)
                    .setDisableAutoCompactions(true);
            ingest = new IngestExternalFileOptions().setMoveFiles(false);
            MergeRuns data = MergeRuns.twoWay();
            olderSst = work.resolve("older.sst");
            newerSst = work.resolve("newer.sst");
            try (Options sstOptions = Kv02Data.rocksOptions()) {
                data.writeSst(env, sstOptions, olderSst, 0);
                data.writeSst(env, sstOptions, newerSst, 1);
            }
            // Check once: placement before, one file after, and the merged contents.
            openAndIngest();
            String before = levels(db);
            if (fileCount(db) != 2 || !before.endsWith("L6=1")) {
                throw new IllegalStateException("ingested files sit at " + before + ", expected the older in L6 and the newer above it");
            }
            db.compactRange();
            String after = levels(db);
            if (!after.equals("L6=1")) {
                throw new IllegalStateException("after compactRange the files sit at " + after + ", expected one file in L6");
            }
            data.checkRocks(db);
            System.out.println("RocksDB check: ingested files at " + before + "; after compactRange " + after
                    + "; 1,000,000 keys with the newer values");
            closeDb();
        }

        @Setup(Level.Invocation)
        public void openAndIngest() throws IOException, RocksDBException {
            dbDir = work.resolve("db-" + invocation++);
            db = RocksDB.open(options, dbDir.toString());
            db.ingestExternalFile(List.of(olderSst.toString()), ingest);
            db.ingestExternalFile(List.of(newerSst.toString()), ingest);
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

        static int fileCount(RocksDB db) throws RocksDBException {
            int n = 0;
            for (int l = 0; l < 7; l++) {
                n += Integer.parseInt(db.getProperty("rocksdb.num-files-at-level" + l).trim());
            }
            return n;
        }

        static String levels(RocksDB db) throws RocksDBException {
            StringBuilder s = new StringBuilder();
            for (int l = 0; l < 7; l++) {
                int files = Integer.parseInt(db.getProperty("rocksdb.num-files-at-level" + l).trim());
                if (files > 0) {
                    s.append(s.isEmpty() ? "" : " ").append('L').append(l).append('=').append(files);
                }
            }
            return s.toString();
        }
    }

    static long merge(SegmentReader older, SegmentReader newer, Path target) throws IOException {
        try (MergeJob job = NativeMerger.of(older, newer).into(target).start()) {
            while (!job.done()) {
                job.step(STEP);
            }
            return job.finish().recordCount();
        }
    }

    /** Everett's two-way native merge of the two runs into a published segment. */
    @Benchmark
    @OperationsPerInvocation(MergeRuns.KEYS)
    @Warmup(iterations = 3, time = 2)
    @Measurement(iterations = 5, time = 2)
    public long everettMerge(EverettRuns s) throws IOException {
        return merge(s.older, s.newer, s.out);
    }

    /** RocksDB {@code compactRange()} of a fresh DB holding the two runs as ingested SST files. */
    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OperationsPerInvocation(MergeRuns.KEYS)
    @Warmup(iterations = 3, batchSize = 1)
    @Measurement(iterations = 10, batchSize = 1)
    public long rocksCompactRange(RocksRuns s) throws RocksDBException {
        s.db.compactRange();
        return s.db.getLatestSequenceNumber();
    }
}

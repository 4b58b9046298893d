package dev.everett.bench;

import dev.everett.api.FilterPolicy;
import dev.everett.api.KeyRange;
import dev.everett.api.Lookup;
import dev.everett.compaction.CompactionJob;
import dev.everett.compaction.CompactionPlan;
import dev.everett.compaction.GeometricPicker;
import dev.everett.compaction.LeveledPicker;
import dev.everett.compaction.LsmTree;
import dev.everett.compaction.SortedEntries;
import dev.everett.compaction.TreeCursor;
import dev.everett.compaction.TreeOptions;
import dev.everett.compaction.Version;
import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
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
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.CompressionType;
import org.rocksdb.FlushOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteOptions;

/**
 * Point lookups and seeks over a version after a realistic history, in each of everett-compaction's
 * layouts and in RocksDB, built from the same history in the same JMH run.
 *
 * <p>The history ({@link History}): {@code keys} 16-byte keys ({@code 8 × 'p'} ∥ big-endian
 * ordinal) with 100-byte values, written as {@value History#BATCHES} flushed batches: batches 0–3
 * hold the ordinals {@code i % 4 == b} (every key once), batches 4–13 each a pseudo-random eighth
 * of the keys, overwriting them, with one in fifty of those a delete. After every flush the
 * compactions the system chooses run to completion; the last two flushes come after the last
 * level-0 compaction, so level 0 still holds two files at the end.
 *
 * <ul>
 *   <li>{@code partitioned}: {@code LsmTree} with {@code TreeOptions.partitioned()}: level-0
 *       trigger 4, 32 MiB at level 1, ratio 4, 8 MiB files, 10-bit key filters on every segment.</li>
 *   <li>{@code wholeRun}: {@code TreeOptions.wholeRun()}, {@code GeometricPicker(4)}, 10-bit key
 *       filters: every run in one IX03 chain (a get is one cascade; a seek positions every run with
 *       one descent).</li>
 *   <li>{@code rocksdb}: the same batches written with the WAL off, {@code flush()} after each,
 *       leveled compaction with the same trigger, level sizes and file size (static level bytes),
 *       background compactions awaited after each flush; no compression, 10-bit Bloom filters
 *       (full filters), a 512 MiB block cache warmed by one full scan so that it holds the data.</li>
 * </ul>
 *
 * Operations, each over 1,024 precomputed pseudo-random ordinals per invocation (ns per operation):
 * {@code get} of a key written in the history (about 2% of them deleted: a tombstone answers),
 * {@code getMiss} of a key between two written keys (the ordinal's key with a zero byte appended),
 * and {@code seek} to such a key, reading the key and value found. Everett reads the value in
 * place in the mapping; RocksDB copies it into a reused array ({@code get}) or returns arrays
 * ({@code seek}, as RocksJava's iterator does).
 *
 * <p>The set-up checks every sampled answer of each system against the history's model.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g", "--enable-native-access=ALL-UNNAMED"})
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
public class VersionReadVsRocksBench {
    static final int OPS = 1024;
    static final int VALUE_BYTES = 100;

    static {
        RocksDB.loadLibrary();
    }

    /** The history's batches and the model of what each key holds at the end. */
    static final class History {
        static final int BATCHES = 14;
        final int keys;
        final int batches;

        History(int keys) {
            this(keys, BATCHES);
        }

        /** {@code batches} batches: 0–3 as above, the rest each a pseudo-random eighth of the keys. */
        History(int keys, int batches) {
            if (batches < 4) {
                throw new IllegalArgumentException("a history has at least the four batches that write every key, got " + batches);
            }
            this.keys = keys;
            this.batches = batches;
        }

        private static long hash(long i, int b) {
            return Kv02Data.mix(i * 0x9E37L + b);
        }

        /** Batch {@code b} writes ordinal {@code i} (a put or a delete). */
        boolean holds(int b, long i) {
            return b < 4 ? i % 4 == b : (hash(i, b) & 7) == 0;
        }

        /** Batch {@code b}'s write of {@code i} is a delete. */
        boolean deletes(int b, long i) {
            return b >= 4 && (hash(i, b) >>> 8) % 50 == 0;
        }

        /** The newest batch writing {@code i}. */
        int newest(long i) {
            for (int b = batches - 1; b >= 4; b--) {
                if (holds(b, i)) {
                    return b;
                }
            }
            return (int) (i % 4);
        }

        /** The value ordinal {@code i} holds at the end, or null if it is deleted. */
        byte[] expected(long i) {
            int b = newest(i);
            if (deletes(b, i)) {
                return null;
            }
            byte[] v = new byte[VALUE_BYTES];
            CompactionVsRocksBench.fill(v, i, b);
            return v;
        }

        /** A tree at {@code dir} holding the history: each batch flushed, then every compaction its picker asks for. */
        LsmTree write(Path dir, TreeOptions options) throws IOException {
            LsmTree tree = LsmTree.open(dir, options);
            try {
                for (int b = 0; b < batches; b++) {
                    tree.flush(batch(b), null);
                    for (Optional<CompactionPlan> plan = tree.pickCompaction(); plan.isPresent(); plan = tree.pickCompaction()) {
                        try (CompactionJob job = tree.compact(plan.get())) {
                            while (!job.done()) {
                                job.step(1 << 16);
                            }
                            job.finish();
                        }
                    }
                }
                return tree;
            } catch (IOException | RuntimeException e) {
                tree.close();
                throw e;
            }
        }

        /** Batch {@code b} as a sorted source (a tombstone for a delete). */
        SortedEntries batch(int b) {
            return CompactionVsRocksBench.sorted(keys, i -> holds(b, i), i -> deletes(b, i), b);
        }
    }

    /** A key between ordinal {@code i}'s and the next: its key with a zero byte appended. */
    static byte[] missKey(long i) {
        byte[] k = Arrays.copyOf(Kv02Data.newKey(), Kv02Data.KEY_BYTES + 1);
        Kv02Data.key(k, i);
        return k;
    }

    static byte[] hitKey(long i) {
        byte[] k = Kv02Data.newKey();
        Kv02Data.key(k, i);
        return k;
    }

    @State(Scope.Benchmark)
    public static class Data {
        @Param({"partitioned", "wholeRun", "rocksdb"})
        public String system;

        @Param({"1000000"})
        public int keys;

        /** Where to write: a directory, or "auto" for /dev/shm (else java.io.tmpdir). */
        @Param({"auto"})
        public String dir;

        Path work;
        History history;
        byte[][] hits;
        byte[][] misses;

        LsmTree tree;
        Version version;
        TreeCursor cursor;

        LRUCache cache;
        BloomFilter filter;
        Options options;
        RocksDB db;
        ReadOptions read;
        RocksIterator iterator;
        final byte[] value = new byte[VALUE_BYTES];

        @Setup(Level.Trial)
        public void setUp() throws IOException, RocksDBException {
            history = new History(keys);
            work = Kv02Data.workDir(dir, "everett-bench-version-read-");
            hits = new byte[OPS][];
            misses = new byte[OPS][];
            for (int j = 0; j < OPS; j++) {
                long i = Long.remainderUnsigned(Kv02Data.mix(0xABCDEFL + j), keys);
                hits[j] = hitKey(i);
                misses[j] = missKey(i);
            }
            switch (system) {
                case "partitioned" -> buildTree(TreeOptions.partitioned()
                        .withPicker(new LeveledPicker(7, 4, 32L << 20, 4))
                        .withTargetFileBytes(8L << 20));
                case "wholeRun" -> buildTree(TreeOptions.wholeRun().withPicker(new GeometricPicker(4)));
                case "rocksdb" -> buildRocks();
                default -> throw new IllegalArgumentException("system is partitioned, wholeRun or rocksdb, got " + system);
            }
            check();
        }

        private void buildTree(TreeOptions options) throws IOException {
            tree = history.write(work.resolve("tree"), options.withFilters(FilterPolicy.bloom(10)));
            version = tree.current();
            cursor = version.cursor(KeyRange.all());
            StringBuilder shape = new StringBuilder();
            for (int n = 0; n < version.levelCount(); n++) {
                shape.append(n == 0 ? "" : ", ").append('L').append(n).append(':').append(version.level(n).size())
                        .append(" (").append(version.levelBytes(n) >> 20).append(" MiB)");
            }
            System.out.println("Everett " + system + " levels: " + shape);
        }

        private void buildRocks() throws IOException, RocksDBException {
            cache = new LRUCache(512L << 20);
            filter = new BloomFilter(10, false);
            options = new Options()
                    .setCreateIfMissing(true)
                    .setCompressionType(CompressionType.NO_COMPRESSION)
                    .setBottommostCompressionType(CompressionType.NO_COMPRESSION)
                    .setLevel0FileNumCompactionTrigger(4)
                    .setMaxBytesForLevelBase(32L << 20)
                    .setMaxBytesForLevelMultiplier(4)
                    .setTargetFileSizeBase(8L << 20)
                    .setLevelCompactionDynamicLevelBytes(false)
                    .setWriteBufferSize(256L << 20)
                    .setTableFormatConfig(new BlockBasedTableConfig().setBlockCache(cache).setFilterPolicy(filter));
            db = RocksDB.open(options, work.resolve("rocks").toString());
            try (WriteOptions w = new WriteOptions().setDisableWAL(true); FlushOptions f = new FlushOptions().setWaitForFlush(true)) {
                for (int b = 0; b < history.batches; b++) {
                    SortedEntries e = history.batch(b);
                    while (e.next()) {
                        byte[] k = e.key().toArray(ValueLayout.JAVA_BYTE);
                        if (e.tombstone()) {
                            db.delete(w, k);
                        } else {
                            db.put(w, k, e.value().toArray(ValueLayout.JAVA_BYTE));
                        }
                    }
                    db.flush(f);
                    awaitCompactions();
                }
            }
            read = new ReadOptions();
            iterator = db.newIterator(read);
            long records = 0;
            for (iterator.seekToFirst(); iterator.isValid(); iterator.next()) {
                records++; // fills the block cache with every data block
            }
            System.out.println("RocksDB levels: " + levels() + "; " + records + " keys; block cache "
                    + (db.getLongProperty("rocksdb.block-cache-usage") >> 20) + " MiB");
        }

        private void awaitCompactions() throws RocksDBException {
            while (db.getLongProperty("rocksdb.compaction-pending") != 0 || db.getLongProperty("rocksdb.num-running-compactions") != 0) {
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while awaiting RocksDB's compactions", e);
                }
            }
        }

        private String levels() throws RocksDBException {
            StringBuilder sb = new StringBuilder();
            for (int n = 0; n < 7; n++) {
                String files = db.getProperty("rocksdb.num-files-at-level" + n);
                if (!files.equals("0")) {
                    sb.append(sb.isEmpty() ? "" : ", ").append('L').append(n).append(':').append(files);
                }
            }
            return sb.toString();
        }

        /** Every sampled hit, miss and seek against the model. */
        private void check() throws RocksDBException {
            for (int j = 0; j < OPS; j++) {
                long i = Long.remainderUnsigned(Kv02Data.mix(0xABCDEFL + j), keys);
                byte[] expected = history.expected(i);
                byte[] got = get(hits[j]);
                if (!Arrays.equals(expected, got)) {
                    throw new IllegalStateException(system + ": get of ordinal " + i + " answers wrongly");
                }
                if (get(misses[j]) != null) {
                    throw new IllegalStateException(system + ": a key between ordinals " + i + " and " + (i + 1) + " is found");
                }
                long next = i + 1;
                while (next < keys && history.expected(next) == null) {
                    next++;
                }
                byte[] found = seekKey(misses[j]);
                byte[] want = next < keys ? hitKey(next) : null;
                if (!Arrays.equals(want, found)) {
                    throw new IllegalStateException(system + ": seek past ordinal " + i + " lands wrongly");
                }
            }
            System.out.println(system + " check: " + OPS + " gets, misses and seeks match the history");
        }

        private byte[] get(byte[] k) throws RocksDBException {
            if (db != null) {
                return db.get(read, k);
            }
            Lookup r = version.get(k);
            return r.found() ? r.valueBytes() : null;
        }

        private byte[] seekKey(byte[] k) {
            if (db != null) {
                iterator.seek(k);
                return iterator.isValid() ? iterator.key() : null;
            }
            cursor.seek(k);
            return cursor.valid() ? cursor.keyBytes() : null;
        }

        @TearDown(Level.Trial)
        public void tearDown() throws IOException {
            if (cursor != null) {
                cursor.close();
            }
            if (version != null) {
                version.close();
            }
            if (tree != null) {
                tree.close();
            }
            if (iterator != null) {
                iterator.close();
            }
            if (read != null) {
                read.close();
            }
            if (db != null) {
                db.close();
            }
            if (options != null) {
                options.close();
                filter.close();
                cache.close();
            }
            Kv02Data.deleteTree(work);
        }
    }

    /** A get of a key the history wrote (a value, or a tombstone for the deleted 2%). */
    @Benchmark
    @OperationsPerInvocation(OPS)
    public long get(Data d) throws RocksDBException {
        return gets(d, d.hits);
    }

    /** A get of a key between two written keys: absent. */
    @Benchmark
    @OperationsPerInvocation(OPS)
    public long getMiss(Data d) throws RocksDBException {
        return gets(d, d.misses);
    }

    private static long gets(Data d, byte[][] keys) throws RocksDBException {
        long sum = 0;
        if (d.db != null) {
            for (byte[] k : keys) {
                sum += d.db.get(d.read, k, d.value);
            }
            return sum;
        }
        for (byte[] k : keys) {
            Lookup r = d.version.get(k);
            sum += r.found() ? r.value().get(ValueLayout.JAVA_BYTE, 0) : -1;
        }
        return sum;
    }

    /** A seek to a key between two written keys, reading the key and value it lands on. */
    @Benchmark
    @OperationsPerInvocation(OPS)
    public long seek(Data d) {
        long sum = 0;
        if (d.db != null) {
            RocksIterator it = d.iterator;
            for (byte[] k : d.misses) {
                it.seek(k);
                if (it.isValid()) {
                    sum += it.key()[15] + it.value()[0];
                }
            }
            return sum;
        }
        TreeCursor c = d.cursor;
        for (byte[] k : d.misses) {
            c.seek(k);
            if (c.valid()) {
                sum += c.key().get(ValueLayout.JAVA_BYTE, 15) + c.value().get(ValueLayout.JAVA_BYTE, 0);
            }
        }
        return sum;
    }
}

package dev.everett.bench;

import dev.everett.compaction.Layout;
import dev.everett.store.DBOptions;
import dev.everett.store.EverettDB;
import dev.everett.store.EverettIterator;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.CompressionType;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteOptions;

/**
 * db_bench-style workloads on the embedded store, both level layouts, beside RocksDB through
 * rocksdbjni in the same run: {@code keys} 16-byte keys (big-endian ordinal behind 8 × 'k') with
 * 100-byte values, loaded in random order, flushed and fully compacted before reads (RocksDB:
 * {@code compactRange()}). RocksDB: WAL on and unsynced, the same 64 MiB memtable, 10-bit Bloom
 * filters, a 512 MiB block cache (holds the data), no compression, leveled compaction; the store:
 * its defaults (10-bit key filters) with the layout under test.
 *
 * <ul>
 *   <li>{@code readrandom}: a get of a random existing key.</li>
 *   <li>{@code seekrandom}: a seek to a random existing key, then 10 {@code next}.</li>
 *   <li>{@code readseq}: one step of a forward scan (wrapping at the end).</li>
 *   <li>{@code overwrite}: a put of a random existing key (background flushes and compactions included).</li>
 * </ul>
 * Scores are operations per second.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g", "--enable-native-access=ALL-UNNAMED"})
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@State(Scope.Benchmark)
public class StoreBench {

    static {
        RocksDB.loadLibrary();
    }

    @Param({"PARTITIONED", "WHOLE_RUN", "ROCKSDB"})
    public String engine;

    @Param({"1000000"})
    public int keys;

    private Path dir;
    private EverettDB db;
    private RocksDB rocks;
    private Options rocksOptions;
    private WriteOptions rocksWrite;
    private EverettIterator scan;
    private RocksIterator rocksScan;
    private final SplittableRandom rnd = new SplittableRandom(42);
    private final byte[] value = new byte[100];

    static byte[] key(long i) {
        return ByteBuffer.allocate(16).putLong(0x6b6b6b6b6b6b6b6bL).putLong(i).array();
    }

    /**
     * The i-th key of a fixed random order: an odd multiplier and an offset mod the next power of
     * two is a bijection there; walking its cycle past values ≥ keys keeps it one on [0, keys).
     */
    private long permuted(long i) {
        long mask = (Long.highestOneBit(Math.max(1, keys - 1)) << 1) - 1;
        long x = i;
        do {
            x = (x * 0x9E3779B97F4A7C15L + 0x632BE59BD9B4E019L) & mask;
        } while (x >= keys);
        return x;
    }

    @Setup(Level.Trial)
    public void setUp() throws IOException, RocksDBException {
        dir = Files.createTempDirectory("store-bench");
        new SplittableRandom(7).nextBytes(value);
        if (engine.equals("ROCKSDB")) {
            rocksOptions = new Options().setCreateIfMissing(true).setWriteBufferSize(64L << 20)
                    .setCompressionType(CompressionType.NO_COMPRESSION)
                    .setTableFormatConfig(new BlockBasedTableConfig().setFilterPolicy(new BloomFilter(10))
                            .setBlockCache(new LRUCache(512L << 20)));
            rocksWrite = new WriteOptions();
            rocks = RocksDB.open(rocksOptions, dir.toString());
            for (long i = 0; i < keys; i++) {
                rocks.put(rocksWrite, key(permuted(i)), value);
            }
            rocks.compactRange();
            rocksScan = rocks.newIterator();
            rocksScan.seekToFirst();
        } else {
            db = EverettDB.open(dir, new DBOptions().setLevelLayout(Layout.valueOf(engine)));
            for (long i = 0; i < keys; i++) {
                db.put(key(permuted(i)), value);
            }
            db.compactRange();
            scan = db.newIterator();
            scan.seekToFirst();
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        if (rocks != null) {
            rocksScan.close();
            rocks.close();
            rocksOptions.close();
        } else {
            System.out.println(db.getProperty("everett.stats"));
            scan.close();
            db.close();
        }
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Benchmark
    public byte[] readrandom() throws RocksDBException {
        byte[] k = key(rnd.nextInt(keys));
        return rocks != null ? rocks.get(k) : db.get(k);
    }

    @Benchmark
    public void seekrandom(Blackhole bh) {
        byte[] k = key(rnd.nextInt(keys));
        if (rocks != null) {
            try (RocksIterator it = rocks.newIterator()) {
                it.seek(k);
                for (int i = 0; i < 10 && it.isValid(); i++) {
                    bh.consume(it.key());
                    bh.consume(it.value());
                    it.next();
                }
            }
        } else {
            try (EverettIterator it = db.newIterator()) {
                it.seek(k);
                for (int i = 0; i < 10 && it.isValid(); i++) {
                    bh.consume(it.key());
                    bh.consume(it.value());
                    it.next();
                }
            }
        }
    }

    @Benchmark
    public void readseq(Blackhole bh) {
        if (rocks != null) {
            if (!rocksScan.isValid()) {
                rocksScan.seekToFirst();
            }
            bh.consume(rocksScan.key());
            bh.consume(rocksScan.value());
            rocksScan.next();
        } else {
            if (!scan.isValid()) {
                scan.seekToFirst();
            }
            bh.consume(scan.key());
            bh.consume(scan.value());
            scan.next();
        }
    }

    @Benchmark
    public void overwrite() throws RocksDBException {
        byte[] k = key(rnd.nextInt(keys));
        if (rocks != null) {
            rocks.put(rocksWrite, k, value);
        } else {
            db.put(k, value);
        }
    }
}

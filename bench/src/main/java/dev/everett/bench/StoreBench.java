package dev.everett.bench;

import dev.everett.compaction.Layout;
import dev.everett.store.DBOptions;
import dev.everett.store.EverettDB;
import dev.everett.store.EverettIterator;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.CompactionStyle;
import org.rocksdb.CompressionType;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Statistics;
import org.rocksdb.TickerType;
import org.rocksdb.WriteOptions;

/**
 * db_bench's workloads on one engine (an Everett layout or RocksDB through rocksdbjni), in this
 * JVM only, so that the process's RSS and heap are that engine's: a timed harness, as db_bench is
 * (the fills are one-shot and do not fit JMH's repeated iterations). {@code bench/run-store.sh}
 * starts one JVM per engine and repeat and summarises them with {@code bench/summarize_store.py}.
 *
 * <p>Keys are 16 bytes (8 × 'k', then the ordinal big-endian), values 100 bytes. In order:
 * <ol>
 *   <li>JIT warm-up on a throwaway store of {@code --jit-warmup-keys} keys (not reported).</li>
 *   <li>{@code fillseq}: a fresh store, every key once in ascending order (then deleted).</li>
 *   <li>{@code fillrandom}: a fresh store, every key once in a random order (a permutation, so
 *       that every later read finds its key; db_bench draws with replacement).</li>
 *   <li>flush, full compaction ({@code compactRange}), then: write amplification of load plus
 *       compaction (bytes flushed and compacted per byte flushed), bytes on disk (the segment or
 *       SST files, and every file in the directory, whole-file bytes).</li>
 *   <li>{@code readrandom} (get of a random key, checked found), {@code seekrandom} (seek to a
 *       random key, then 10 {@code next}, each checked to be the next ordinal), {@code readseq}
 *       and {@code readreverse} (one step of a forward or backward scan, checked in order, wrapping
 *       at the ends): each for {@code --warmup} then {@code --seconds} seconds, ops/s of the latter.</li>
 *   <li>JVM heap used after a GC and process RSS ({@code VmRSS} of {@code /proc/self/status}).</li>
 *   <li>{@code readwhilewriting}: one writer overwriting random keys at {@code --write-rate} per
 *       second while {@code --readers} threads do readrandom; reader ops/s (and the writer's rate).</li>
 *   <li>{@code overwrite}: puts of random existing keys, timed (background work included).</li>
 *   <li>{@code deleterandom}: deletes of random keys (drawn with replacement, as db_bench's), timed.</li>
 * </ol>
 * Results: one JSON object to {@code --out}.
 *
 * <p>RocksDB: WAL on and unsynced, the same 64 MiB memtable (two of them), 10-bit Bloom filters,
 * an LRU block cache sized to hold the data, no compression, leveled compaction, two background
 * jobs; statistics on (for the flush and compaction byte counts). Everett: its defaults with the
 * layout under test.
 */
public final class StoreBench {

    static final int KEY_BYTES = 16;
    static final int VALUE_BYTES = 100;
    static final long MEMTABLE = 64L << 20;
    static final List<String> WORKLOADS = List.of("fillseq", "fillrandom", "readrandom", "seekrandom", "readseq", "readreverse",
            "readwhilewriting", "overwrite", "deleterandom");

    private final String engine;
    private final int keys;
    private final double seconds;
    private final double warmup;
    private final int writeRate;
    private final int readers;
    private final int jitWarmupKeys;
    private final Path base;
    /** The workloads to run ({@code --workloads a,b}; all by default); fillrandom and the full compaction always run, the reads need them. */
    private final Set<String> workloads;
    private final byte[] value = new byte[VALUE_BYTES];
    private final Map<String, Object> out = new LinkedHashMap<>();
    private final Map<String, Double> ops = new LinkedHashMap<>();

    private Store store;

    private StoreBench(Map<String, String> args) {
        this.engine = args.getOrDefault("engine", "PARTITIONED");
        this.keys = Integer.parseInt(args.getOrDefault("keys", "1000000"));
        this.seconds = Double.parseDouble(args.getOrDefault("seconds", "10"));
        this.warmup = Double.parseDouble(args.getOrDefault("warmup", "3"));
        this.writeRate = Integer.parseInt(args.getOrDefault("write-rate", "10000"));
        this.readers = Integer.parseInt(args.getOrDefault("readers", "1"));
        this.jitWarmupKeys = Integer.parseInt(args.getOrDefault("jit-warmup-keys", "200000"));
        this.base = Path.of(args.getOrDefault("dir", defaultDir()));
        this.workloads = Set.of(args.getOrDefault("workloads", String.join(",", WORKLOADS)).split(","));
        for (String w : workloads) {
            if (!WORKLOADS.contains(w)) {
                throw new IllegalArgumentException("--workloads: unknown workload " + w + "; expected some of " + WORKLOADS);
            }
        }
        new SplittableRandom(7).nextBytes(value);
    }

    private static String defaultDir() {
        return Files.isDirectory(Path.of("/dev/shm")) ? "/dev/shm" : System.getProperty("java.io.tmpdir");
    }

    public static void main(String[] argv) throws Exception {
        Map<String, String> args = new LinkedHashMap<>();
        for (int i = 0; i < argv.length; i++) {
            if (!argv[i].startsWith("--") || i + 1 >= argv.length) {
                throw new IllegalArgumentException("usage: StoreBench --engine PARTITIONED|WHOLE_RUN|ROCKSDB --keys N "
                        + "[--seconds S] [--warmup S] [--write-rate W] [--readers R] [--jit-warmup-keys N] [--dir D] [--workloads fillseq,readseq,...] --out FILE.json; got " + argv[i]);
            }
            args.put(argv[i].substring(2), argv[++i]);
        }
        if (!args.containsKey("out")) {
            throw new IllegalArgumentException("--out FILE.json is required");
        }
        StoreBench b = new StoreBench(args);
        b.run();
        Files.writeString(Path.of(args.get("out")), b.json() + "\n");
    }

    static byte[] key(long i) {
        return ByteBuffer.allocate(KEY_BYTES).putLong(0x6b6b6b6b6b6b6b6bL).putLong(i).array();
    }

    static long ordinal(byte[] key) {
        return ByteBuffer.wrap(key, 8, 8).getLong();
    }

    /** The i-th key of a fixed random order: an odd multiplier and an offset mod a power of two, cycle-walked into [0, keys). */
    private long permuted(long i, long salt) {
        long mask = (Long.highestOneBit(Math.max(1, keys - 1)) << 1) - 1;
        long x = i;
        do {
            x = (x * 0x9E3779B97F4A7C15L + salt) & mask;
        } while (x >= keys);
        return x;
    }

    private void run() throws Exception {
        out.put("engine", engine);
        out.put("keys", keys);
        out.put("key_bytes", KEY_BYTES);
        out.put("value_bytes", VALUE_BYTES);
        out.put("seconds", seconds);
        out.put("warmup", warmup);
        out.put("write_rate", writeRate);
        out.put("readers", readers);
        out.put("java", System.getProperty("java.version"));
        out.put("cores", Runtime.getRuntime().availableProcessors());
        warmJit();

        // fillseq: a store of its own.
        if (workloads.contains("fillseq")) {
            try (Store s = open("fillseq")) {
                long t = System.nanoTime();
                for (long i = 0; i < keys; i++) {
                    s.put(key(i), value);
                }
                record("fillseq", keys, System.nanoTime() - t);
            }
        }

        store = open("main");
        long t = System.nanoTime();
        for (long i = 0; i < keys; i++) {
            store.put(key(permuted(i, 0x632BE59BD9B4E019L)), value);
        }
        record("fillrandom", keys, System.nanoTime() - t);
        t = System.nanoTime();
        store.compactAll();
        out.put("full_compaction_seconds", (System.nanoTime() - t) / 1e9);
        out.put("write_amplification", store.writeAmplification());
        out.put("data_file_bytes", store.dataFileBytes());
        out.put("directory_bytes", directoryBytes(store.dir()));
        out.put("raw_bytes", (long) keys * (KEY_BYTES + VALUE_BYTES));

        if (workloads.contains("readrandom")) {
            readrandom("readrandom");
        }
        if (workloads.contains("seekrandom")) {
            seekrandom();
        }
        if (workloads.contains("readseq")) {
            scan("readseq", true);
        }
        if (workloads.contains("readreverse")) {
            scan("readreverse", false);
        }
        memory("after_reads");
        if (workloads.contains("readwhilewriting")) {
            readwhilewriting();
        }
        if (workloads.contains("overwrite")) {
            overwrite();
        }
        if (workloads.contains("deleterandom")) {
            deleterandom();
        }
        memory("at_end");
        store.close();
        out.put("ops_per_second", ops);
    }

    private Store open(String name) throws Exception {
        Path dir = base.resolve("store-bench-" + engine.toLowerCase(Locale.ROOT) + "-" + ProcessHandle.current().pid() + "-" + name);
        Kv02Data.deleteTree(dir);
        Files.createDirectories(dir);
        return engine.equals("ROCKSDB") ? new Rocks(dir, keys) : new Everett(dir, Layout.valueOf(engine));
    }

    private void record(String workload, long n, long nanos) {
        double rate = n / (nanos / 1e9);
        ops.put(workload, rate);
        System.out.printf(Locale.ROOT, "%-12s %-16s %,14.0f ops/s  (%,d ops in %.2f s)%n", engine, workload, rate, n, nanos / 1e9);
    }

    /** Runs {@code op} for the warm-up, then for the measured seconds; records ops/s of the latter. */
    private void timed(String workload, Op op) throws Exception {
        long end = System.nanoTime() + (long) (warmup * 1e9);
        while (System.nanoTime() < end) {
            for (int i = 0; i < 256; i++) {
                op.run();
            }
        }
        long n = 0;
        long start = System.nanoTime();
        end = start + (long) (seconds * 1e9);
        long now;
        do {
            for (int i = 0; i < 256; i++) {
                op.run();
            }
            n += 256;
            now = System.nanoTime();
        } while (now < end);
        record(workload, n, now - start);
    }

    interface Op {
        void run() throws Exception;
    }

    private void readrandom(String name) throws Exception {
        SplittableRandom rnd = new SplittableRandom(11);
        timed(name, () -> {
            long k = rnd.nextLong(keys);
            byte[] v = store.get(key(k));
            if (v == null || v.length != VALUE_BYTES) {
                throw new IllegalStateException(name + ": key " + k + " not found");
            }
        });
    }

    private void seekrandom() throws Exception {
        SplittableRandom rnd = new SplittableRandom(13);
        timed("seekrandom", () -> {
            long k = rnd.nextLong(keys);
            try (Cursor c = store.cursor()) {
                c.seek(key(k));
                for (int i = 0; i < 10 && k + i < keys; i++) {
                    if (!c.valid() || ordinal(c.key()) != k + i || c.value().length != VALUE_BYTES) {
                        throw new IllegalStateException("seekrandom: step " + i + " after seeking " + k + " is not key " + (k + i));
                    }
                    c.next();
                }
            }
        });
    }

    private void scan(String name, boolean forward) throws Exception {
        try (Cursor c = store.cursor()) {
            long[] expected = {forward ? keys : -1}; // forces a wrap-around seek at the first step
            timed(name, () -> {
                if (expected[0] == (forward ? keys : -1)) {
                    if (forward) {
                        c.seekToFirst();
                    } else {
                        c.seekToLast();
                    }
                    expected[0] = forward ? 0 : keys - 1;
                }
                if (!c.valid() || ordinal(c.key()) != expected[0] || c.value().length != VALUE_BYTES) {
                    throw new IllegalStateException(name + ": expected key " + expected[0]);
                }
                if (forward) {
                    c.next();
                    expected[0]++;
                } else {
                    c.prev();
                    expected[0]--;
                }
            });
        }
    }

    private void readwhilewriting() throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong written = new AtomicLong();
        AtomicLong readsDone = new AtomicLong();
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        long[] window = new long[2];
        Thread writer = Thread.ofPlatform().name("writer").start(() -> {
            SplittableRandom rnd = new SplittableRandom(17);
            long interval = 1_000_000_000L / Math.max(1, writeRate);
            long next = System.nanoTime();
            try {
                while (!stop.get()) {
                    store.put(key(rnd.nextLong(keys)), value);
                    written.incrementAndGet();
                    next += interval;
                    long wait = next - System.nanoTime();
                    if (wait > 0) {
                        LockSupport.parkNanos(wait);
                    }
                }
            } catch (Throwable e) {
                failures.add(e);
            }
        });
        List<Thread> threads = new ArrayList<>();
        AtomicBoolean measuring = new AtomicBoolean();
        for (int r = 0; r < readers; r++) {
            int id = r;
            threads.add(Thread.ofPlatform().name("reader-" + r).start(() -> {
                SplittableRandom rnd = new SplittableRandom(19 + id);
                try {
                    while (!stop.get()) {
                        for (int i = 0; i < 256; i++) {
                            long k = rnd.nextLong(keys);
                            byte[] v = store.get(key(k));
                            if (v == null || v.length != VALUE_BYTES) {
                                throw new IllegalStateException("readwhilewriting: key " + k + " not found");
                            }
                        }
                        if (measuring.get()) {
                            readsDone.addAndGet(256);
                        }
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }));
        }
        Thread.sleep((long) (warmup * 1000));
        long w0 = written.get();
        measuring.set(true);
        long start = System.nanoTime();
        Thread.sleep((long) (seconds * 1000));
        long nanos = System.nanoTime() - start;
        long reads = readsDone.get();
        window[0] = written.get() - w0;
        stop.set(true);
        writer.join();
        for (Thread th : threads) {
            th.join();
        }
        if (!failures.isEmpty()) {
            throw new IllegalStateException("readwhilewriting failed", failures.getFirst());
        }
        record("readwhilewriting", reads, nanos);
        out.put("readwhilewriting_writes_per_second", window[0] / (nanos / 1e9));
    }

    private void overwrite() throws Exception {
        SplittableRandom rnd = new SplittableRandom(23);
        timed("overwrite", () -> store.put(key(rnd.nextLong(keys)), value));
    }

    private void deleterandom() throws Exception {
        SplittableRandom rnd = new SplittableRandom(29);
        timed("deleterandom", () -> store.delete(key(rnd.nextLong(keys))));
    }

    /**
     * Warms the JIT on a throwaway store (a fill, gets, seeks and scans), as a long-running
     * process would be: without it the first workloads would time the JVM's compiler (RocksDB's
     * native code needs no warm-up, its JNI calls do).
     */
    private void warmJit() throws Exception {
        int n = Math.min(keys, jitWarmupKeys);
        if (n == 0) {
            return;
        }
        long t = System.nanoTime();
        try (Store s = open("jit-warmup")) {
            SplittableRandom rnd = new SplittableRandom(3);
            for (int round = 0; round < 2; round++) {
                for (long i = 0; i < n; i++) {
                    s.put(key(rnd.nextLong(n)), value);
                }
                s.compactAll();
                for (long i = 0; i < n; i++) {
                    s.get(key(rnd.nextLong(n)));
                }
                for (int i = 0; i < n / 10; i++) {
                    try (Cursor c = s.cursor()) {
                        c.seek(key(rnd.nextLong(n)));
                        for (int j = 0; j < 10 && c.valid(); j++) {
                            c.key();
                            c.value();
                            c.next();
                        }
                    }
                }
                try (Cursor c = s.cursor()) {
                    for (c.seekToFirst(); c.valid(); c.next()) {
                        c.key();
                        c.value();
                    }
                    for (c.seekToLast(); c.valid(); c.prev()) {
                        c.key();
                        c.value();
                    }
                }
            }
        }
        out.put("jit_warmup_seconds", (System.nanoTime() - t) / 1e9);
    }

    private void memory(String when) throws IOException {
        System.gc();
        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        long rss = -1;
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) {
                rss = Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
            }
        }
        out.put("heap_used_after_gc_" + when, heap);
        out.put("rss_" + when, rss);
        System.out.printf(Locale.ROOT, "%-12s memory %s: heap after GC %,d bytes, RSS %,d bytes%n", engine, when, heap, rss);
    }

    static long directoryBytes(Path dir) throws IOException {
        // Whole-run trees hard-link each native into their chain directory: count every file
        // (inode) once, as du does, or those natives would count twice.
        Set<Object> seen = new HashSet<>();
        long sum = 0;
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
                if (a.isRegularFile() && (a.fileKey() == null || seen.add(a.fileKey()))) {
                    sum += a.size();
                }
            }
        }
        return sum;
    }

    private String json() {
        StringBuilder b = new StringBuilder("{");
        boolean first = true;
        for (Map.Entry<String, Object> e : out.entrySet()) {
            b.append(first ? "" : ", ").append('"').append(e.getKey()).append("\": ");
            first = false;
            appendValue(b, e.getValue());
        }
        return b.append('}').toString();
    }

    private static void appendValue(StringBuilder b, Object v) {
        if (v instanceof Map<?, ?> m) {
            b.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                b.append(first ? "" : ", ").append('"').append(e.getKey()).append("\": ");
                first = false;
                appendValue(b, e.getValue());
            }
            b.append('}');
        } else if (v instanceof String s) {
            b.append('"').append(s.replace("\\", "\\\\").replace("\"", "\\\"")).append('"');
        } else if (v instanceof Double d) {
            b.append(String.format(Locale.ROOT, "%.6g", d));
        } else {
            b.append(v);
        }
    }

    // ------------------------------------------------------------------ the engines

    /** The calls the workloads make, on either engine. */
    interface Store extends AutoCloseable {
        void put(byte[] k, byte[] v) throws Exception;

        void delete(byte[] k) throws Exception;

        byte[] get(byte[] k) throws Exception;

        Cursor cursor();

        /** Flush, then compact everything into the bottom level (forced bottommost). */
        void compactAll() throws Exception;

        /** Bytes flushed and compacted per byte flushed, since open. */
        double writeAmplification();

        /** Whole-file bytes of the data files (segments or SSTs) of the current state. */
        long dataFileBytes() throws IOException;

        Path dir();

        @Override
        void close() throws IOException;
    }

    interface Cursor extends AutoCloseable {
        void seek(byte[] k);

        void seekToFirst();

        void seekToLast();

        boolean valid();

        byte[] key();

        byte[] value();

        void next();

        void prev();

        @Override
        void close();
    }

    static final class Everett implements Store {
        private static final Pattern FLUSHED = Pattern.compile("flushes: \\d+, \\d+ records, (\\d+) bytes");
        private static final Pattern COMPACTED = Pattern.compile("compactions: .*, (\\d+) bytes written");
        private final Path dir;
        private final EverettDB db;

        Everett(Path dir, Layout layout) {
            this.dir = dir;
            this.db = EverettDB.open(dir, new DBOptions().setLevelLayout(layout));
        }

        @Override
        public void put(byte[] k, byte[] v) {
            db.put(k, v);
        }

        @Override
        public void delete(byte[] k) {
            db.delete(k);
        }

        @Override
        public byte[] get(byte[] k) {
            return db.get(k);
        }

        @Override
        public Cursor cursor() {
            EverettIterator it = db.newIterator();
            return new Cursor() {
                public void seek(byte[] k) { it.seek(k); }
                public void seekToFirst() { it.seekToFirst(); }
                public void seekToLast() { it.seekToLast(); }
                public boolean valid() { return it.isValid(); }
                public byte[] key() { return it.key(); }
                public byte[] value() { return it.value(); }
                public void next() { it.next(); }
                public void prev() { it.prev(); }
                public void close() { it.close(); }
            };
        }

        @Override
        public void compactAll() {
            db.compactRange();
        }

        @Override
        public double writeAmplification() {
            String stats = db.getProperty("everett.stats");
            Matcher f = FLUSHED.matcher(stats);
            Matcher c = COMPACTED.matcher(stats);
            if (!f.find() || !c.find()) {
                throw new IllegalStateException("everett.stats has no flush or compaction byte counts:\n" + stats);
            }
            double flushed = Long.parseLong(f.group(1));
            return (flushed + Long.parseLong(c.group(1))) / flushed;
        }

        @Override
        public long dataFileBytes() {
            return Long.parseLong(db.getProperty("everett.total-segment-bytes"));
        }

        @Override
        public Path dir() {
            return dir;
        }

        @Override
        public void close() throws IOException {
            db.close();
            Kv02Data.deleteTree(dir);
        }
    }

    static final class Rocks implements Store {
        static {
            RocksDB.loadLibrary();
        }

        private final Path dir;
        private final Options options;
        private final Statistics statistics;
        private final LRUCache cache;
        private final WriteOptions write = new WriteOptions();
        private final RocksDB db;

        Rocks(Path dir, int keys) throws RocksDBException {
            this.dir = dir;
            // A block cache that holds the data: the raw bytes plus a half for block overhead and the index.
            long cacheBytes = Math.max(512L << 20, (long) keys * (KEY_BYTES + VALUE_BYTES) * 3 / 2);
            this.cache = new LRUCache(cacheBytes);
            this.statistics = new Statistics();
            this.options = new Options().setCreateIfMissing(true)
                    .setWriteBufferSize(MEMTABLE)
                    .setMaxWriteBufferNumber(2)
                    .setCompressionType(CompressionType.NO_COMPRESSION)
                    .setCompactionStyle(CompactionStyle.LEVEL)
                    .setMaxBackgroundJobs(2)
                    .setStatistics(statistics)
                    .setTableFormatConfig(new BlockBasedTableConfig().setFilterPolicy(new BloomFilter(10)).setBlockCache(cache));
            this.db = RocksDB.open(options, dir.toString());
        }

        @Override
        public void put(byte[] k, byte[] v) throws RocksDBException {
            db.put(write, k, v);
        }

        @Override
        public void delete(byte[] k) throws RocksDBException {
            db.delete(write, k);
        }

        @Override
        public byte[] get(byte[] k) throws RocksDBException {
            return db.get(k);
        }

        @Override
        public Cursor cursor() {
            RocksIterator it = db.newIterator();
            return new Cursor() {
                public void seek(byte[] k) { it.seek(k); }
                public void seekToFirst() { it.seekToFirst(); }
                public void seekToLast() { it.seekToLast(); }
                public boolean valid() { return it.isValid(); }
                public byte[] key() { return it.key(); }
                public byte[] value() { return it.value(); }
                public void next() { it.next(); }
                public void prev() { it.prev(); }
                public void close() { it.close(); }
            };
        }

        @Override
        public void compactAll() throws RocksDBException {
            try (org.rocksdb.FlushOptions f = new org.rocksdb.FlushOptions().setWaitForFlush(true);
                 org.rocksdb.CompactRangeOptions c = new org.rocksdb.CompactRangeOptions()
                         .setBottommostLevelCompaction(org.rocksdb.CompactRangeOptions.BottommostLevelCompaction.kForce)) {
                db.flush(f);
                db.compactRange(db.getDefaultColumnFamily(), null, null, c);
            }
        }

        @Override
        public double writeAmplification() {
            double flushed = statistics.getTickerCount(TickerType.FLUSH_WRITE_BYTES);
            return (flushed + statistics.getTickerCount(TickerType.COMPACT_WRITE_BYTES)) / flushed;
        }

        @Override
        public long dataFileBytes() throws IOException {
            try (Stream<Path> s = Files.list(dir)) {
                long sum = 0;
                for (Path p : s.filter(p -> p.getFileName().toString().endsWith(".sst")).toList()) {
                    sum += Files.size(p);
                }
                return sum;
            }
        }

        @Override
        public Path dir() {
            return dir;
        }

        @Override
        public void close() throws IOException {
            db.close();
            options.close();
            statistics.close();
            cache.close();
            write.close();
            Kv02Data.deleteTree(dir);
        }
    }
}

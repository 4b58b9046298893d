package dev.everett.bench;

import dev.everett.api.CatalogRef;
import dev.everett.api.Chain;
import dev.everett.api.CommonWidthRule;
import dev.everett.api.FilterPolicy;
import dev.everett.api.ObjectStoreOptions;
import dev.everett.api.Lookup;
import dev.everett.api.ObjectId;
import dev.everett.api.Policy;
import dev.everett.api.SegmentEngine;
import dev.everett.api.ObjectStore;
import dev.everett.api.SegmentFormat;
import dev.everett.api.SegmentWriter;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.CompressionType;
import org.rocksdb.EnvOptions;
import org.rocksdb.IngestExternalFileOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.LiveFileMetaData;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.SstFileWriter;

/**
 * Everett's lookup fixture (docs/benchmarks/lookup.md, "Fixture and settings") for the "IX03
 * lookups" benchmarks, built through the public API only, and the same five runs as a RocksDB
 * database.
 *
 * <p><b>Generator</b> (Everett's, byte for byte):
 * <ul>
 *   <li>{@code mix(x)}: {@code x += 0x9e3779b97f4a7c15}, then the SplitMix64 finaliser.</li>
 *   <li>{@code key(o, width, hash)}: {@code width} bytes of {@code 'p'}; if hash-like, for each
 *       chunk start {@code c = 0, 8, 16, … < width} the 8 bytes of
 *       {@code mix(o + c·0xa0761d6478bd642f)} little-endian (truncated at the width); finally the
 *       last 8 bytes are overwritten with {@code o} big-endian. Structured 16 B =
 *       {@code 'p'×8 ∥ BE64(o)}; hash 128 B = 15 mixed words then {@code BE64(o)}.</li>
 *   <li>{@code value(o)}: 32 bytes of {@code 'v'} whose first 8 bytes are {@code o}
 *       little-endian. Everett stores it through the optional grammar ({@code 01} then the 32
 *       bytes: 33 bytes); RocksDB stores the 32 bytes.</li>
 *   <li>Record i, for {@code i in [0, N)}: {@code (key(2i), value(i))}. Run s ∈ {1, 4, 16, 64}
 *       holds the records with {@code i % s == 0}; the secondary run those with
 *       {@code i % 128 == 0}. Each run is sorted by unsigned-byte key order.</li>
 *   <li>Queries, for {@code j in [0, Q = 4096)}: {@code o = mix(j + 917) mod N}; hit =
 *       {@code key(2o)} (answer {@code value(o)}), miss = {@code key(2o + 1)} (absent), mixed[j] =
 *       miss if j is odd else hit.</li>
 *   <li>Digest of an answer: {@code mix(LE64(value[0..8)))} for a value,
 *       {@code 0x5be0cd19137e2179} for absent. Independent order takes query {@code j mod Q};
 *       dependent order takes {@code (j + prevDigest) mod Q} (unsigned), {@code prevDigest}
 *       starting at 0. A trial is 8,192 lookups; its checksum (the sum of digests) is checked
 *       against an oracle that runs the same recurrence on the generator alone.</li>
 * </ul>
 *
 * <p><b>Everett chain</b> (Everett's per-file size model), oldest/deepest first, in one of two {@link Profile}s:
 * byte = {@link Policy#defaultBytes()} (KV02 natives), bit = {@link Policy#stringPolicy()} (KV03
 * natives); both K = W = 15 with optional values, written under {@link CommonWidthRule#policy()}:
 * <pre>
 * c1 = index(run1)                       // terminal
 * c4 = index(run4,  main = c1)
 * c16 = index(run16, main = c4, secondary = run128)
 * c64 = index(run64, main = c16)
 * head = prepareHead(c64, null)          // empty-native routing catalogs until V ≤ K
 * </pre>
 *
 * <p><b>RocksDB</b>: each run is written with {@code SstFileWriter} and ingested with
 * {@code ingestExternalFile} one at a time, oldest to newest in the chain's precedence (run1,
 * run4, run128, run16, run64), into a database with automatic compactions disabled. Each
 * ingested file overlaps everything before it, so RocksDB (with static level sizing,
 * {@code level_compaction_dynamic_level_bytes = false}) places it one level above the last:
 * five SST files on five levels (L6 … L2), which every get consults newest first, as the cascade
 * does. Table: {@code BlockBasedTableConfig} defaults (4 KiB blocks, format version 7) with a
 * 10 bits/key Bloom filter (full filter) and a 256 MiB LRU block cache (the whole data set is
 * at most ~40 MB); index and filter blocks are held by the table readers (the default), no
 * compression anywhere, default {@code ReadOptions}.
 */
public final class LookupData {
    /** Resident query list (byte_lookup_compare). */
    public static final int Q = 4096;
    /** Lookups per trial (byte_lookup_compare): two passes over the query list. */
    public static final int TRIAL = 8192;
    public static final int VALUE_BYTES = 32;
    public static final long ABSENT_DIGEST = 0x5be0cd19137e2179L;
    /** Run strides, in chain order oldest first; 128 is the secondary. */
    public static final int[] STRIDES = {1, 4, 16, 64};
    public static final int SECONDARY_STRIDE = 128;
    /** RocksDB's block cache capacity. */
    public static final long BLOCK_CACHE_BYTES = 256L << 20;

    private static final long GOLDEN = 0x9e3779b97f4a7c15L;
    private static final long CHUNK = 0xa0761d6478bd642fL;
    private static final VarHandle BE_LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle LE_LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfLong LE_LONG_SEGMENT = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private LookupData() {
    }

    /** Key shapes of the fixture. */
    public enum KeyShape {
        /** 16 bytes: {@code 'p'×8 ∥ BE64(o)}. */
        STRUCT16(16, false),
        /** 128 bytes: 15 little-endian {@code mix} words then {@code BE64(o)}. */
        HASH128(128, true);

        public final int width;
        public final boolean hash;

        KeyShape(int width, boolean hash) {
            this.width = width;
            this.hash = hash;
        }

        public static KeyShape of(String name) {
            return switch (name) {
                case "struct16" -> STRUCT16;
                case "hash128" -> HASH128;
                default -> throw new IllegalArgumentException("keys must be struct16 or hash128, got " + name);
            };
        }
    }

    /** Query sets of the fixture. */
    public enum QueryKind { HIT, MISS, MIXED }

    public static QueryKind queryKind(String name) {
        return switch (name) {
            case "hit" -> QueryKind.HIT;
            case "miss" -> QueryKind.MISS;
            case "mixed" -> QueryKind.MIXED;
            default -> throw new IllegalArgumentException("queries must be hit, miss or mixed, got " + name);
        };
    }

    /** {@code x += golden gamma}, then the SplitMix64 finaliser. */
    public static long mix(long x) {
        long z = x + GOLDEN;
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    /** The fixture's {@code key(o, width, hash)}. */
    public static byte[] key(long o, KeyShape shape) {
        byte[] k = new byte[shape.width];
        Arrays.fill(k, (byte) 'p');
        if (shape.hash) {
            for (int c = 0; c < shape.width; c += 8) {
                long w = mix(o + c * CHUNK);
                for (int b = 0; b < 8 && c + b < shape.width; b++) {
                    k[c + b] = (byte) (w >>> (8 * b));
                }
            }
        }
        BE_LONG.set(k, shape.width - 8, o);
        return k;
    }

    /** The fixture's {@code value(o)}: 32 × 'v' with the first 8 bytes = o little-endian. */
    public static byte[] value(long o) {
        byte[] v = new byte[VALUE_BYTES];
        Arrays.fill(v, (byte) 'v');
        LE_LONG.set(v, 0, o);
        return v;
    }

    /** Writes {@code value(o)} into {@code v} (32 bytes already holding 'v' after byte 8). */
    public static void valueInto(byte[] v, long o) {
        LE_LONG.set(v, 0, o);
    }

    /** The digest of a found value: mix of its first 8 bytes little-endian. */
    public static long digest(MemorySegment value) {
        return mix(value.get(LE_LONG_SEGMENT, 0));
    }

    /** The digest of a found value held in {@code v[0 ..)}. */
    public static long digest(byte[] v) {
        return mix((long) LE_LONG.get(v, 0));
    }

    /** The digest of an Everett answer. */
    public static long digest(Lookup r) {
        return r.found() ? digest(r.value()) : ABSENT_DIGEST;
    }

    /** The query list: key bytes and the digest the oracle expects for each. */
    public record Queries(byte[][] keys, long[] expected) {
        /** The checksum of one trial, by the same recurrence the benchmark runs. */
        public long trialChecksum(boolean dependent) {
            long sum = 0;
            long prev = 0;
            for (int j = 0; j < TRIAL; j++) {
                int idx = dependent ? (int) ((j + prev) & (Q - 1)) : j & (Q - 1);
                prev = expected[idx];
                sum += prev;
            }
            return sum;
        }
    }

    /** The fixture's queries for {@code j in [0, Q)}. */
    public static Queries queries(int n, KeyShape shape, QueryKind kind) {
        byte[][] keys = new byte[Q][];
        long[] expected = new long[Q];
        for (int j = 0; j < Q; j++) {
            long o = Long.remainderUnsigned(mix(j + 917L), n);
            boolean miss = kind == QueryKind.MISS || (kind == QueryKind.MIXED && (j & 1) == 1);
            keys[j] = key(miss ? 2 * o + 1 : 2 * o, shape);
            expected[j] = miss ? ABSENT_DIGEST : mix(o);
        }
        return new Queries(keys, expected);
    }

    /** Every record {@code i in [0, n)} sorted by key: the ordinals in key order, and the keys by ordinal. */
    public record Records(int n, KeyShape shape, byte[][] keys, int[] sortedOrdinals) {
        /** The ordinals of run {@code stride}, in key order. */
        public int[] run(int stride) {
            return Arrays.stream(sortedOrdinals).filter(i -> i % stride == 0).toArray();
        }
    }

    public static Records records(int n, KeyShape shape) {
        byte[][] keys = new byte[n][];
        for (int i = 0; i < n; i++) {
            keys[i] = key(2L * i, shape);
        }
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Arrays.compareUnsigned(keys[a], keys[b]));
        int[] sorted = new int[n];
        for (int i = 0; i < n; i++) {
            sorted[i] = order[i];
        }
        return new Records(n, shape, keys, sorted);
    }

    /**
     * A fresh working directory: under {@code dir} if it names one, else under /dev/shm when
     * present, else under {@code java.io.tmpdir} (as {@link Kv02Data#workDir}, without loading
     * RocksDB's native library into Everett's forks).
     */
    public static Path workDir(String dir, String prefix) throws IOException {
        Path base;
        if (dir != null && !dir.isBlank() && !dir.equals("auto")) {
            base = Path.of(dir);
        } else if (Files.isDirectory(Path.of("/dev/shm")) && Files.isWritable(Path.of("/dev/shm"))) {
            base = Path.of("/dev/shm");
        } else {
            base = Path.of(System.getProperty("java.io.tmpdir"));
        }
        Files.createDirectories(base);
        return Files.createTempDirectory(base, prefix);
    }

    /** Deletes a work directory and everything in it. */
    public static void deleteTree(Path dir) throws IOException {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    // ------------------------------------------------------------------------------------------
    // Everett

    /** One built chain: the open store, its prepared chain and the catalogs named on the way. */
    public record EverettFixture(ObjectStore store, Chain chain, List<CatalogRef> catalogs, ObjectId secondary,
                                 CatalogRef head) implements AutoCloseable {
        @Override
        public void close() {
            store.close();
        }
    }

    /** The byte profile's policy, {@link Policy#defaultBytes()} (also the single-segment fixture's). */
    public static Policy policy() {
        return Profile.BYTE.policy;
    }

    /**
     * The fixture's Everett profiles: "byte" = KV02 + IX03 under {@link Policy#defaultBytes()},
     * "bit" = KV03 + IX03 under {@link Policy#stringPolicy()} (bit unit, K = W = 15, EG0
     * backspaces, optional values), "kv02bit" = the same string policy written as KV02 in bit
     * units (keys in Everett's ordered string form). Same records, same chain, same queries.
     */
    public enum Profile {
        BYTE("byte", Policy.defaultBytes()),
        BIT("bit", Policy.stringPolicy()),
        KV02BIT("kv02bit", Policy.stringPolicy().withFormat(SegmentFormat.KV02));

        public final String label;
        public final Policy policy;

        Profile(String label, Policy policy) {
            this.label = label;
            this.policy = policy;
        }

        public static Profile of(String name) {
            return switch (name) {
                case "byte" -> BYTE;
                case "bit" -> BIT;
                case "kv02bit" -> KV02BIT;
                default -> throw new IllegalArgumentException("profile must be byte, bit or kv02bit, got " + name);
            };
        }
    }

    private static ObjectId writeRun(ObjectStore store, Records r, int stride) throws IOException {
        ObjectId id = ObjectId.random();
        try (SegmentWriter w = store.newSegment(id, CommonWidthRule.policy())) {
            for (int i : r.run(stride)) {
                w.put(r.keys[i], value(i));
            }
            w.finish();
        }
        return id;
    }

    /** Builds the fixture's chain in {@code profile} under {@code root} (a fresh directory) and opens it. */
    public static EverettFixture buildEverett(Path root, Records r, Profile profile) throws IOException {
        return buildEverett(root, r, profile, FilterPolicy.none());
    }

    /**
     * As {@link #buildEverett(Path, Records, Profile)}, in a store that keeps key filters as
     * {@code filters} says (a {@code .filter} beside each non-empty native; the chain asks them
     * before the cascade).
     */
    public static EverettFixture buildEverett(Path root, Records r, Profile profile, FilterPolicy filters) throws IOException {
        return buildEverett(root, r, profile, ObjectStoreOptions.defaults().withFilters(filters));
    }

    /**
     * As {@link #buildEverett(Path, Records, Profile)}, in a store opened with {@code options}
     * (key filters, routing cache).
     */
    public static EverettFixture buildEverett(Path root, Records r, Profile profile, ObjectStoreOptions options) throws IOException {
        ObjectStore store = SegmentEngine.load().openObjectStore(root, profile.policy, options);
        try {
            List<CatalogRef> catalogs = new ArrayList<>();
            ObjectId run1 = writeRun(store, r, 1);
            CatalogRef c = store.index(run1, null, null);
            catalogs.add(c);
            ObjectId run4 = writeRun(store, r, 4);
            c = store.index(run4, c, null);
            catalogs.add(c);
            ObjectId run16 = writeRun(store, r, 16);
            ObjectId run128 = writeRun(store, r, SECONDARY_STRIDE);
            c = store.index(run16, c, run128);
            catalogs.add(c);
            ObjectId run64 = writeRun(store, r, 64);
            c = store.index(run64, c, null);
            catalogs.add(c);
            CatalogRef head = store.prepareHead(c, null);
            Chain chain = store.openChain(head);
            return new EverettFixture(store, chain, catalogs, run128, head);
        } catch (IOException | RuntimeException e) {
            store.close();
            throw e;
        }
    }

    /** A file of a fixture, for the size report. */
    public record FileSize(String name, String kind, long bytes) {
    }

    /**
     * Every {@code .kv}, {@code .index} and {@code .filter} under the store root (the store holds exactly one
     * chain; the API has no walk over a chain's catalogs, so the directory is the list).
     */
    public static List<FileSize> everettFiles(Path root) throws IOException {
        List<FileSize> out = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.filter(Files::isRegularFile).sorted().toList()) {
                String name = root.relativize(p).toString();
                String kind = name.endsWith(".kv") ? "kv" : name.endsWith(".index") ? "index" : name.endsWith(".filter") ? "filter" : "other";
                out.add(new FileSize(name, kind, Files.size(p)));
            }
        }
        return out;
    }

    // ------------------------------------------------------------------------------------------
    // RocksDB

    /** An open RocksDB database holding the five runs, and everything to close with it. */
    public static final class RocksFixture implements AutoCloseable {
        public final RocksDB db;
        public final ReadOptions readOptions;
        public final Path dir;
        private final Options options;
        private final LRUCache cache;
        private final BloomFilter filter;

        RocksFixture(RocksDB db, ReadOptions readOptions, Path dir, Options options, LRUCache cache, BloomFilter filter) {
            this.db = db;
            this.readOptions = readOptions;
            this.dir = dir;
            this.options = options;
            this.cache = cache;
            this.filter = filter;
        }

        public long blockCacheUsage() throws RocksDBException {
            return db.getLongProperty("rocksdb.block-cache-usage");
        }

        /** The live SST files with their levels. */
        public List<LiveFileMetaData> sstFiles() {
            List<LiveFileMetaData> files = new ArrayList<>(db.getLiveFilesMetaData());
            files.sort(Comparator.comparingInt(LiveFileMetaData::level).reversed());
            return files;
        }

        /** "L6:1,L5:1,…": files per level. */
        public String levels() {
            StringBuilder sb = new StringBuilder();
            for (LiveFileMetaData f : sstFiles()) {
                if (!sb.isEmpty()) {
                    sb.append(',');
                }
                sb.append('L').append(f.level()).append(':').append(f.size());
            }
            return sb.toString();
        }

        @Override
        public void close() {
            readOptions.close();
            db.close();
            options.close();
            cache.close();
            filter.close();
        }
    }

    /** Database and table options (see the class comment). */
    static Options rocksOptions(LRUCache cache, BloomFilter filter) {
        BlockBasedTableConfig table = new BlockBasedTableConfig()
                .setBlockCache(cache)
                .setFilterPolicy(filter);
        return new Options()
                .setCreateIfMissing(true)
                .setDisableAutoCompactions(true)
                // Static level sizes: each overlapping ingested file goes one level up (L6, L5,
                // …, L2). With the default dynamic sizing the empty middle levels are unused and
                // files 2–5 would all land in L0.
                .setLevelCompactionDynamicLevelBytes(false)
                .setCompressionType(CompressionType.NO_COMPRESSION)
                .setBottommostCompressionType(CompressionType.NO_COMPRESSION)
                .setTableFormatConfig(table);
    }

    /** Order of ingestion, oldest first: the chain's precedence read bottom-up. */
    static final int[] INGEST_ORDER = {1, 4, SECONDARY_STRIDE, 16, 64};

    /** Builds the RocksDB side under {@code dir} (a fresh directory) and opens it. */
    public static RocksFixture buildRocks(Path dir, Records r) throws IOException, RocksDBException {
        RocksDB.loadLibrary();
        LRUCache cache = new LRUCache(BLOCK_CACHE_BYTES);
        BloomFilter filter = new BloomFilter(10, false);
        Options options = rocksOptions(cache, filter);
        Path staging = dir.resolve("staging");
        Path dbDir = dir.resolve("db");
        Files.createDirectories(staging);
        RocksDB db = null;
        try {
            db = RocksDB.open(options, dbDir.toString());
            try (EnvOptions env = new EnvOptions(); IngestExternalFileOptions ingest = new IngestExternalFileOptions()) {
                ingest.setMoveFiles(true);
                for (int stride : INGEST_ORDER) {
                    Path sst = staging.resolve("run" + stride + ".sst");
                    try (SstFileWriter w = new SstFileWriter(env, options)) {
                        w.open(sst.toString());
                        for (int i : r.run(stride)) {
                            w.put(r.keys[i], value(i));
                        }
                        w.finish();
                    }
                    db.ingestExternalFile(List.of(sst.toString()), ingest);
                }
            }
            RocksFixture f = new RocksFixture(db, new ReadOptions(), dbDir, options, cache, filter);
            if (f.sstFiles().stream().mapToInt(LiveFileMetaData::level).distinct().count() != INGEST_ORDER.length) {
                throw new IllegalStateException("expected " + INGEST_ORDER.length + " SST files on distinct levels, got " + f.levels());
            }
            return f;
        } catch (RocksDBException | RuntimeException e) {
            if (db != null) {
                db.close();
            }
            options.close();
            cache.close();
            filter.close();
            throw e;
        }
    }

    /** Every file of the database directory, SSTs marked as such. */
    public static List<FileSize> rocksFiles(Path dbDir) throws IOException {
        List<FileSize> out = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(dbDir)) {
            for (Path p : walk.filter(Files::isRegularFile).sorted().toList()) {
                String name = dbDir.relativize(p).toString();
                out.add(new FileSize(name, name.endsWith(".sst") ? "sst" : "other", Files.size(p)));
            }
        }
        return out;
    }

    // ------------------------------------------------------------------------------------------
    // Checks shared by the benchmarks and the size report

    /** Checks every query's answer against the oracle, one by one. */
    public static void checkEverett(Chain chain, Queries q) {
        for (int j = 0; j < Q; j++) {
            long d = digest(chain.get(q.keys()[j]));
            if (d != q.expected()[j]) {
                throw new IllegalStateException("Everett: query " + j + " gave digest " + Long.toHexString(d)
                        + ", oracle " + Long.toHexString(q.expected()[j]));
            }
        }
    }

    /** Checks every query's answer against the oracle, one by one. */
    public static void checkRocks(RocksFixture f, Queries q) throws RocksDBException {
        byte[] v = new byte[VALUE_BYTES];
        for (int j = 0; j < Q; j++) {
            int len = f.db.get(f.readOptions, q.keys()[j], v);
            long d = len == RocksDB.NOT_FOUND ? ABSENT_DIGEST : digest(v);
            if (d != q.expected()[j] || (len != RocksDB.NOT_FOUND && len != VALUE_BYTES)) {
                throw new IllegalStateException("RocksDB: query " + j + " gave digest " + Long.toHexString(d)
                        + " (length " + len + "), oracle " + Long.toHexString(q.expected()[j]));
            }
        }
    }

    /**
     * Looks up every record's key (must give its value) and every key between records,
     * {@code key(2i + 1)} (must be absent). Used by {@link LookupSizeReport}, outside the benchmarks.
     */
    public static void verifyEverett(Chain chain, Records r) {
        for (int i = 0; i < r.n(); i++) {
            Lookup l = chain.get(r.keys()[i]);
            if (!l.found() || l.value().byteSize() != VALUE_BYTES || digest(l) != mix(i)) {
                throw new IllegalStateException("Everett: record " + i + " not found intact: " + l.status());
            }
            Lookup m = chain.get(key(2L * i + 1, r.shape()));
            if (m.status() != Lookup.Status.ABSENT) {
                throw new IllegalStateException("Everett: key(2·" + i + " + 1) gave " + m.status());
            }
        }
    }

    /** The same check on the RocksDB side. */
    public static void verifyRocks(RocksFixture f, Records r) throws RocksDBException {
        byte[] v = new byte[VALUE_BYTES];
        for (int i = 0; i < r.n(); i++) {
            int len = f.db.get(f.readOptions, r.keys()[i], v);
            if (len != VALUE_BYTES || digest(v) != mix(i)) {
                throw new IllegalStateException("RocksDB: record " + i + " not found intact (length " + len + ")");
            }
            if (f.db.get(f.readOptions, key(2L * i + 1, r.shape()), v) != RocksDB.NOT_FOUND) {
                throw new IllegalStateException("RocksDB: key(2·" + i + " + 1) found");
            }
        }
    }

    /**
     * Fills the block cache: a full scan of the database (a merging iterator over every level
     * reads every data block of every SST through the cache, once).
     */
    public static void warmRocks(RocksFixture f, Records r) throws RocksDBException {
        long seen = 0;
        try (org.rocksdb.RocksIterator it = f.db.newIterator(f.readOptions)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                seen++;
            }
            it.status();
        }
        if (seen != r.n()) {
            throw new IllegalStateException("RocksDB: scan saw " + seen + " distinct keys, expected " + r.n());
        }
    }
}

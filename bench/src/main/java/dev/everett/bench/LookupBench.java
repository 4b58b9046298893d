package dev.everett.bench;

import dev.everett.api.Chain;
import dev.everett.api.FilterPolicy;
import dev.everett.api.Lookup;
import dev.everett.api.ObjectStoreOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
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
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * Issue "IX03 lookups": point lookups on Everett's lookup fixture (docs/benchmarks/lookup.md, "Fixture and settings"; see
 * {@link LookupData} for the generator, the chain and the RocksDB database), Everett's prepared
 * cascade ({@link Chain#get}) against RocksDB {@code get} on the same five runs, in the same JMH
 * run.
 *
 * <p>One invocation is one fixture trial: 8,192 lookups over the resident list of Q = 4,096 query
 * keys, in independent order ({@code j mod Q}) or dependent order ({@code (j + prevDigest) mod Q},
 * so each lookup's key depends on the previous answer and lookups cannot overlap). Scores are
 * µs per lookup ({@code @OperationsPerInvocation(8192)}). Each lookup's answer is reduced to its
 * digest (for a value: SplitMix64 of its first 8 bytes read little-endian in place), and every
 * invocation checks the trial's checksum against the oracle, so a wrong answer fails the run.
 *
 * <p>Everett runs in both of the fixture's profiles ({@link LookupData.Profile}): {@code everett} is the
 * byte profile (KV02 + IX03, {@code Policy.defaultBytes()}) in both orders, {@code everettBit} the
 * bit profile (KV03 + IX03, {@code Policy.stringPolicy()}) in independent order, the order of
 * Everett's published byte-vs-bit figures. Both run the same trial code on the same records and
 * queries; RocksDB runs once per configuration, not once per profile.
 *
 * <p>Everett: {@code chain.get(key)} returns a {@link Lookup} whose value is a view of the mapping
 * (no copy). RocksDB: {@code db.get(readOptions, key, value)} into a reused 32-byte array (its
 * non-allocating {@code byte[]} path; JNI copies the value out).
 *
 * <p>Each fork builds only the side it measures, in its trial set-up, under /dev/shm (param
 * {@code dir}), then warms it: RocksDB scans the whole database once, so every data block of
 * every level is in the block cache (which holds it all); both sides then check every query one
 * by one against the oracle. The files are freshly written to tmpfs, so Everett's mappings are
 * backed by the page cache; JMH's warm-up iterations touch everything the queries need. (Every
 * record and every between-records key is checked on both sides by {@link LookupSizeReport}.)
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 3, jvmArgsAppend = {"-Xms4g", "-Xmx4g", "--enable-native-access=ALL-UNNAMED"})
@Warmup(iterations = 4, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 3, time = 1)
public class LookupBench {
    private static final int MASK = LookupData.Q - 1;

    /** The parameters and the query list, shared by both sides. */
    @State(Scope.Benchmark)
    public abstract static class Fixture {
        @Param({"8192", "131072"})
        public int n;

        /** struct16: 'p'×8 ∥ BE64(o); hash128: 15 mixed LE words ∥ BE64(o). */
        @Param({"struct16", "hash128"})
        public String keys;

        /** hit, miss, or mixed (miss at odd j). */
        @Param({"hit", "miss", "mixed"})
        public String queries;

        /** Where to build: a directory, or "auto" for /dev/shm (else java.io.tmpdir). */
        @Param({"auto"})
        public String dir;

        Path work;
        LookupData.Records records;
        byte[][] queryKeys;
        boolean dependent;
        long expectedChecksum;

        /**
         * independent: query j mod Q; dependent: (j + previous digest) mod Q. A parameter of each
         * concrete state, because the bit profile runs independent order only.
         */
        abstract String order();

        void prepare(String side) throws IOException {
            LookupData.KeyShape shape = LookupData.KeyShape.of(keys);
            dependent = switch (order()) {
                case "independent" -> false;
                case "dependent" -> true;
                default -> throw new IllegalArgumentException("order must be independent or dependent, got " + order());
            };
            work = LookupData.workDir(dir, "everett-lookup-" + side + "-");
            records = LookupData.records(n, shape);
            LookupData.Queries q = LookupData.queries(n, shape, LookupData.queryKind(queries));
            queryKeys = q.keys();
            expectedChecksum = q.trialChecksum(dependent);
        }

        LookupData.Queries queryList() {
            return LookupData.queries(n, LookupData.KeyShape.of(keys), LookupData.queryKind(queries));
        }

        long check(long sum) {
            if (sum != expectedChecksum) {
                throw new IllegalStateException("trial checksum " + Long.toHexString(sum) + ", oracle " + Long.toHexString(expectedChecksum));
            }
            return sum;
        }
    }

    /** Everett's side in one profile: builds and opens the chain. */
    public abstract static class EverettSide extends Fixture {
        LookupData.EverettFixture fixture;
        Chain chain;

        /** byte (KV02 + IX03) or bit (KV03 + IX03), see {@link LookupData.Profile}. */
        abstract String profile();

        /** Key filters beside the natives: none for Everett's own layout. */
        FilterPolicy filters() {
            return FilterPolicy.none();
        }

        /** The chain's routing cache ({@link ObjectStoreOptions}): the default, unless a state says otherwise. */
        long routingCacheBytes() {
            return ObjectStoreOptions.DEFAULT_ROUTING_CACHE_BYTES;
        }

        @Setup(Level.Trial)
        public void setUp() throws IOException {
            LookupData.Profile p = LookupData.Profile.of(profile());
            prepare("everett-" + p.label);
            long t0 = System.nanoTime();
            fixture = LookupData.buildEverett(work.resolve("store"), records, p,
                    ObjectStoreOptions.defaults().withFilters(filters()).withRoutingCacheBytes(routingCacheBytes()));
            long t1 = System.nanoTime();
            chain = fixture.chain();
            if (chain.filtered() != filters().enabled()) {
                throw new IllegalStateException("chain filtered = " + chain.filtered() + " under " + filters());
            }
            LookupData.checkEverett(chain, queryList());
            long t2 = System.nanoTime();
            var files = LookupData.everettFiles(work.resolve("store"));
            long bytes = files.stream().mapToLong(LookupData.FileSize::bytes).sum();
            System.out.printf(Locale.ROOT, "%n[everett %s%s, routing cache %d bytes] N=%d %s: %d bytes in %d files; build %.2f s, query check %.2f s%n",
                    p.label, filters().enabled() ? ", filters " + filters().bitsPerKey() + " bits/key" : "", routingCacheBytes(), n, keys, bytes, files.size(),
                    (t1 - t0) / 1e9, (t2 - t1) / 1e9);
            records = null;
        }

        @TearDown(Level.Trial)
        public void tearDown() throws IOException {
            fixture.close();
            LookupData.deleteTree(work);
        }
    }

    /** The byte profile in both orders: the full fixture matrix beside RocksDB. */
    @State(Scope.Benchmark)
    public static class EverettState extends EverettSide {
        /** Override with {@code -p profile=bit} to run the bit profile through the full matrix. */
        @Param({"byte"})
        public String profile;

        @Param({"independent", "dependent"})
        public String order;

        @Override
        String profile() {
            return profile;
        }

        @Override
        String order() {
            return order;
        }
    }

    /**
     * The bit profile, independent order only: Everett's published byte-vs-bit figures are
     * independent hits, and the dependent rows would add a fifth of the run time for no published
     * counterpart.
     */
    @State(Scope.Benchmark)
    public static class EverettBitState extends EverettSide {
        @Param({"bit"})
        public String profile;

        @Param({"independent"})
        public String order;

        @Override
        String profile() {
            return profile;
        }

        @Override
        String order() {
            return order;
        }
    }

    /**
     * The byte profile with key filters ({@link FilterPolicy#bloom}, ten bits per key as RocksDB's
     * Bloom filter here): a blocked Bloom filter beside each native, asked before the cascade. Not
     * Everett's layout (its files have no filter); the {@code .kv} and {@code .index} files are the
     * same bytes as {@code everett}'s.
     */
    @State(Scope.Benchmark)
    public static class EverettFilteredState extends EverettState {
        @Param({"10"})
        public int bitsPerKey;

        @Override
        FilterPolicy filters() {
            return FilterPolicy.bloom(bitsPerKey);
        }
    }

    /**
     * The byte profile without a routing cache, independent order: every lookup runs the cascade
     * from the head, as Everett's own reader does (the routing catalogs on top included).
     */
    @State(Scope.Benchmark)
    public static class EverettFromHeadState extends EverettSide {
        @Param({"byte"})
        public String profile;

        @Param({"independent"})
        public String order;

        @Override
        String profile() {
            return profile;
        }

        @Override
        String order() {
            return order;
        }

        @Override
        long routingCacheBytes() {
            return 0;
        }
    }

    @State(Scope.Benchmark)
    public static class RocksState extends Fixture {
        @Param({"independent", "dependent"})
        public String order;

        LookupData.RocksFixture fixture;
        RocksDB db;
        ReadOptions readOptions;
        final byte[] value = new byte[LookupData.VALUE_BYTES];

        @Setup(Level.Trial)
        public void setUp() throws IOException, RocksDBException {
            prepare("rocks");
            long t0 = System.nanoTime();
            fixture = LookupData.buildRocks(work, records);
            long t1 = System.nanoTime();
            db = fixture.db;
            readOptions = fixture.readOptions;
            LookupData.warmRocks(fixture, records);
            LookupData.checkRocks(fixture, queryList());
            long t2 = System.nanoTime();
            System.out.printf(Locale.ROOT, "%n[rocks] N=%d %s: SST files (level:bytes) %s; block cache %d bytes after warm-up; "
                            + "build %.2f s, scan + query check %.2f s%n",
                    n, keys, fixture.levels(), fixture.blockCacheUsage(), (t1 - t0) / 1e9, (t2 - t1) / 1e9);
            records = null;
        }

        @Override
        String order() {
            return order;
        }

        @TearDown(Level.Trial)
        public void tearDown() throws IOException {
            fixture.close();
            LookupData.deleteTree(work);
        }
    }

    /** Everett, byte profile with key filters: one fixture trial, filters first, then the cascade. */
    @Benchmark
    @OperationsPerInvocation(LookupData.TRIAL)
    public long everettFiltered(EverettFilteredState s) {
        return s.check(trial(s.chain, s.queryKeys, s.dependent));
    }

    /** Everett, byte profile (KV02 + IX03): one fixture trial through the prepared cascade. */
    @Benchmark
    @OperationsPerInvocation(LookupData.TRIAL)
    public long everett(EverettState s) {
        return s.check(trial(s.chain, s.queryKeys, s.dependent));
    }

    /** Everett, byte profile, without the routing cache: the cascade from the head. */
    @Benchmark
    @OperationsPerInvocation(LookupData.TRIAL)
    public long everettFromHead(EverettFromHeadState s) {
        return s.check(trial(s.chain, s.queryKeys, s.dependent));
    }

    /** Everett, bit profile (KV03 + IX03): the same trial on the same records and queries. */
    @Benchmark
    @OperationsPerInvocation(LookupData.TRIAL)
    public long everettBit(EverettBitState s) {
        return s.check(trial(s.chain, s.queryKeys, s.dependent));
    }

    /** One fixture trial of {@code chain.get}, the digest of each value read in place from the mapping. */
    private static long trial(Chain chain, byte[][] keys, boolean dependent) {
        long sum = 0;
        long prev = 0;
        if (dependent) {
            for (int j = 0; j < LookupData.TRIAL; j++) {
                Lookup r = chain.get(keys[(int) ((j + prev) & MASK)]);
                prev = r.found() ? LookupData.digest(r.value()) : LookupData.ABSENT_DIGEST;
                sum += prev;
            }
        } else {
            for (int j = 0; j < LookupData.TRIAL; j++) {
                Lookup r = chain.get(keys[j & MASK]);
                sum += r.found() ? LookupData.digest(r.value()) : LookupData.ABSENT_DIGEST;
            }
        }
        return sum;
    }

    /** RocksDB: one fixture trial of {@code get(readOptions, key, value)}. */
    @Benchmark
    @OperationsPerInvocation(LookupData.TRIAL)
    public long rocks(RocksState s) throws RocksDBException {
        RocksDB db = s.db;
        ReadOptions ro = s.readOptions;
        byte[][] keys = s.queryKeys;
        byte[] v = s.value;
        long sum = 0;
        long prev = 0;
        if (s.dependent) {
            for (int j = 0; j < LookupData.TRIAL; j++) {
                int len = db.get(ro, keys[(int) ((j + prev) & MASK)], v);
                prev = len == RocksDB.NOT_FOUND ? LookupData.ABSENT_DIGEST : LookupData.digest(v);
                sum += prev;
            }
        } else {
            for (int j = 0; j < LookupData.TRIAL; j++) {
                int len = db.get(ro, keys[j & MASK], v);
                sum += len == RocksDB.NOT_FOUND ? LookupData.ABSENT_DIGEST : LookupData.digest(v);
            }
        }
        return s.check(sum);
    }
}

package dev.everett.bench;

import dev.everett.api.CommonWidthRule;
import dev.everett.api.IndexedSegment;
import dev.everett.api.Lookup;
import dev.everett.api.ObjectId;
import dev.everett.api.SeekCursor;
import dev.everett.api.SegmentEngine;
import dev.everett.api.ObjectStore;
import dev.everett.api.SegmentWriter;
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

/**
 * Issue "IX03 lookups", single segment: one native of 1,000,000 records (the lookup fixture's generator,
 * structured 16-byte keys {@code 'p'×8 ∥ BE64(2i)}, 32-byte values {@code value(i)}, stored as
 * 33 bytes under {@link LookupData#policy()}), indexed with {@code store.indexSegment(id)} (a
 * terminal index plus empty-native routing catalogs up to a head of ≤ K occurrences).
 *
 * <ul>
 *   <li>{@code get}: random hits, {@code segment.get(key)} (target ≤ 1 µs per get).</li>
 *   <li>{@code seek}: context only. {@code cursor.seek(target)} on one reused cursor, for
 *       random targets {@code key(t)}, {@code t} uniform in [0, 2N): half land on a record, half
 *       between two; the record found is consumed (ordinal and value digest).</li>
 * </ul>
 *
 * <p>A table of 65,536 random queries is cycled, 8,192 per invocation (scores are µs per
 * operation); each invocation's checksum is checked against the oracle.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 3, jvmArgsAppend = {"-Xms4g", "-Xmx4g", "--enable-native-access=ALL-UNNAMED"})
@Warmup(iterations = 4, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 3, time = 1)
public class SingleSegmentBench {
    public static final int RECORDS = 1_000_000;
    private static final int TABLE = 1 << 16;
    private static final int BATCH = 8192;
    private static final int WINDOWS = TABLE / BATCH;

    /** Where to build: a directory, or "auto" for /dev/shm (else java.io.tmpdir). */
    @Param({"auto"})
    public String dir;

    /**
     * The store's routing cache ({@link ObjectStoreOptions}): the default (2 MiB, which holds the
     * samples of the deepest routing catalog here), or 0 for the cascade from the head.
     */
    @Param({"2097152", "0"})
    public long routingCacheBytes;

    private Path work;
    private ObjectStore store;
    private IndexedSegment segment;
    private SeekCursor cursor;
    private byte[][] getKeys;
    private byte[][] seekKeys;
    private final long[] getChecksums = new long[WINDOWS];
    private final long[] seekChecksums = new long[WINDOWS];
    private int getWindow;
    private int seekWindow;

    /** Writes the 1M-record native into {@code store} and indexes it. */
    static IndexedSegment build(ObjectStore store) throws IOException {
        ObjectId id = ObjectId.random();
        byte[] value = LookupData.value(0);
        try (SegmentWriter w = store.newSegment(id, CommonWidthRule.policy())) {
            for (int i = 0; i < RECORDS; i++) {
                LookupData.valueInto(value, i);
                w.put(LookupData.key(2L * i, LookupData.KeyShape.STRUCT16), value);
            }
            w.finish();
        }
        return store.indexSegment(id);
    }

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        work = LookupData.workDir(dir, "everett-segment-");
        store = SegmentEngine.load().openObjectStore(work.resolve("store"), LookupData.policy(),
                ObjectStoreOptions.defaults().withRoutingCacheBytes(routingCacheBytes));
        long t0 = System.nanoTime();
        segment = build(store);
        long t1 = System.nanoTime();
        cursor = segment.cursor();
        getKeys = new byte[TABLE][];
        seekKeys = new byte[TABLE][];
        long[] getDigest = new long[TABLE];
        long[] seekDigest = new long[TABLE];
        for (int j = 0; j < TABLE; j++) {
            long o = Long.remainderUnsigned(LookupData.mix(j + 917L), RECORDS);
            getKeys[j] = LookupData.key(2 * o, LookupData.KeyShape.STRUCT16);
            getDigest[j] = LookupData.mix(o);
            long t = Long.remainderUnsigned(LookupData.mix(j + 0x5EEDL), 2L * RECORDS);
            seekKeys[j] = LookupData.key(t, LookupData.KeyShape.STRUCT16);
            long ordinal = (t + 1) / 2; // the first record 2i ≥ t
            seekDigest[j] = ordinal < RECORDS ? ordinal + LookupData.mix(ordinal) : LookupData.ABSENT_DIGEST;
        }
        for (int w = 0; w < WINDOWS; w++) {
            for (int j = w * BATCH; j < (w + 1) * BATCH; j++) {
                getChecksums[w] += getDigest[j];
                seekChecksums[w] += seekDigest[j];
            }
        }
        for (int j = 0; j < TABLE; j++) {
            if (getOne(getKeys[j]) != getDigest[j]) {
                throw new IllegalStateException("get " + j + " disagrees with the oracle");
            }
            if (seekOne(seekKeys[j]) != seekDigest[j]) {
                throw new IllegalStateException("seek " + j + " disagrees with the oracle");
            }
        }
        long bytes = LookupData.everettFiles(work.resolve("store")).stream().mapToLong(LookupData.FileSize::bytes).sum();
        System.out.printf(Locale.ROOT, "%n[segment] %d records: %d bytes in all files; build %.2f s%n",
                RECORDS, bytes, (t1 - t0) / 1e9);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        cursor.close();
        store.close();
        LookupData.deleteTree(work);
    }

    private long getOne(byte[] key) {
        Lookup r = segment.get(key);
        return r.found() ? LookupData.digest(r.value()) : LookupData.ABSENT_DIGEST;
    }

    private long seekOne(byte[] key) {
        SeekCursor c = cursor;
        c.seek(key);
        return c.valid() ? c.ordinal() + LookupData.digest(c.value()) : LookupData.ABSENT_DIGEST;
    }

    /** {@code segment.get(key)} of random hits. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long get() {
        int w = getWindow;
        getWindow = (w + 1) % WINDOWS;
        byte[][] keys = getKeys;
        long sum = 0;
        for (int j = w * BATCH, end = j + BATCH; j < end; j++) {
            sum += getOne(keys[j]);
        }
        if (sum != getChecksums[w]) {
            throw new IllegalStateException("get checksum disagrees with the oracle");
        }
        return sum;
    }

    /** {@code cursor.seek(target)} of random targets (context). */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long seek() {
        int w = seekWindow;
        seekWindow = (w + 1) % WINDOWS;
        byte[][] keys = seekKeys;
        long sum = 0;
        for (int j = w * BATCH, end = j + BATCH; j < end; j++) {
            sum += seekOne(keys[j]);
        }
        if (sum != seekChecksums[w]) {
            throw new IllegalStateException("seek checksum disagrees with the oracle");
        }
        return sum;
    }
}

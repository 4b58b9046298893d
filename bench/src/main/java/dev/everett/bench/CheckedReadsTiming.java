package dev.everett.bench;

import dev.everett.api.CatalogRef;
import dev.everett.api.CommonWidthRule;
import dev.everett.api.IndexedSegment;
import dev.everett.api.Lookup;
import dev.everett.api.ObjectId;
import dev.everett.api.ObjectStore;
import dev.everett.api.ObjectStoreOptions;
import dev.everett.api.Policy;
import dev.everett.api.SegmentCursor;
import dev.everett.api.SegmentEngine;
import dev.everett.api.SegmentReader;
import dev.everett.api.SegmentWriter;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.ServiceLoader;
import java.util.stream.Stream;

/**
 * What checked reads cost (docs/benchmarks/checked-reads.md): one segment of N records
 * (16-byte keys {@code 'p'×8 ∥ BE64(2i)}, 32-byte values, {@link Policy#defaultBytes()}) is
 * written and indexed once; then, alternating checking on and off for {@code rounds} rounds, a
 * fresh store is opened on it and the harness times the open ({@code openObjectStore} plus
 * {@code openSegment}), the first {@code get} (which with checking on checks the native's body
 * CRC32C first), and the steady state (the mean of {@code lookups} random hits after as many
 * warm-up lookups). It prints the median of each per mode. Then, for {@code rounds} more natives
 * of the same shape, it times the first read (a handle from {@code openNative} and its first
 * record) in the store that has just written the native, which counts it as checked, and in a
 * fresh store on the same file, which pays the CRC pass. A simple timed harness, not JMH: the
 * first read happens once per open, which a JMH iteration would hide.
 *
 * <pre>
 *   java -cp bench/target/benchmarks.jar dev.everett.bench.CheckedReadsTiming [records] [rounds] [lookups] [dir]
 * </pre>
 */
public final class CheckedReadsTiming {
    private CheckedReadsTiming() {
    }

    public static void main(String[] args) throws IOException {
        int records = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 9;
        int lookups = args.length > 2 ? Integer.parseInt(args[2]) : 200_000;
        Path dir = args.length > 3 ? Path.of(args[3]) : Files.createTempDirectory("everett-checked-reads");
        SegmentEngine engine = ServiceLoader.load(SegmentEngine.class).findFirst().orElseThrow();
        Policy policy = Policy.defaultBytes();
        CatalogRef head;
        long nativeBytes;
        try (ObjectStore store = engine.openObjectStore(dir, policy, ObjectStoreOptions.defaults())) {
            ObjectId id = ObjectId.random();
            write(store, id, records);
            head = store.indexSegment(id).head();
            nativeBytes = Files.size(store.nativePath(id));
        }
        byte[][] queries = new byte[4096][];
        long x = 917;
        for (int j = 0; j < queries.length; j++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
            queries[j] = key((int) Long.remainderUnsigned(x >>> 1, records));
        }
        long[][] open = new long[2][rounds];
        long[][] first = new long[2][rounds];
        double[][] steady = new double[2][rounds];
        long sink = 0;
        for (int r = 0; r < rounds; r++) {
            for (int m = 0; m < 2; m++) {
                boolean verify = (r + m) % 2 == 0;
                int mode = verify ? 0 : 1;
                long t0 = System.nanoTime();
                try (ObjectStore store = engine.openObjectStore(dir, policy, ObjectStoreOptions.defaults().withVerifyChecksums(verify))) {
                    IndexedSegment s = store.openSegment(head);
                    long t1 = System.nanoTime();
                    Lookup l = s.get(queries[0]);
                    long t2 = System.nanoTime();
                    sink += l.found() ? 1 : 0;
                    for (int j = 0; j < lookups; j++) {
                        sink += s.get(queries[j & 4095]).found() ? 1 : 0;
                    }
                    long t3 = System.nanoTime();
                    for (int j = 0; j < lookups; j++) {
                        sink += s.get(queries[(j * 7) & 4095]).found() ? 1 : 0;
                    }
                    long t4 = System.nanoTime();
                    open[mode][r] = t1 - t0;
                    first[mode][r] = t2 - t1;
                    steady[mode][r] = (double) (t4 - t3) / lookups;
                }
            }
        }
        if (sink != 2L * rounds * (1 + 2L * lookups)) {
            throw new AssertionError("lookups missed: " + sink);
        }
        System.out.printf("records %,d, native %,d bytes, %d rounds, %,d lookups per steady-state sample%n", records, nativeBytes, rounds, lookups);
        System.out.printf("%-14s %14s %18s %20s%n", "checksums", "open (µs)", "first get (µs)", "steady get (ns/op)");
        for (int mode = 0; mode < 2; mode++) {
            System.out.printf("%-14s %,14.1f %,18.1f %,20.1f%n", mode == 0 ? "verified" : "not verified",
                    median(open[mode]) / 1e3, median(first[mode]) / 1e3, median(steady[mode]));
        }
        justWritten(engine, policy, dir, records, rounds);
        if (args.length <= 3) {
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    /** First-read time of a native in the store that wrote it and in a fresh store, median of {@code rounds}. */
    private static void justWritten(SegmentEngine engine, Policy policy, Path dir, int records, int rounds) throws IOException {
        long[] written = new long[rounds];
        long[] fresh = new long[rounds];
        long sink = 0;
        for (int r = 0; r < rounds; r++) {
            ObjectId id = ObjectId.random();
            try (ObjectStore store = engine.openObjectStore(dir, policy, ObjectStoreOptions.defaults())) {
                write(store, id, records);
                long t0 = System.nanoTime();
                sink += firstRecord(store, id);
                written[r] = System.nanoTime() - t0;
            }
            try (ObjectStore store = engine.openObjectStore(dir, policy, ObjectStoreOptions.defaults())) {
                long t0 = System.nanoTime();
                sink += firstRecord(store, id);
                fresh[r] = System.nanoTime() - t0;
            }
        }
        if (sink != 2L * rounds * 16) {
            throw new AssertionError("first records missed: " + sink);
        }
        System.out.printf("%-34s %20s%n", "first read of a native", "openNative + 1st record (µs)");
        System.out.printf("%-34s %,20.1f%n", "just written by this store", median(written) / 1e3);
        System.out.printf("%-34s %,20.1f%n", "fresh store (pays the CRC pass)", median(fresh) / 1e3);
    }

    private static void write(ObjectStore store, ObjectId id, int records) throws IOException {
        try (SegmentWriter w = store.newSegment(id, CommonWidthRule.policy())) {
            byte[] value = new byte[32];
            for (int i = 0; i < records; i++) {
                ByteBuffer.wrap(value).putLong(0, i);
                w.put(key(i), value);
            }
            w.finish();
        }
    }

    /** Opens native {@code id} and reads its first record; returns the key's length. */
    private static long firstRecord(ObjectStore store, ObjectId id) throws IOException {
        try (SegmentReader r = store.openNative(id); SegmentCursor c = r.cursor()) {
            if (!c.next()) {
                throw new AssertionError("empty native " + id);
            }
            return c.keyLength();
        }
    }

    private static byte[] key(int i) {
        byte[] k = new byte[16];
        Arrays.fill(k, 0, 8, (byte) 'p');
        ByteBuffer.wrap(k).putLong(8, 2L * i);
        return k;
    }

    private static double median(long[] xs) {
        long[] s = xs.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }

    private static double median(double[] xs) {
        double[] s = xs.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }
}

package dev.everett.compaction;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.everett.api.ObjectStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Stream;

/** Seeded random runs for the model tests: a TreeMap per run, null values standing for tombstones. */
final class Fixtures {
    private Fixtures() {
    }

    /** The seed from {@code -Deverett.seed=N}, or a fresh one. */
    static long seed() {
        String s = System.getProperty("everett.seed", "");
        return s.isBlank() ? new Random().nextLong() : Long.parseLong(s.trim());
    }

    /** Runs {@code test} with a seeded random; a failure names the seed to replay it with. */
    static void seeded(String name, Consumer<Random> test) {
        long seed = seed();
        try {
            test.accept(new Random(seed));
        } catch (AssertionError | RuntimeException e) {
            throw new AssertionError(name + " failed with seed " + seed + " (rerun with -Deverett.seed=" + seed + "): " + e, e);
        }
    }

    static TreeMap<byte[], byte[]> newModel() {
        return new TreeMap<>(Arrays::compareUnsigned);
    }

    /**
     * A pool of keys: the empty key, short keys, and keys with long shared prefixes (so that
     * front coding, the index's LCPs and split boundaries inside long prefixes are exercised).
     */
    static List<byte[]> keyPool(Random r, int n) {
        List<byte[]> pool = new ArrayList<>();
        pool.add(new byte[0]);
        byte[] longPrefix = new byte[40 + r.nextInt(60)];
        r.nextBytes(longPrefix);
        while (pool.size() < n) {
            int kind = r.nextInt(3);
            byte[] k;
            if (kind == 0) {
                k = new byte[1 + r.nextInt(4)];
                r.nextBytes(k);
            } else {
                int p = kind == 1 ? longPrefix.length : r.nextInt(longPrefix.length);
                k = Arrays.copyOf(longPrefix, p + r.nextInt(6));
                for (int i = p; i < k.length; i++) {
                    k[i] = (byte) r.nextInt(4);
                }
            }
            pool.add(k);
        }
        return pool;
    }

    /** Run {@code run} of a fixed history: keys {@code k000}..{@code k199} every {@code run + 1}th from {@code run}, values naming the run. */
    static TreeMap<byte[], byte[]> run(int run) {
        TreeMap<byte[], byte[]> m = newModel();
        for (int i = run; i < 200; i += 1 + run) {
            m.put(String.format("k%03d", i).getBytes(java.nio.charset.StandardCharsets.UTF_8),
                    ("v" + run + "-" + i).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        return m;
    }

    /** A run of up to {@code n} distinct keys from the pool, about one in {@code tombstoneOdds} a tombstone. */
    static TreeMap<byte[], byte[]> run(Random r, List<byte[]> pool, int n, int tombstoneOdds) {
        TreeMap<byte[], byte[]> run = newModel();
        for (int i = 0; i < n; i++) {
            byte[] k = pool.get(r.nextInt(pool.size()));
            if (r.nextInt(tombstoneOdds) == 0) {
                run.put(k, null);
            } else {
                byte[] v = new byte[r.nextInt(12)];
                r.nextBytes(v);
                run.put(k, v);
            }
        }
        return run;
    }

    /** Applies {@code newer} over {@code model} (tombstones kept as null values). */
    static void apply(NavigableMap<byte[], byte[]> model, Map<byte[], byte[]> newer) {
        model.putAll(newer);
    }

    /** The model without tombstones: what reads should see. */
    static TreeMap<byte[], byte[]> visible(NavigableMap<byte[], byte[]> model) {
        TreeMap<byte[], byte[]> out = newModel();
        model.forEach((k, v) -> {
            if (v != null) {
                out.put(k, v);
            }
        });
        return out;
    }

    /** Flips the bits of one byte in the middle of a native's body (past its 96-byte envelope header). */
    static void damageBody(Path kv) throws IOException {
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(kv.toFile(), "rw")) {
            long at = 96 + (f.length() - 96) / 2;
            f.seek(at);
            int x = f.read();
            f.seek(at);
            f.write(x ^ 0x5A);
        }
    }

    /**
     * Checks a segment's recorded file bytes against its directory on disk: every regular file
     * under it but the store's descriptor and temporary files, the native by its identity, key
     * filters by their suffix, the rest (indexes and the routing catalogs' empty native) as index.
     */
    static void assertFileBytesOnDisk(SegmentFiles files, SegmentMeta m) throws IOException {
        Path root = files.segmentDirectory(m.id());
        Path nativeFile = m.id().path(root, ".kv");
        long[] bytes = new long[3];
        try (Stream<Path> all = Files.walk(root)) {
            for (Path f : (Iterable<Path>) all.filter(Files::isRegularFile)::iterator) {
                String name = f.getFileName().toString();
                if (name.startsWith(".") || f.equals(root.resolve(ObjectStore.DESCRIPTOR_NAME))) {
                    continue;
                }
                bytes[f.equals(nativeFile) ? 0 : name.endsWith(".filter") ? 2 : 1] += Files.size(f);
            }
        }
        assertArrayEquals(bytes, new long[] {m.nativeBytes(), m.indexBytes(), m.filterBytes()},
                "native, index and filter bytes on disk of " + m);
    }

    static String hex(byte[] b) {
        return b == null ? "null" : java.util.HexFormat.of().formatHex(b);
    }
}

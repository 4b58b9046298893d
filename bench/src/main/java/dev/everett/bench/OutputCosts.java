package dev.everett.bench;

import dev.everett.api.CommonWidthRule;
import dev.everett.api.IndexedSegment;
import dev.everett.api.KeyRange;
import dev.everett.api.ObjectId;
import dev.everett.api.ObjectStore;
import dev.everett.api.ObjectStoreOptions;
import dev.everett.api.Policy;
import dev.everett.api.SeekCursor;
import dev.everett.api.SegmentEngine;
import dev.everett.api.SegmentWriter;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * What one compaction output costs apart from its records: the steps a compaction takes for every
 * output segment, timed one by one on segments of a given record count, so that two counts give
 * the fixed part of each step (docs/benchmarks/compaction.md, "Per-output work"). Per round: a
 * directory and its object store (the store descriptor), the native written (16-byte keys,
 * 100-byte values, as the compaction benchmark's), {@code indexSegment} (the bottom index, the
 * empty native, the routing heads, each published and opened), the two seeks that find its
 * smallest and largest key, and the store's close. Then two primitives: a shared arena opened,
 * allocated from and closed (the handshake a reader's own arena costs at close), and
 * {@code Files.exists(NOFOLLOW_LINKS)} on a missing name. Prints the median of each step over
 * the second half of the rounds, in µs.
 *
 * <pre>java --enable-native-access=ALL-UNNAMED -Xms2g -Xmx2g -cp bench/target/benchmarks.jar \
 *     dev.everett.bench.OutputCosts [RECORDS] [ROUNDS] [DIR]</pre>
 *
 * RECORDS defaults to 40,000 (a 4 MiB output of the benchmark), ROUNDS to 1,500, DIR to /dev/shm.
 */
public final class OutputCosts {
    private static final String[] STEPS = {"directory and store", "write", "indexSegment", "first and last key", "close"};

    private OutputCosts() {
    }

    public static void main(String[] args) throws Exception {
        int records = args.length > 0 ? Integer.parseInt(args[0]) : 40_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 1_500;
        Path base = Files.createTempDirectory(Path.of(args.length > 2 ? args[2] : "/dev/shm"), "everett-output-costs");
        SegmentEngine engine = SegmentEngine.load();
        Policy policy = Policy.defaultBytes();
        byte[] key = new byte[16];
        Arrays.fill(key, 0, 8, (byte) 'p');
        byte[] value = new byte[100];
        long[][] t = new long[STEPS.length][rounds];
        try {
            for (int r = 0; r < rounds; r++) {
                Path dir = base.resolve("s" + r);
                long t0 = System.nanoTime();
                Files.createDirectories(dir);
                ObjectStore store = engine.openObjectStore(dir, policy, ObjectStoreOptions.defaults());
                long t1 = System.nanoTime();
                ObjectId id = ObjectId.random();
                try (SegmentWriter w = store.newSegment(id, CommonWidthRule.policy())) {
                    for (int i = 0; i < records; i++) {
                        for (int b = 0; b < 8; b++) {
                            key[8 + b] = (byte) ((long) i >>> (56 - 8 * b));
                        }
                        w.put(key, value);
                    }
                    w.finish();
                }
                long t2 = System.nanoTime();
                IndexedSegment segment = store.indexSegment(id);
                long t3 = System.nanoTime();
                try (SeekCursor c = segment.cursor(KeyRange.all())) {
                    c.seekToFirst();
                    c.seekToLast();
                }
                long t4 = System.nanoTime();
                segment.close();
                store.close();
                long t5 = System.nanoTime();
                long[] at = {t0, t1, t2, t3, t4, t5};
                for (int s = 0; s < STEPS.length; s++) {
                    t[s][r] = at[s + 1] - at[s];
                }
                Kv02Data.deleteTree(dir);
            }
            StringBuilder line = new StringBuilder(String.format("%,d records, median µs:", records));
            for (int s = 0; s < STEPS.length; s++) {
                long[] half = Arrays.copyOfRange(t[s], rounds / 2, rounds);
                Arrays.sort(half);
                line.append(String.format("  %s %.1f", STEPS[s], half[half.length / 2] / 1e3));
            }
            System.out.println(line);
            int n = 20_000;
            long a0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                Arena arena = Arena.ofShared();
                arena.allocate(64);
                arena.close();
            }
            long a1 = System.nanoTime();
            Path missing = base.resolve("missing");
            int found = 0;
            for (int i = 0; i < n; i++) {
                found += Files.exists(missing, LinkOption.NOFOLLOW_LINKS) ? 1 : 0;
            }
            long a2 = System.nanoTime();
            System.out.printf("shared arena opened, allocated from and closed: %.2f µs; Files.exists(missing, NOFOLLOW_LINKS): %.2f µs%s%n",
                    (a1 - a0) / 1e3 / n, (a2 - a1) / 1e3 / n, found == 0 ? "" : " (the missing name exists?)");
        } finally {
            Kv02Data.deleteTree(base);
        }
    }
}

package dev.everett.store;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * A timing, not a test (surefire does not run it): random 16-byte keys with 100-byte values put
 * into a fresh memtable, about one 64 MiB memtable's worth, then a get of every key; prints the
 * median, fastest and slowest nanoseconds a put and a get over the last two thirds of the rounds.
 * It isolates the skip list from the log, the commit queue and the background flush, which make
 * {@code StoreBench}'s {@code fillrandom} too noisy on a shared machine to resolve a change to the
 * search. Usage, after {@code ./mvnw -Pbench -pl bench -am package -DskipTests} and
 * {@code ./mvnw -pl store test-compile}:
 * {@code java -cp store/target/test-classes:bench/target/benchmarks.jar dev.everett.store.MemTableInsertTiming KEYS ROUNDS}.
 */
public final class MemTableInsertTiming {

    private MemTableInsertTiming() {
    }

    public static void main(String[] args) {
        int keys = Integer.parseInt(args[0]);
        int rounds = Integer.parseInt(args[1]);
        byte[] value = new byte[100];
        double[] puts = new double[rounds];
        double[] gets = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            SplittableRandom rnd = new SplittableRandom(42 + r);
            byte[][] key = new byte[keys][16];
            for (byte[] k : key) {
                rnd.nextBytes(k);
            }
            MemTable mem = new MemTable(1);
            long t = System.nanoTime();
            for (int i = 0; i < keys; i++) {
                mem.add(key[i], i + 1, WriteBatch.PUT, value);
            }
            puts[r] = (System.nanoTime() - t) / (double) keys;
            t = System.nanoTime();
            int found = 0;
            for (int i = keys - 1; i >= 0; i--) {
                if (mem.get(key[i], keys, true) != null) {
                    found++;
                }
            }
            gets[r] = (System.nanoTime() - t) / (double) keys;
            if (found != keys) {
                throw new AssertionError("found " + found + " of " + keys + " keys");
            }
        }
        System.out.printf("put ns/op %s; get ns/op %s%n", summary(puts), summary(gets));
    }

    /** Median, fastest and slowest of the rounds after the first third (the JIT's warm-up). */
    private static String summary(double[] perRound) {
        double[] kept = Arrays.copyOfRange(perRound, perRound.length / 3, perRound.length);
        Arrays.sort(kept);
        return String.format("median %.1f min %.1f max %.1f", kept[kept.length / 2], kept[0], kept[kept.length - 1]);
    }
}

package dev.everett.bench;

import java.util.Arrays;

/**
 * {@link WholeRunSeekBench}'s three loops ({@code oneDescent}, {@code searchPerRun},
 * {@code mergedSeek}) interleaved round by round in one JVM, so that the drift of a loaded
 * machine hits them alike (JMH runs one benchmark after another): 60 rounds of 40 × 1,024 seeks
 * per loop, the order rotated each round; the first 20 rounds are warm-up. Prints the median,
 * minimum and quartiles of the last 40 rounds, in ns per seek.
 *
 * <pre>java --enable-native-access=ALL-UNNAMED -cp bench/target/benchmarks.jar \
 *     dev.everett.bench.WholeRunSeekTiming KEYS RATIO BATCHES ROUTING_CACHE_BYTES</pre>
 */
public final class WholeRunSeekTiming {
    private WholeRunSeekTiming() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 4) {
            System.err.println("usage: WholeRunSeekTiming KEYS RATIO BATCHES ROUTING_CACHE_BYTES (e.g. 300000 1 19 0)");
            System.exit(2);
        }
        WholeRunSeekBench.Runs s = new WholeRunSeekBench.Runs();
        s.keys = Integer.parseInt(args[0]);
        s.ratio = Double.parseDouble(args[1]);
        s.batches = Integer.parseInt(args[2]);
        s.routingCacheBytes = Long.parseLong(args[3]);
        s.dir = "auto";
        s.setUp();
        try {
            WholeRunSeekBench b = new WholeRunSeekBench();
            int rounds = 60;
            int reps = 40;
            double[][] t = new double[3][rounds];
            long sink = 0;
            for (int r = 0; r < rounds; r++) {
                for (int j = 0; j < 3; j++) {
                    int m = (j + r) % 3;
                    long t0 = System.nanoTime();
                    for (int i = 0; i < reps; i++) {
                        sink += m == 0 ? b.oneDescent(s) : m == 1 ? b.searchPerRun(s) : b.mergedSeek(s);
                    }
                    t[m][r] = (System.nanoTime() - t0) / (double) (reps * WholeRunSeekBench.OPS);
                }
            }
            String[] names = {"oneDescent", "searchPerRun", "mergedSeek"};
            for (int m = 0; m < 3; m++) {
                double[] x = Arrays.copyOfRange(t[m], rounds / 3, rounds);
                Arrays.sort(x);
                System.out.printf("%-13s median %7.0f ns  min %7.0f  p25 %7.0f  p75 %7.0f%n",
                        names[m], x[x.length / 2], x[0], x[x.length / 4], x[3 * x.length / 4]);
            }
            System.out.println("(checksum " + sink + ")");
        } finally {
            s.tearDown();
        }
    }
}

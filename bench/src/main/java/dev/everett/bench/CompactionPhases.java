package dev.everett.bench;

import dev.everett.api.TombstonePolicy;
import dev.everett.compaction.CompactionBuilder;
import dev.everett.compaction.CompactionJob;
import dev.everett.compaction.SegmentMeta;
import java.util.Arrays;
import java.util.List;

/**
 * Where {@link CompactionVsRocksBench#everettCompaction}'s time goes: the same fixture and job,
 * timed phase by phase, the two split sizes interleaved round by round in one JVM. Phases:
 * {@code open} (the builder's {@code start()}: opening the inputs), {@code crc} (the steps that
 * check each input's body CRC before the merge starts), {@code merge} (the steps of the k-way
 * merge, writing and publishing the outputs as they roll over), {@code finish} (publishing the
 * last output, then indexing and describing every output) and {@code close}. Prints the median of
 * each phase over the second half of the rounds (the first half is warm-up), in milliseconds,
 * and the outputs' native and index bytes; with {@code --each}, every round's phases too (to see
 * where an outlier's time went); with {@code --dir DIR}, the files in {@code DIR} instead of
 * {@code /dev/shm} (the benchmark's {@code -p dir=DIR}); with {@code --sizes 4}, only the
 * 4 MiB compactions (the split sizes in MiB, comma-separated; default {@code 64,4}), for a
 * profile of one size; with {@code --in-memory 0}, inputs read through their mappings (the job's
 * {@code inputsInMemory}, default 256 MiB: copied or mapped, whichever this machine's first
 * probes found faster). Code that runs once per output is compiled late (it runs 2 to 25
 * times a compaction), so take 100 rounds for figures after the JIT has finished
 * (docs/benchmarks/compaction.md, "Warm-up: the JIT").
 *
 * <pre>java --enable-native-access=ALL-UNNAMED -Xms2g -Xmx2g -XX:+AlwaysPreTouch -cp bench/target/benchmarks.jar \
 *     dev.everett.bench.CompactionPhases ROUNDS [--each] [--dir DIR] [--sizes 64,4] [--in-memory BYTES]</pre>
 */
public final class CompactionPhases {
    private static final String[] PHASES = {"open", "crc", "merge", "finish", "close", "total"};

    /** The jobs' {@code inputsInMemory} budget ({@code --in-memory}; 0: inputs always read through their mappings). */
    private static long inMemory = CompactionBuilder.DEFAULT_INPUTS_IN_MEMORY_BYTES;

    private CompactionPhases() {
    }

    public static void main(String[] args) throws Exception {
        boolean each = false;
        String dir = "auto";
        int[] targets = {64, 4};
        boolean usage = args.length < 1;
        for (int a = 1; a < args.length && !usage; a++) {
            if (args[a].equals("--each")) {
                each = true;
            } else if (args[a].equals("--dir") && a + 1 < args.length) {
                dir = args[++a];
            } else if (args[a].equals("--in-memory") && a + 1 < args.length) {
                inMemory = Long.parseLong(args[++a]);
            } else if (args[a].equals("--sizes") && a + 1 < args.length) {
                targets = Arrays.stream(args[++a].split(",")).mapToInt(Integer::parseInt).toArray();
            } else {
                usage = true;
            }
        }
        if (usage) {
            System.err.println("usage: CompactionPhases ROUNDS [--each] [--dir DIR] [--sizes 64,4] [--in-memory BYTES] (e.g. 16)");
            System.exit(2);
        }
        int rounds = Integer.parseInt(args[0]);
        CompactionVsRocksBench.EverettRuns[] fixtures = new CompactionVsRocksBench.EverettRuns[targets.length];
        try {
            for (int i = 0; i < targets.length; i++) {
                fixtures[i] = new CompactionVsRocksBench.EverettRuns();
                fixtures[i].targetMiB = targets[i];
                fixtures[i].dir = dir;
                fixtures[i].setUp();
            }
            double[][][] t = new double[targets.length][PHASES.length][rounds];
            for (int r = 0; r < rounds; r++) {
                for (int i = 0; i < targets.length; i++) {
                    timeOne(fixtures[i], t[i], r, r == rounds - 1);
                    if (each) {
                        StringBuilder line = new StringBuilder(String.format("round %2d, %2d MiB, ms:", r, targets[i]));
                        for (int p = 0; p < PHASES.length; p++) {
                            line.append(String.format("  %s %.1f", PHASES[p], t[i][p][r]));
                        }
                        System.out.println(line);
                    }
                }
            }
            for (int i = 0; i < targets.length; i++) {
                StringBuilder line = new StringBuilder(String.format("%2d MiB, median ms:", targets[i]));
                for (int p = 0; p < PHASES.length; p++) {
                    double[] x = Arrays.copyOfRange(t[i][p], rounds / 2, rounds);
                    Arrays.sort(x);
                    line.append(String.format("  %s %.1f", PHASES[p], x[x.length / 2]));
                }
                System.out.println(line);
            }
        } finally {
            for (CompactionVsRocksBench.EverettRuns f : fixtures) {
                if (f != null) {
                    f.tearDown();
                }
            }
        }
    }

    /** One compaction of {@code s}'s runs, its phase times stored at round {@code r}. */
    private static void timeOne(CompactionVsRocksBench.EverettRuns s, double[][] t, int r, boolean report) throws Exception {
        long t0 = System.nanoTime();
        long started;
        long checked;
        long merged;
        long finished;
        List<SegmentMeta> outputs;
        try (CompactionJob job = s.files.compaction(s.inputs).targetFileBytes((long) s.targetMiB << 20)
                .tombstones(TombstonePolicy.DROP).inputsInMemory(inMemory).start()) {
            started = System.nanoTime();
            // The job checks one input's CRC per step; the step after the last one starts the
            // merge, which opens the first output and merges nothing yet.
            while (job.progress().outputs() == 0) {
                job.step(CompactionVsRocksBench.STEP);
            }
            checked = System.nanoTime();
            while (!job.done()) {
                job.step(CompactionVsRocksBench.STEP);
            }
            merged = System.nanoTime();
            outputs = job.finish();
            finished = System.nanoTime();
        }
        long closed = System.nanoTime();
        long[] at = {t0, started, checked, merged, finished, closed};
        for (int p = 0; p < 5; p++) {
            t[p][r] = (at[p + 1] - at[p]) / 1e6;
        }
        t[5][r] = (closed - t0) / 1e6;
        if (report) {
            long nativeBytes = 0;
            long indexBytes = 0;
            for (SegmentMeta m : outputs) {
                nativeBytes += m.nativeBytes();
                indexBytes += m.indexBytes();
            }
            System.out.printf("%2d MiB: %d outputs, %,d native bytes, %,d index bytes%n", s.targetMiB, outputs.size(), nativeBytes, indexBytes);
        }
        s.outputs = outputs;
        s.deleteOutputs();
    }
}

package dev.everett.streams;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Runs {@link AggregationBenchmark} once per flavour and repeat, each in a child JVM of its own
 * (same JDK and class path, the given JVM options), so that heap and process RSS are each
 * flavour's alone. The order of the flavours rotates from one repeat to the next. Checks that every
 * run ends with the same final states, then writes every run's result and the summary (median
 * with the range over repeats, and for throughputs the ratio to the RocksDB stores) as JSON, and
 * the summary as a Markdown table beside it.
 *
 * <pre>java -cp TEST_CLASSPATH dev.everett.streams.AggregationBenchmarkRunner --out RAW.json
 *     [--records 1000000] [--keys 100000] [--repeats 3] [--flavours ROCKSDB,EVERETT,EVERETT_WITH_LOG]
 *     [--work DIR] [--jvm-opt OPTION]...</pre>
 *
 * {@code bench/run-streams.sh} builds the class path and runs it.
 */
final class AggregationBenchmarkRunner {
    /** What the summary reports, in order; throughputs get a ratio to RocksDB. */
    static final List<String> METRICS = List.of(
            "topology_records_per_s", "direct_records_per_s", "restore_records_per_s",
            "topology_disk_bytes", "direct_disk_bytes", "topology_heap_after_gc_bytes", "topology_rss_bytes",
            "rss_end_bytes", "rss_peak_bytes");
    private static final List<String> DIGESTS = List.of("topology_digest", "direct_digest", "restore_digest");
    private static final String REFERENCE = StoreFlavor.ROCKSDB.name();

    private AggregationBenchmarkRunner() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        int records = 1_000_000;
        int keys = 100_000;
        int repeats = 3;
        List<String> flavours = Arrays.stream(StoreFlavor.values()).map(Enum::name).toList();
        Path out = null;
        Path work = Path.of(System.getProperty("java.io.tmpdir"));
        List<String> jvmOptions = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--records" -> records = Integer.parseInt(required(args[i], value));
                case "--keys" -> keys = Integer.parseInt(required(args[i], value));
                case "--repeats" -> repeats = Integer.parseInt(required(args[i], value));
                case "--flavours" -> flavours = List.of(required(args[i], value).split(","));
                case "--out" -> out = Path.of(required(args[i], value));
                case "--work" -> work = Path.of(required(args[i], value));
                case "--jvm-opt" -> jvmOptions.add(required(args[i], value));
                default -> throw new IllegalArgumentException("unknown argument " + args[i]
                        + " (takes --records, --keys, --repeats, --flavours, --out, --work, --jvm-opt)");
            }
            i++;
        }
        if (out == null) {
            throw new IllegalArgumentException("--out RAW.json is required");
        }
        for (String flavour : flavours) {
            StoreFlavor.valueOf(flavour);      // refuse an unknown name before the first child starts
        }
        Path runs = Files.createTempDirectory(work, "streams-bench-");
        List<Map<String, Object>> results = new ArrayList<>();
        try {
            for (int repeat = 0; repeat < repeats; repeat++) {
                for (int k = 0; k < flavours.size(); k++) {
                    String flavour = flavours.get((k + repeat) % flavours.size());
                    results.add(runChild(flavour, repeat, records, keys, runs, jvmOptions));
                }
            }
        } finally {
            deleteTree(runs);
        }
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("benchmark", "streams aggregation (AggregationBenchmark), one JVM per flavour and repeat");
        meta.put("finished", Instant.now().toString());
        meta.put("records", records);
        meta.put("keys", keys);
        meta.put("repeats", repeats);
        meta.put("jvm_options", String.join(" ", jvmOptions));
        meta.put("load_average", loadAverage());
        String disagreement = disagreement(results);
        Map<String, Object> raw = new LinkedHashMap<>();
        raw.put("meta", meta);
        raw.put("summary", summarize(results, flavours));
        raw.put("runs", results);
        if (disagreement != null) {
            raw.put("error", disagreement);
        }
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, BenchJson.write(raw) + "\n");
        String table = markdown(results, flavours, records, keys, repeats);
        Files.writeString(out.resolveSibling(out.getFileName().toString().replaceFirst("\\.json$", "") + ".md"), table);
        System.out.print(table);
        if (disagreement != null) {
            System.err.println("error: " + disagreement);
            System.exit(1);
        }
    }

    private static String required(String option, String value) {
        if (value == null) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return value;
    }

    private static Map<String, Object> runChild(String flavour, int repeat, int records, int keys, Path runs, List<String> jvmOptions)
            throws IOException, InterruptedException {
        Path dir = Files.createDirectories(runs.resolve(repeat + "-" + flavour));
        Path result = runs.resolve(repeat + "-" + flavour + ".json");
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), AggregationBenchmark.class.getName(),
                flavour, Integer.toString(records), Integer.toString(keys), dir.toString(), result.toString()));
        System.out.printf(Locale.ROOT, "repeat %d, %s: started %s%n", repeat + 1, flavour, Instant.now());
        long start = System.nanoTime();
        int exit = new ProcessBuilder(command).inheritIO().start().waitFor();
        double seconds = (System.nanoTime() - start) / 1e9;
        if (exit != 0) {
            throw new IllegalStateException("the " + flavour + " run of repeat " + (repeat + 1) + " exited with " + exit + ": "
                    + String.join(" ", command));
        }
        Map<String, Object> parsed = BenchJson.readFlatObject(Files.readString(result), result.toString());
        parsed.put("repeat", repeat + 1);
        parsed.put("jvm_seconds", seconds);
        System.out.printf(Locale.ROOT, "repeat %d, %s: topology %,.0f, direct %,.0f, restore %,.0f records/s (%.0f s)%n",
                repeat + 1, flavour, number(parsed, "topology_records_per_s"), number(parsed, "direct_records_per_s"),
                number(parsed, "restore_records_per_s"), seconds);
        deleteTree(dir);
        return parsed;
    }

    /** Null if every run ends every phase with the same state, else which runs differ where. */
    static String disagreement(List<Map<String, Object>> results) {
        for (String digest : DIGESTS) {
            Map<String, Object> first = results.getFirst();
            for (Map<String, Object> run : results) {
                if (!first.get(digest).equals(run.get(digest))) {
                    return digest + " differs: " + first.get("flavour") + " (repeat " + first.get("repeat") + ") ended with "
                            + first.get(digest) + ", " + run.get("flavour") + " (repeat " + run.get("repeat") + ") with " + run.get(digest);
                }
            }
        }
        return null;
    }

    /** Per flavour and metric: median, min and max over repeats; per throughput, the ratio of medians to RocksDB's with its range. */
    static Map<String, Object> summarize(List<Map<String, Object>> results, List<String> flavours) {
        Map<String, Object> summary = new LinkedHashMap<>();
        for (String flavour : flavours) {
            Map<String, Object> metrics = new LinkedHashMap<>();
            for (String metric : METRICS) {
                double[] values = values(results, flavour, metric);
                Map<String, Object> stats = new LinkedHashMap<>();
                stats.put("median", median(values));
                stats.put("min", values[0]);
                stats.put("max", values[values.length - 1]);
                metrics.put(metric, stats);
                if (metric.endsWith("_per_s") && flavours.contains(REFERENCE) && !flavour.equals(REFERENCE)) {
                    double[] reference = values(results, REFERENCE, metric);
                    Map<String, Object> ratio = new LinkedHashMap<>();
                    ratio.put("median", median(values) / median(reference));
                    ratio.put("min", values[0] / reference[reference.length - 1]);
                    ratio.put("max", values[values.length - 1] / reference[0]);
                    metrics.put(metric.replace("_records_per_s", "_ratio_to_rocksdb"), ratio);
                }
            }
            summary.put(flavour, metrics);
        }
        return summary;
    }

    /** The metric's values over the flavour's runs, ascending. */
    private static double[] values(List<Map<String, Object>> results, String flavour, String metric) {
        double[] values = results.stream().filter(r -> flavour.equals(r.get("flavour")))
                .mapToDouble(r -> number(r, metric)).sorted().toArray();
        if (values.length == 0) {
            throw new IllegalArgumentException("no run of " + flavour + " reports " + metric);
        }
        return values;
    }

    static double median(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private static double number(Map<String, Object> run, String metric) {
        Object value = run.get(metric);
        if (!(value instanceof Number n)) {
            throw new IllegalArgumentException("run " + run.get("flavour") + " has no number " + metric + ": " + value);
        }
        return n.doubleValue();
    }

    /** The summary as a Markdown table: median (min–max) per flavour, ratios to RocksDB under the throughputs. */
    static String markdown(List<Map<String, Object>> results, List<String> flavours, int records, int keys, int repeats) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "%,d records on %,d keys, %d repeat(s), one JVM per flavour and repeat; median (min–max)%n%n",
                records, keys, repeats));
        out.append("| Metric |");
        flavours.forEach(f -> out.append(' ').append(f).append(" |"));
        out.append('\n').append("|---|");
        flavours.forEach(f -> out.append("---:|"));
        out.append('\n');
        for (String metric : METRICS) {
            boolean rate = metric.endsWith("_per_s");
            out.append("| ").append(metric.replace("_bytes", ", MiB").replace("_per_s", ", records/s").replace('_', ' ')).append(" |");
            for (String flavour : flavours) {
                double[] v = values(results, flavour, metric);
                double scale = rate ? 1 : 1 << 20;
                String format = rate ? "%,.0f (%,.0f–%,.0f)" : "%,.1f (%,.1f–%,.1f)";
                out.append(' ').append(String.format(Locale.ROOT, format, median(v) / scale, v[0] / scale, v[v.length - 1] / scale));
                if (rate && flavours.contains(REFERENCE) && !flavour.equals(REFERENCE)) {
                    double[] r = values(results, REFERENCE, metric);
                    out.append(String.format(Locale.ROOT, " **%.2f×** (%.2f–%.2f)", median(v) / median(r), v[0] / r[r.length - 1], v[v.length - 1] / r[0]));
                }
                out.append(" |");
            }
            out.append('\n');
        }
        return out.toString();
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}

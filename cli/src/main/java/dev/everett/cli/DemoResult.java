package dev.everett.cli;

import dev.everett.api.Policy;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/** What the demo measured and checked, and how it is printed: the console table and demo-report.md. */
final class DemoResult {
    /** One store's figures. */
    static final class Side {
        final String name;
        long writeNanos;
        long compactNanos;
        long lookupNanos;
        long lookups;
        long lookupsFound;
        Histogram latency;
        long scanNanos;
        long scanned;
        long scannedBytes;
        long bytesOnDisk;
        String files;

        Side(String name) {
            this.name = name;
        }
    }

    /** The comparison of the two stores' answers. */
    static final class Check {
        long liveRecords;
        String firstDifference;
        long getsFound;
        long getsAbsent;
        long getsDisagreeing;
        String firstGetDifference;

        boolean agree() {
            return firstDifference == null && getsDisagreeing == 0;
        }
    }

    /**
     * One row of the comparison.
     *
     * @param metric        what is measured
     * @param everett       Everett's figure, formatted
     * @param rocks         RocksDB's figure, formatted
     * @param advantage     the ratio in Everett's favour (> 1: Everett smaller or faster)
     * @param lowerIsBetter true for sizes and times
     */
    record Row(String metric, String everett, String rocks, double advantage, boolean lowerIsBetter) {
        String verdict() {
            if (advantage >= 1) {
                return String.format(Locale.ROOT, "%.2f× %s", advantage, lowerIsBetter && metric.startsWith("bytes") ? "smaller" : "faster");
            }
            return String.format(Locale.ROOT, "%.2f× %s", 1 / advantage, lowerIsBetter && metric.startsWith("bytes") ? "larger" : "slower");
        }
    }

    final long operations;
    /** Operations of the untimed warm-up each store ran first (0: none). */
    final long warmupOps;
    final long seed;
    final Policy policy;
    final long keysInserted;
    final Side everett;
    final Side rocks;
    final Check check;

    DemoResult(long operations, long seed, Policy policy, long warmupOps, long keysInserted, Side everett, Side rocks, Check check) {
        this.operations = operations;
        this.warmupOps = warmupOps;
        this.seed = seed;
        this.policy = policy;
        this.keysInserted = keysInserted;
        this.everett = everett;
        this.rocks = rocks;
        this.check = check;
    }

    List<Row> rows() {
        List<Row> rows = new ArrayList<>();
        long keys = Math.max(1, check.liveRecords);
        rows.add(new Row("bytes on disk", mib(everett.bytesOnDisk), mib(rocks.bytesOnDisk),
                (double) rocks.bytesOnDisk / Math.max(1, everett.bytesOnDisk), true));
        rows.add(new Row("bytes per live key", fixed1((double) everett.bytesOnDisk / keys) + " B", fixed1((double) rocks.bytesOnDisk / keys) + " B",
                (double) rocks.bytesOnDisk / Math.max(1, everett.bytesOnDisk), true));
        rows.add(new Row("write time", seconds(everett.writeNanos) + " (" + rate(operations, everett.writeNanos) + " ops/s)",
                seconds(rocks.writeNanos) + " (" + rate(operations, rocks.writeNanos) + " ops/s)",
                (double) rocks.writeNanos / Math.max(1, everett.writeNanos), true));
        rows.add(new Row("flush + compaction time", seconds(everett.compactNanos), seconds(rocks.compactNanos),
                (double) rocks.compactNanos / Math.max(1, everett.compactNanos), true));
        rows.add(new Row("point lookups", rate(everett.lookups, everett.lookupNanos) + " gets/s", rate(rocks.lookups, rocks.lookupNanos) + " gets/s",
                ((double) everett.lookups / Math.max(1, everett.lookupNanos)) / ((double) rocks.lookups / Math.max(1, rocks.lookupNanos)), false));
        rows.add(new Row("scan", rate(everett.scanned, everett.scanNanos) + " records/s", rate(rocks.scanned, rocks.scanNanos) + " records/s",
                ((double) everett.scanned / Math.max(1, everett.scanNanos)) / ((double) rocks.scanned / Math.max(1, rocks.scanNanos)), false));
        return rows;
    }

    /** The rows drawn in the chart (bytes per key repeats bytes on disk and is left out). */
    List<Row> chartRows() {
        return rows().stream().filter(r -> !r.metric().equals("bytes per live key")).toList();
    }

    String table() {
        StringBuilder s = new StringBuilder();
        String format = "%-26s %-30s %-30s %s%n";
        s.append(String.format(Locale.ROOT, format, "", "Everett (" + policy.format() + ")", "RocksDB", "Everett vs RocksDB"));
        for (Row r : rows()) {
            s.append(String.format(Locale.ROOT, format, r.metric(), r.everett(), r.rocks(), r.verdict()));
        }
        s.append(String.format(Locale.ROOT, format, "lookup latency p50 / p99", latency(everett.latency), latency(rocks.latency), ""));
        if (noEverettSegments()) {
            s.append("note: ").append(NO_SEGMENTS).append('\n');
        }
        return s.toString();
    }

    static final String NO_SEGMENTS = "EverettDB wrote no segment files in this run: the store build in use keeps its data in "
            + "its memtable and write-ahead log, so its bytes on disk are its log and its flush + compaction did no work. "
            + "The size and compaction rows compare nothing yet.";

    /** True if the Everett store reported no segment bytes after its flush and compaction. */
    boolean noEverettSegments() {
        return everett.files != null && everett.files.endsWith("; 0 segment bytes");
    }

    String checkLine() {
        if (check.agree()) {
            return String.format(Locale.ROOT, "check: the full contents agree (%,d live records) and %,d random gets agree (%,d found, %,d absent)",
                    check.liveRecords, check.getsFound + check.getsAbsent, check.getsFound, check.getsAbsent);
        }
        StringBuilder s = new StringBuilder("check: THE STORES DISAGREE:");
        if (check.firstDifference != null) {
            s.append(" full contents differ ").append(check.firstDifference).append(';');
        }
        if (check.getsDisagreeing > 0) {
            s.append(' ').append(check.getsDisagreeing).append(" gets differ, first ").append(check.firstGetDifference);
        }
        return s.toString();
    }

    String markdown(String chartName) {
        StringBuilder s = new StringBuilder();
        s.append("# Everett demo report\n\n");
        s.append(String.format(Locale.ROOT, "%,d operations (%d%% inserts, %d%% skewed overwrites, %d%% deletes) over %,d distinct keys, seed %d; "
                        + "Everett format %s (W = %d, K = %d).%n%n", operations, Workload.INSERT_PERCENT, Workload.OVERWRITE_PERCENT,
                100 - Workload.INSERT_PERCENT - Workload.OVERWRITE_PERCENT, keysInserted, seed, policy.format(), policy.blockWidth(), policy.groupSize()));
        s.append("| | Everett (").append(policy.format()).append(") | RocksDB | Everett vs RocksDB |\n|---|---|---|---|\n");
        for (Row r : rows()) {
            s.append("| ").append(r.metric()).append(" | ").append(r.everett()).append(" | ").append(r.rocks()).append(" | ").append(r.verdict()).append(" |\n");
        }
        s.append("| lookup latency p50 / p99 | ").append(latency(everett.latency)).append(" | ").append(latency(rocks.latency)).append(" | |\n\n");
        s.append("![Everett vs RocksDB](").append(chartName).append(")\n\n");
        s.append("## Check\n\n").append(checkLine().replaceFirst("^check: ", "")).append(".\n\n");
        s.append("## What was measured\n\n");
        s.append("- **Workload**: keys in four families (user profiles under hashed ids, orders by date and number, events by region and "
                + "timestamp, 10-byte binary keys with 0x00 and 0xFF), inserted in a random interleaving; overwrites hit the newest tenth "
                + "of the keys half the time and otherwise follow a power law; deletes pick keys uniformly (some already deleted). Values are "
                + Workload.VALUE_MIN + " to " + Workload.VALUE_MAX + " random bytes (incompressible).\n");
        s.append("- **Write time**: the time inside put and delete calls, one thread, write-ahead log on and unsynced in both stores; "
                + "the workload is generated between batches, outside the timing.\n");
        s.append("- **Flush + compaction**: flush of the memtable, then a compaction of the whole key range "
                + "(RocksDB: `compactRange` with the bottommost level forced).\n");
        s.append(warmupOps > 0
                ? String.format(Locale.ROOT, "- **Warm-up**: before anything is timed, each store ran %,d operations of other seeds in a scratch "
                        + "store of its own, in four parts, each flushed and compacted, and deleted it; so the JVM had compiled Everett's "
                        + "write, flush and compaction paths, as in a store that has been running (`--warmup-ops 0` skips it).%n", warmupOps)
                : "- **Warm-up**: none (`--warmup-ops 0`): Everett's times include the JVM's first compilation of its paths, and its one "
                        + "compaction ran partly interpreted, as the first compaction of a freshly started store does.\n");
        s.append(String.format(Locale.ROOT, "- **Point lookups**: %,d random gets per store over every key written and a tenth more never written "
                + "(so some are absent: deleted or never written); "
                + "Everett found %,d, RocksDB %,d.%n", everett.lookups, everett.lookupsFound, rocks.lookupsFound));
        s.append(String.format(Locale.ROOT, "- **Scan**: one forward pass over every live record (%,d records, %s of keys and values).%n",
                everett.scanned, mib(everett.scannedBytes)));
        s.append("- **Bytes on disk**: every file in each store's directory after the compaction, both stores still open.\n");
        s.append("- **RocksDB options**: no compression, 10-bit Bloom filters, a 256 MiB block cache, a 64 MiB memtable, leveled compaction, "
                + "info log at header level. **Everett**: `EverettDB` defaults with the policy above.\n\n");
        s.append("Files after compaction: Everett ").append(everett.files).append("; RocksDB ").append(rocks.files).append(".\n\n");
        if (noEverettSegments()) {
            s.append("**Note**: ").append(NO_SEGMENTS).append("\n\n");
        }
        s.append("Run it again with `./everett demo --ops ").append(operations).append(" --seed ").append(seed)
                .append(" --format ").append(policy.format().name().toLowerCase(Locale.ROOT))
                .append(" --gets ").append(check.getsFound + check.getsAbsent + check.getsDisagreeing)
                .append(" --lookups ").append(everett.lookups).append(" --warmup-ops ").append(warmupOps).append("`.\n");
        return s.toString();
    }

    private static String mib(long bytes) {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / 1048576.0);
    }

    private static String fixed1(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    private static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.2f s", nanos / 1e9);
    }

    private static String rate(long count, long nanos) {
        return String.format(Locale.ROOT, "%,.0f", count / (Math.max(1, nanos) / 1e9));
    }

    private static String latency(Histogram h) {
        return String.format(Locale.ROOT, "%.2f / %.2f µs", h.getValueAtPercentile(50) / 1000.0, h.getValueAtPercentile(99) / 1000.0);
    }
}

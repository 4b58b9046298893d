package dev.everett.cli;

import dev.everett.api.Policy;
import dev.everett.api.TemporaryFiles;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code demo}: the project's main job in one command. The same seeded workload runs on EverettDB
 * and on RocksDB, both are flushed and compacted, their full contents and random gets are
 * compared, and the costs are set side by side in a table, {@code demo-report.md} and a chart.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Runs one workload on EverettDB and on RocksDB and compares them.",
            "About two million operations by default (inserts, skewed overwrites, deletes over structured keys); "
                + "flushes and compacts both, checks that their full contents and random gets agree, and prints bytes "
                + "on disk, write and compaction time and lookup and scan throughput with the ratios. Writes "
                + "demo-report.md and a PNG chart of the ratios. Exit code 1 if the two stores disagree."})
final class DemoCommand implements Callable<Integer> {
    /** Operations per timed batch: the workload is generated between batches, outside the timings. */
    private static final int BATCH = 8192;
    /** The warm-up's size unless --warmup-ops says otherwise: enough for the JIT to compile the write, flush and merge loops. */
    static final long DEFAULT_WARMUP_OPS = 200_000;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--ops", paramLabel = "N", defaultValue = "2000000", description = "Operations in the workload (default ${DEFAULT-VALUE}).")
    long operations;

    @Option(names = "--format", paramLabel = "kv02|kv03", defaultValue = "kv02", description = "Everett's segment format (default ${DEFAULT-VALUE}).")
    LoadCommand.Format format;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "20261203", description = "Workload seed (default ${DEFAULT-VALUE}); the same seed gives the same workload.")
    long seed;

    @Option(names = "--gets", paramLabel = "N", defaultValue = "10000", description = "Random gets whose answers are compared (default ${DEFAULT-VALUE}).")
    int checkedGets;

    @Option(names = "--lookups", paramLabel = "N", defaultValue = "200000", description = "Random gets timed on each store (default ${DEFAULT-VALUE}).")
    int lookups;

    @Option(names = "--warmup-ops", paramLabel = "N",
            description = "Operations of an untimed warm-up on each store first, in a scratch store deleted afterwards "
                + "(default a tenth of --ops, at most " + DEFAULT_WARMUP_OPS + "; 0: none, and Everett's timings then include the JVM's "
                + "first compilation of its paths).")
    Long warmupOps;

    @Option(names = "--dir", paramLabel = "DIR", description = "Where the two stores are written (kept); default a temporary directory, deleted afterwards.")
    Path dir;

    @Option(names = "--report", paramLabel = "FILE", defaultValue = "demo-report.md", description = "The Markdown report (default ${DEFAULT-VALUE}).")
    Path report;

    @Option(names = "--chart", paramLabel = "FILE", description = "The PNG chart of the ratios (default demo-chart.png beside the report).")
    Path chart;

    @Override
    public Integer call() throws IOException {
        if (operations < 1 || checkedGets < 0 || lookups < 1 || (warmupOps != null && warmupOps < 0)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--ops and --lookups must be at least 1, --gets and --warmup-ops at least 0");
        }
        long warmup = warmupOps != null ? warmupOps : Math.min(DEFAULT_WARMUP_OPS, operations / 10);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        boolean terminal = System.console() != null && System.console().isTerminal();
        Policy policy = LoadCommand.policy(spec, format, Policy.DEFAULT_WIDTH, Policy.DEFAULT_WIDTH, dev.everett.api.ValueGrammar.OPTIONAL);
        Path chartFile = chart != null ? chart : report.resolveSibling("demo-chart.png");
        // Where the results go is checked before the run, not found wrong after it.
        OutputFile.check("--report", report);
        OutputFile.check("--chart", chartFile);
        if (report.toAbsolutePath().normalize().equals(chartFile.toAbsolutePath().normalize())) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--report and --chart name the same file " + report);
        }
        boolean temporary = dir == null;
        if (!temporary && Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new CliException(dir + ": not a directory (--dir names where the two stores are written)");
        }
        if (!temporary && Files.isDirectory(dir)) {
            try (Stream<Path> entries = Files.list(dir)) {
                if (entries.findAny().isPresent()) {
                    throw new CommandLine.ParameterException(spec.commandLine(), "--dir " + dir + " must be empty or absent");
                }
            }
        }
        Path work = temporary ? temporaryDirectoryName() : dir;
        // Ctrl-C (or a kill) ends the JVM without the finally below: the temporary stores go with
        // it. The hook is in place before the directory exists, so no moment leaves it behind.
        ExitCleanup cleanup = temporary ? ExitCleanup.of(work) : null;
        if (temporary) {
            Files.createDirectory(work);
        }
        out.printf("Everett demo: %,d operations (%d%% inserts, %d%% skewed overwrites, %d%% deletes), Everett format %s, seed %d%n",
                operations, Workload.INSERT_PERCENT, Workload.OVERWRITE_PERCENT, 100 - Workload.INSERT_PERCENT - Workload.OVERWRITE_PERCENT,
                policy.format(), seed);
        out.flush();
        DemoResult result;
        try {
            if (warmup > 0) {
                warmUp(new EverettDemoStore(work.resolve("warmup-everett"), policy), warmup, err, terminal);
                warmUp(new RocksDemoStore(work.resolve("warmup-rocksdb")), warmup, err, terminal);
            }
            try (DemoStore everett = new EverettDemoStore(work.resolve("everett"), policy);
                 DemoStore rocks = new RocksDemoStore(work.resolve("rocksdb"))) {
                DemoStore[] stores = {everett, rocks};
                Workload workload = new Workload(seed, operations);
                DemoResult.Side[] sides = new DemoResult.Side[2];
                // One store at a time, write then flush + compaction, so that neither store's background work runs during the other's.
                for (int i = 0; i < 2; i++) {
                    sides[i] = new DemoResult.Side(stores[i].name());
                    sides[i].writeNanos = write(stores[i], workload, new Progress(err, terminal, stores[i].name() + ": write", operations));
                    Progress p = new Progress(err, terminal, stores[i].name() + ": flush + compact", 1);
                    p.update(0);
                    long t = System.nanoTime();
                    stores[i].flushAndCompact();
                    sides[i].compactNanos = System.nanoTime() - t;
                    p.done();
                }
                DemoResult.Check check = check(everett, rocks, workload.keysInserted(), err, terminal);
                byte[][] keys = lookupKeys(new SplittableRandom(seed ^ 0x5DEECE66DL), workload.keysInserted(), lookups);
                for (int i = 0; i < 2; i++) {
                    lookup(stores[i], keys, sides[i], new Progress(err, terminal, stores[i].name() + ": point lookups", keys.length));
                }
                for (int i = 0; i < 2; i++) {
                    scan(stores[i], sides[i], check.liveRecords, new Progress(err, terminal, stores[i].name() + ": scan", check.liveRecords));
                }
                for (int i = 0; i < 2; i++) {
                    sides[i].bytesOnDisk = Sizes.treeBytes(stores[i].directory());
                    sides[i].files = stores[i].describeFiles();
                }
                result = new DemoResult(operations, seed, policy, warmup, workload.keysInserted(), sides[0], sides[1], check);
            }
        } finally {
            if (temporary) {
                IndexChain.deleteTree(work);
                cleanup.close();
            }
        }
        String table = result.table();
        out.print(table);
        out.println(result.checkLine());
        writeResults(result, chartFile);
        out.println("report: " + report + ", chart: " + chartFile + (temporary ? "" : ", stores kept in " + work));
        return result.check.agree() ? 0 : Everett.FAILED;
    }

    /**
     * Writes the report and the chart, each under a temporary name beside it and then renamed over
     * it, so that a failure (a full disk) or an interrupt leaves the old files or the new ones,
     * never a part of one; a failure names the file.
     */
    private void writeResults(DemoResult result, Path chartFile) throws IOException {
        Path reportTmp = TemporaryFiles.beside(report.toAbsolutePath());
        Path chartTmp = TemporaryFiles.beside(chartFile.toAbsolutePath());
        Path writing = report;
        try {
            Files.writeString(reportTmp, result.markdown(chartFile.getFileName().toString()));
            writing = chartFile;
            DemoChart.write(result, chartTmp);
            writing = report;
            Files.move(reportTmp, report, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            writing = chartFile;
            Files.move(chartTmp, chartFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new CliException(writing + ": cannot write: " + Everett.describe(e), e);
        } finally {
            Files.deleteIfExists(reportTmp);
            Files.deleteIfExists(chartTmp);
        }
    }

    /**
     * The untimed warm-up: {@code ops} operations of other seeds in four parts, each flushed and
     * compacted (so that all but the first compaction merge a new run into an older one), in a
     * scratch store that is then closed and deleted. A JVM compiles a loop only after running it for a
     * while, so without this the one timed compaction of the run would be Everett's first, run
     * partly interpreted (several times as long), where a store that has been running is
     * compiled. RocksDB, native code, runs the same warm-up, so both start with warm caches of
     * their own.
     */
    private void warmUp(DemoStore store, long ops, PrintWriter err, boolean terminal) throws IOException {
        Path where = store.directory();
        try (store) {
            Progress progress = new Progress(err, terminal, store.name() + ": warm-up (untimed)", 4);
            progress.update(0);
            for (int part = 0; part < 4; part++) {
                long n = ops / 4 + (part < ops % 4 ? 1 : 0);
                if (n > 0) {
                    write(store, new Workload(seed ^ (0x9E3779B97F4A7C15L * (part + 1)), n), Progress.silent());
                }
                store.flushAndCompact();
                progress.update(part + 1);
            }
            progress.done();
        } finally {
            IndexChain.deleteTree(where);
        }
    }

    /** Applies the whole workload; returns the time spent in the store's calls. */
    private static long write(DemoStore store, Workload workload, Progress progress) {
        workload.restart();
        byte[][] keys = new byte[BATCH][];
        byte[][] values = new byte[BATCH][];
        long nanos = 0;
        long done = 0;
        while (true) {
            int n = 0;
            while (n < BATCH && workload.next()) {
                keys[n] = workload.key;
                values[n] = workload.value;
                n++;
            }
            if (n == 0) {
                break;
            }
            long t = System.nanoTime();
            for (int i = 0; i < n; i++) {
                if (values[i] == null) {
                    store.delete(keys[i]);
                } else {
                    store.put(keys[i], values[i]);
                }
            }
            nanos += System.nanoTime() - t;
            done += n;
            progress.update(done);
        }
        progress.done();
        return nanos;
    }

    /** Compares the two stores' full contents in key order and then random gets. */
    private DemoResult.Check check(DemoStore everett, DemoStore rocks, long keysInserted, PrintWriter err, boolean terminal) {
        DemoResult.Check c = new DemoResult.Check();
        Progress p = new Progress(err, terminal, "check: full contents", Math.max(1, keysInserted));
        try (DemoStore.Cursor a = everett.newCursor(); DemoStore.Cursor b = rocks.newCursor()) {
            a.seekToFirst();
            b.seekToFirst();
            while (a.isValid() && b.isValid()) {
                byte[] ka = a.key();
                byte[] kb = b.key();
                if (!Arrays.equals(ka, kb) || !Arrays.equals(a.value(), b.value())) {
                    c.firstDifference = "at record " + c.liveRecords + ": Everett has " + ByteText.render(ka, ByteText.Style.TEXT)
                            + ", RocksDB has " + ByteText.render(kb, ByteText.Style.TEXT) + (Arrays.equals(ka, kb) ? " (values differ)" : "");
                    break;
                }
                c.liveRecords++;
                a.next();
                b.next();
                if ((c.liveRecords & 0xFFFF) == 0) {
                    p.update(c.liveRecords);
                }
            }
            if (c.firstDifference == null && (a.isValid() || b.isValid())) {
                c.firstDifference = "after " + c.liveRecords + " records " + (a.isValid() ? "Everett" : "RocksDB") + " has more";
            }
        }
        p.done();
        SplittableRandom random = new SplittableRandom(seed ^ 0x9E3779B97F4A7C15L);
        Progress g = new Progress(err, terminal, "check: random gets", checkedGets);
        for (int i = 0; i < checkedGets; i++) {
            byte[] key = Workload.key(random.nextLong(keysInserted + keysInserted / 10 + 1));
            byte[] va = everett.get(key);
            byte[] vb = rocks.get(key);
            if (!Arrays.equals(va, vb)) {
                c.getsDisagreeing++;
                if (c.firstGetDifference == null) {
                    c.firstGetDifference = ByteText.render(key, ByteText.Style.TEXT) + ": Everett " + (va == null ? "absent" : va.length + " bytes")
                            + ", RocksDB " + (vb == null ? "absent" : vb.length + " bytes");
                }
            } else if (va == null) {
                c.getsAbsent++;
            } else {
                c.getsFound++;
            }
            g.update(i + 1);
        }
        g.done();
        return c;
    }

    /** Keys for the timed lookups: ids over the inserted range and a tenth beyond it (absent keys). */
    private static byte[][] lookupKeys(SplittableRandom random, long keysInserted, int n) {
        byte[][] keys = new byte[n][];
        for (int i = 0; i < n; i++) {
            keys[i] = Workload.key(random.nextLong(keysInserted + keysInserted / 10 + 1));
        }
        return keys;
    }

    private static void lookup(DemoStore store, byte[][] keys, DemoResult.Side side, Progress progress) {
        Histogram latency = new Histogram(3_600_000_000_000L, 3);
        long found = 0;
        long start = System.nanoTime();
        for (int i = 0; i < keys.length; i++) {
            long t = System.nanoTime();
            if (store.get(keys[i]) != null) {
                found++;
            }
            latency.recordValue(Math.max(1, System.nanoTime() - t));
            if ((i & 0x3FFF) == 0) {
                progress.update(i);
            }
        }
        side.lookupNanos = System.nanoTime() - start;
        side.lookups = keys.length;
        side.lookupsFound = found;
        side.latency = latency;
        progress.done();
    }

    private static void scan(DemoStore store, DemoResult.Side side, long expected, Progress progress) {
        long records = 0;
        long bytes = 0;
        long start = System.nanoTime();
        try (DemoStore.Cursor c = store.newCursor()) {
            for (c.seekToFirst(); c.isValid(); c.next()) {
                bytes += c.key().length + c.value().length;
                if ((++records & 0xFFFF) == 0) {
                    progress.update(records);
                }
            }
        }
        side.scanNanos = System.nanoTime() - start;
        side.scanned = records;
        side.scannedBytes = bytes;
        progress.update(Math.max(records, expected));
    }

    /** A fresh name for the demo's temporary stores, as {@link Files#createTempDirectory} would choose, not yet created. */
    private static Path temporaryDirectoryName() {
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        java.security.SecureRandom random = new java.security.SecureRandom();
        for (;;) {
            Path p = tmp.resolve("everett-demo-" + Long.toUnsignedString(random.nextLong()));
            if (!Files.exists(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                return p;
            }
        }
    }
}

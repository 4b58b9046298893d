package dev.everett.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.store.EverettDB;
import dev.everett.store.EverettIterator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksIterator;

/** The demo at a small size: its report states its check, and the kept stores bear the check out. */
class DemoCommandTest {
    @TempDir
    Path dir;

    @Test
    void aSmallDemoAgreesWithItsOwnCheck() throws Exception {
        Path stores = dir.resolve("stores");
        // The report named as a user would name it, relative to the working directory.
        Path report = Path.of("").toAbsolutePath().relativize(dir.resolve("report.md"));
        Cli.Result r = Cli.run("demo", "--ops", "30000", "--gets", "2000", "--lookups", "5000", "--dir", stores, "--report", report);
        assertEquals(0, r.exit(), r.toString());
        // The last line names the chart beside the report the way it names the report (as the README shows it).
        assertTrue(r.out().endsWith("report: " + report + ", chart: " + report.resolveSibling("demo-chart.png")
                + ", stores kept in " + stores + System.lineSeparator()), r.toString());
        String md = Files.readString(dir.resolve("report.md"));
        Matcher m = Pattern.compile("the full contents agree \\(([0-9,]+) live records\\) and 2,000 random gets agree").matcher(md);
        assertTrue(m.find(), md);
        long live = Long.parseLong(m.group(1).replace(",", ""));
        assertTrue(r.out().contains(m.group()), "the console prints the same check\n" + r);
        for (String row : new String[] {"| bytes on disk |", "| bytes per live key |", "| write time |", "| flush + compaction time |",
            "| point lookups |", "| scan |"}) {
            assertTrue(md.contains(row), row + " in\n" + md);
        }
        assertTrue(md.contains("each store ran 3,000 operations of other seeds in a scratch store"), "a tenth of --ops by default\n" + md);
        try (var kept = Files.list(stores)) {
            assertEquals(java.util.List.of("everett", "rocksdb"), kept.map(p -> p.getFileName().toString()).sorted().toList(),
                    "the warm-up stores are deleted");
        }
        byte[] png = Files.readAllBytes(dir.resolve("demo-chart.png"));
        assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G'}, Arrays.copyOf(png, 4));

        // The stores the demo kept hold the same records, as many as the report says.
        long count = 0;
        RocksDB.loadLibrary();
        try (EverettDB everett = EverettDB.open(stores.resolve("everett")); EverettIterator a = everett.newIterator();
             Options o = new Options(); RocksDB rocks = RocksDB.openReadOnly(o, stores.resolve("rocksdb").toString());
             RocksIterator b = rocks.newIterator()) {
            a.seekToFirst();
            b.seekToFirst();
            for (; a.isValid(); a.next(), b.next(), count++) {
                assertTrue(b.isValid(), "RocksDB ends early at " + count);
                assertArrayEquals(b.key(), a.key());
                assertArrayEquals(b.value(), a.value());
            }
            assertTrue(!b.isValid(), "RocksDB has more records");
        }
        assertEquals(live, count);
        assertTrue(live > 0 && live < 30000, "inserts minus deletes: " + live);
    }

    @Test
    void theWorkloadIsRepeatable() {
        Workload a = new Workload(7, 5000);
        Workload b = new Workload(7, 5000);
        long puts = 0;
        long deletes = 0;
        while (a.next()) {
            assertTrue(b.next());
            assertEquals(a.kind, b.kind);
            assertArrayEquals(a.key, b.key);
            assertArrayEquals(a.value, b.value);
            if (a.kind == Workload.Kind.PUT) {
                puts++;
            } else {
                deletes++;
            }
        }
        assertTrue(!b.next());
        assertEquals(5000, puts + deletes);
        assertTrue(deletes > 500 && deletes < 1000, "about 15% deletes: " + deletes);
    }

    @Test
    void aReportOrChartThatCannotBeWrittenIsRefusedBeforeTheRun() throws Exception {
        Path file = Files.writeString(dir.resolve("file"), "x");
        Object[][] cases = {
            {"--report", dir.resolve("missing").resolve("r.md"), dir.resolve("missing")},
            {"--report", dir, dir},
            {"--chart", file.resolve("c.png"), file},
            {"--dir", file, file},
            {"--report", Path.of("/dev/null"), "/dev/null"},
        };
        for (Object[] c : cases) {
            long start = System.nanoTime();
            Cli.Result r = Cli.run("demo", "--ops", "20000", c[0], c[1]);
            assertTrue(r.exit() != 0, r.toString());
            assertTrue(r.err().startsWith("everett demo: ") && r.err().contains(c[2] + ": ") && r.err().lines().count() == 1, r.toString());
            assertEquals("", r.out(), "refused before the run starts");
            assertTrue(System.nanoTime() - start < 5_000_000_000L, "refused at once");
        }
    }

    @Test
    void theWarmUpCanBeSkippedButNotMadeNegative() throws Exception {
        Path report = dir.resolve("r.md");
        Cli.Result r = Cli.run("demo", "--ops", "3000", "--gets", "100", "--lookups", "100", "--warmup-ops", "0", "--report", report);
        assertEquals(0, r.exit(), r.toString());
        assertTrue(!r.err().contains("warm-up"), r.toString());
        assertTrue(Files.readString(report).contains("- **Warm-up**: none (`--warmup-ops 0`)"), Files.readString(report));
        Cli.Result bad = Cli.run("demo", "--ops", "3000", "--warmup-ops", "-1", "--report", dir.resolve("bad.md"));
        assertEquals(2, bad.exit(), bad.toString());
        assertTrue(bad.err().contains("--warmup-ops at least 0"), bad.toString());
    }

    @Test
    void theReportReplacesAnOldOneWholeAndNothingElseIsLeft() throws Exception {
        Path report = Files.writeString(dir.resolve("r.md"), "an old report");
        Cli.Result r = Cli.run("demo", "--ops", "3000", "--gets", "100", "--lookups", "100", "--report", report);
        assertEquals(0, r.exit(), r.toString());
        assertTrue(Files.readString(report).startsWith("# Everett demo report"));
        assertTrue(Files.readString(report).contains("Run it again with `./everett demo --ops 3000 --seed 20261203 --format kv02 --gets 100 --lookups 100 --warmup-ops 300`"),
                "the command that repeats the run, every option that shapes it included:\n" + Files.readString(report));
        try (var files = Files.list(dir)) {
            assertEquals(java.util.List.of("demo-chart.png", "r.md"), files.map(p -> p.getFileName().toString()).sorted().toList(),
                    "no temporary report or chart left beside them");
        }
    }

    @Test
    void anInterruptedDemoDeletesItsTemporaryStores() throws Exception {
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        ChildCli.interruptWhen(() -> stores(tmp) > 0, () -> { }, java.util.List.of("-Djava.io.tmpdir=" + tmp),
                "demo", "--ops", "5000000", "--report", dir.resolve("r.md"));
        try (var left = Files.list(tmp)) {
            assertEquals(java.util.List.of(), left.toList(), "the temporary stores are deleted");
        }
        assertTrue(!Files.exists(dir.resolve("r.md")), "no report");
    }

    /** Files in the demo's temporary directories under {@code tmp}. */
    private static long stores(Path tmp) throws java.io.IOException {
        try (var s = Files.walk(tmp)) {
            return s.filter(p -> p.toString().contains("everett-demo-") && Files.isRegularFile(p)).count();
        } catch (java.io.UncheckedIOException | java.nio.file.NoSuchFileException e) {
            return 0;
        }
    }
}

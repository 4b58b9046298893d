package dev.everett.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.api.Policy;
import dev.everett.compaction.Layout;
import dev.everett.segment.testing.DirectoryContents;
import dev.everett.store.DBOptions;
import dev.everett.store.EverettDB;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoreCommandsTest {
    @TempDir
    Path dir;

    @Test
    void putGetDeleteScanDump() {
        Path db = dir.resolve("db");
        for (String[] kv : new String[][] {{"apple", "red"}, {"banana", "yellow"}, {"cherry", "dark red"}, {"0x00ff", "0x01"}, {"apple", "green"}}) {
            Cli.Result r = Cli.run("put", db, kv[0], kv[1]);
            assertEquals(0, r.exit(), r.toString());
            assertEquals("OK\n", r.out());
        }
        assertEquals(0, Cli.run("delete", db, "cherry").exit());
        assertEquals(0, Cli.run("delete", db, "never-there").exit(), "deleting an absent key is not an error");
        assertEquals("green\n", Cli.run("get", db, "apple").out());
        assertEquals("0x01\n", Cli.run("get", "--hex", db, "0x00ff").out());
        Cli.Result gone = Cli.run("get", db, "cherry");
        assertEquals(1, gone.exit());
        assertEquals("everett get: cherry: not found\n", gone.err());
        assertEquals("0x00ff ==> 0x01\napple ==> green\nbanana ==> yellow\n", Cli.run("scan", db).out());
        assertEquals("banana ==> yellow\napple ==> green\n", Cli.run("scan", db, "--reverse", "--limit", "2").out());
        assertEquals("apple ==> green\n", Cli.run("scan", db, "--from", "a", "--to", "b").out());
        assertEquals("banana ==> yellow\napple ==> green\n", Cli.run("scan", db, "--reverse", "--from", "a").out());
        assertEquals("{\"key\":\"00ff\",\"value\":\"01\"}\n{\"key\":\"6170706c65\",\"value\":\"677265656e\"}\n"
                + "{\"key\":\"62616e616e61\",\"value\":\"79656c6c6f77\"}\n", Cli.run("dump", "--json", db).out());
        assertEquals("apple ==> green\n", Cli.run("dump", db, "--from", "apple", "--to", "b").out());
        assertEquals(2, Cli.run("scan", db, "--limit", "-5").exit());
    }

    @Test
    void anExistingStoreIsOpenedUnderThePolicyAndLayoutItRecords() throws Exception {
        Path db = dir.resolve("db");
        Policy policy = Policy.stringPolicy().withBlockWidth(7).withGroupSize(3);
        try (EverettDB d = EverettDB.open(db, new DBOptions().setPolicy(policy).setLevelLayout(Layout.WHOLE_RUN))) {
            d.put("apple".getBytes(), "red".getBytes());
            d.flush();
        }
        assertEquals("red\n", Cli.run("get", db, "apple").out());
        assertEquals(0, Cli.run("put", db, "banana", "yellow").exit());
        Cli.Result stats = Cli.run("stats", db);
        assertTrue(stats.out().contains("KV03"), stats.toString());
        Cli.Result asked = Cli.run("get", "--format", "kv02", db, "apple");
        assertEquals(1, asked.exit(), "a policy named on the command line that the store was not created with is refused: " + asked);
    }

    /** {@code compact --from/--to}: the segments holding the range go to the bottom, the rest stay in level 0. */
    @Test
    void compactARange() throws Exception {
        Path db = dir.resolve("db");
        for (String k : new String[] {"apple", "banana", "yam"}) { // below the level-0 compaction trigger (4)
            assertEquals(0, Cli.run("put", db, k, "1").exit()); // each put's close flushes one level-0 segment
        }
        Cli.Result compact = Cli.run("compact", db, "--from", "apple", "--to", "banana");
        assertEquals(0, compact.exit(), compact.toString());
        assertTrue(compact.out().startsWith("compacted " + db + " [apple, banana] in "), compact.toString());
        try (EverettDB d = EverettDB.open(db)) {
            assertEquals("1", d.getProperty("everett.num-files-at-level0"), "yam's segment stays: " + compact.out());
            assertEquals("1", d.getProperty("everett.num-files-at-level1"), compact.out());
        }
        Cli.Result open = Cli.run("compact", db, "--from", "x");
        assertEquals(0, open.exit(), open.toString());
        assertTrue(open.out().startsWith("compacted " + db + " [x, last key] in "), open.toString());
        Cli.Result bad = Cli.run("compact", db, "--to", "0xzz");
        assertEquals(2, bad.exit(), bad.toString());
    }

    @Test
    void statsCompactVerify() {
        Path db = dir.resolve("db");
        for (int i = 0; i < 30; i++) {
            assertEquals(0, Cli.run("put", db, "key" + (i % 20), "value" + i).exit());
        }
        Cli.Result stats = Cli.run("stats", db);
        assertEquals(0, stats.exit(), stats.toString());
        assertTrue(stats.out().contains("policy: KV02"), stats.toString());
        Cli.Result compact = Cli.run("compact", db);
        assertEquals(0, compact.exit(), compact.toString());
        assertTrue(compact.out().startsWith("compacted " + db + " in "), compact.toString());
        Cli.Result verify = Cli.run("verify", db);
        assertEquals(0, verify.exit(), verify.toString());
        assertTrue(verify.out().startsWith(db + ": OK: store opens, 20 live records read forward and back"), verify.toString());
        assertEquals("value29\n", Cli.run("get", db, "key9").out());
    }

    /** The commands that only read open the store read-only: not one file, name or byte changes. */
    @Test
    void readingCommandsLeaveTheStoreAsItIs() throws Exception {
        Path db = dir.resolve("db");
        try (EverettDB d = EverettDB.open(db)) {
            for (int i = 0; i < 50; i++) {
                d.put(("key" + i).getBytes(), ("value" + i).getBytes());
            }
            d.flush();
            d.put("logged".getBytes(), "only in the log".getBytes()); // replayed (and flushed) by a read-write open
        }
        java.util.Map<String, byte[]> before = DirectoryContents.of(db);
        String sst = dir.resolve("out.sst").toString();
        for (String[] command : new String[][] {{"get", "logged"}, {"scan"}, {"dump"}, {"stats"}, {"verify"}, {"export", "--sst", sst}}) {
            String[] args = new String[command.length + 1];
            args[0] = command[0];
            args[1] = db.toString();
            System.arraycopy(command, 1, args, 2, command.length - 1);
            Cli.Result r = Cli.run((Object[]) args);
            assertEquals(0, r.exit(), r.toString());
            DirectoryContents.assertUnchanged(before, db, command[0]);
        }
        assertEquals("only in the log\n", Cli.run("get", db, "logged").out());
        assertTrue(Cli.run("stats", db).out().contains("(read-only)"));
    }

    @Test
    void verifyNamesACorruptSegmentOfAStore() throws Exception {
        Path db = dir.resolve("db");
        try (EverettDB d = EverettDB.open(db)) {
            for (int i = 0; i < 3000; i++) {
                d.put(("key" + i).getBytes(), ("value" + i).getBytes());
            }
            d.compactRange();
        }
        assertEquals(0, Cli.run("verify", db).exit());
        Path segment;
        try (Stream<Path> s = Files.walk(db)) {
            segment = s.filter(p -> p.toString().endsWith(".kv")).max(Comparator.comparingLong(p -> p.toFile().length())).orElseThrow();
        }
        try (RandomAccessFile f = new RandomAccessFile(segment.toFile(), "rw")) {
            f.seek(f.length() / 2);
            int b = f.read();
            f.seek(f.length() / 2);
            f.write(b ^ 0x10);
        }
        Cli.Result r = Cli.run("verify", db);
        assertEquals(1, r.exit(), r.toString());
        assertTrue(r.out().contains(segment + ": CORRUPT: " + segment + " @"), r.toString());
    }

    @Test
    void aKv03StoreIsOpenedUnderItsOwnPolicy() {
        Path db = dir.resolve("bits");
        assertEquals(0, Cli.run("put", "--format", "kv03", db, "k", "v").exit());
        assertEquals("v\n", Cli.run("get", db, "k").out());
        assertTrue(Cli.run("stats", db).out().contains("policy: KV03"));
        Cli.Result wrong = Cli.run("get", "--format", "kv02", db, "k");
        assertEquals(1, wrong.exit());
        assertTrue(wrong.err().contains("policy"), wrong.toString());
    }

    @Test
    void aDirectoryWithoutAStoreIsRefused() throws Exception {
        Path empty = Files.createDirectories(dir.resolve("empty"));
        Cli.Result r = Cli.run("scan", empty);
        assertEquals(1, r.exit());
        assertEquals("everett scan: " + empty + ": not an Everett store (no STORE file)\n", r.err());
        Cli.Result v = Cli.run("verify", empty);
        assertEquals(1, v.exit());
        assertTrue(v.out().contains(empty + ": ERROR: " + empty + ": not an Everett store"), v.toString());
    }

    @Test
    void aStoreIsCreatedOnlyInANewOrEmptyDirectory() throws Exception {
        Path notes = Files.createDirectories(dir.resolve("notes"));
        Files.writeString(notes.resolve("readme.txt"), "mine");
        Path db = dir.resolve("db");
        assertEquals(0, Cli.run("put", db, "k", "v").exit());
        Path sst = dir.resolve("x.sst");
        assertEquals(0, Cli.run("export", db, "--sst", sst).exit());
        for (Cli.Result r : new Cli.Result[] {Cli.run("put", notes, "k", "v"), Cli.run("import", "--rocksdb", sst, "--out", notes)}) {
            assertEquals(1, r.exit(), r.toString());
            assertTrue(r.err().contains(notes + ": not an Everett store and not empty"), r.toString());
            assertEquals(1, r.err().lines().count(), r.toString());
            try (Stream<Path> s = Files.list(notes)) {
                assertEquals(java.util.List.of(notes.resolve("readme.txt")), s.toList(), "the directory is left as it was");
            }
        }
        Path empty = Files.createDirectories(dir.resolve("empty"));
        assertEquals(0, Cli.run("put", empty, "k", "v").exit(), "an empty directory takes a new store");
        Path missing = dir.resolve("missing");
        for (String command : new String[] {"scan", "stats", "compact"}) {
            Cli.Result r = Cli.run(command, missing);
            assertEquals("everett " + command + ": no such file: " + missing + "\n", r.err());
        }
    }

    @Test
    void anOptionThatDoesNotApplyToTheTargetIsRefusedNotIgnored() throws Exception {
        Path db = dir.resolve("db");
        assertEquals(0, Cli.run("put", db, "k", "v").exit());
        Path in = Files.writeString(dir.resolve("in.jsonl"), "{\"key\":\"6b\",\"value\":\"76\"}\n");
        Path kv = dir.resolve("a.kv");
        assertEquals(0, Cli.run("load", "--format", "kv02", in, kv).exit());
        Object[][] cases = {
            {"dump", "--format", "kv03", kv}, {"get", "--w", "7", kv, "k"}, {"dump", "--k", "7", kv},
            {"get", "--values", "raw", db, "k"}, {"dump", "--values", "optional", db},
        };
        for (Object[] c : cases) {
            Cli.Result r = Cli.run(c);
            assertEquals(2, r.exit(), r.toString());
            assertTrue(r.err().startsWith("everett " + c[0] + ": " + c[1] + " "), r.toString());
            assertTrue(r.err().contains(c[3].toString()), r.toString());
            assertEquals("", r.out());
        }
    }
}

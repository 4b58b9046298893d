package dev.everett.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SegmentCommandsTest {
    @TempDir
    Path dir;

    private Path jsonl(String name, String... lines) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, String.join("\n", lines) + "\n");
        return p;
    }

    /** apple=red, banana=yellow, cherry deleted, the empty key = empty value, a binary key; given out of order. */
    private Path fruit(String format) throws IOException {
        Path in = jsonl("fruit.jsonl",
                "{\"key\": \"62616e616e61\", \"value\": \"79656c6c6f77\"}",
                "{\"key\":\"6170706c65\",\"value\":\"726564\"}",
                "",
                "{\"value\": null, \"key\": \"636865727279\"}",
                "{\"key\":\"\",\"value\":\"\"}",
                "{\"key\":\"00ff\",\"value\":\"01\"}");
        Path out = dir.resolve("fruit-" + format + ".kv");
        Cli.Result r = Cli.run("load", "--format", format, in, out);
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().startsWith("wrote " + out + ": 5 records (1 tombstone)"), r.toString());
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"kv02", "kv03"})
    void loadDumpGet(String format) throws IOException {
        Path kv = fruit(format);
        assertTrue(Files.isDirectory(IndexChain.dirFor(kv)), "index chain beside the file");
        Cli.Result dump = Cli.run("dump", kv);
        assertEquals(0, dump.exit(), dump.toString());
        assertEquals("0x ==> 0x\n0x00ff ==> 0x01\napple ==> red\nbanana ==> yellow\ncherry (tombstone)\n", dump.out());
        assertEquals("0x6170706c65 ==> 0x726564\n0x62616e616e61 ==> 0x79656c6c6f77\n",
                Cli.run("dump", "--hex", "--from", "apple", "--to", "cherry", kv).out());
        assertEquals("{\"key\":\"636865727279\",\"value\":null}\n", Cli.run("dump", "--json", "--from", "c", kv).out());
        assertEquals("yellow\n", Cli.run("get", kv, "banana").out());
        assertEquals("0x01\n", Cli.run("get", kv, "0x00ff").out());
        assertEquals("0x79656c6c6f77\n", Cli.run("get", "--hex", kv, "banana").out());
        Cli.Result deleted = Cli.run("get", kv, "cherry");
        assertEquals(1, deleted.exit());
        assertEquals("everett get: cherry: deleted (tombstone)\n", deleted.err());
        Cli.Result absent = Cli.run("get", kv, "durian");
        assertEquals(1, absent.exit());
        assertEquals("everett get: durian: not found\n", absent.err());
        assertEquals(2, Cli.run("dump", "--hex", "--json", kv).exit(), "--hex and --json exclude each other");
    }

    @Test
    void withoutAChainGetAndDumpWalkTheFile() throws IOException {
        Path kv = fruit("kv02");
        IndexChain.deleteTree(IndexChain.dirFor(kv));
        assertEquals("yellow\n", Cli.run("get", kv, "banana").out());
        assertEquals(1, Cli.run("get", kv, "b").exit());
        assertEquals("apple ==> red\nbanana ==> yellow\n", Cli.run("dump", "--from", "a", "--to", "c", kv).out());
        assertTrue(Cli.run("inspect", kv).out().contains("index chain      none"));
        Cli.Result index = Cli.run("index", kv);
        assertEquals(0, index.exit(), index.toString());
        assertTrue(Cli.run("inspect", kv).out().contains("index chain      " + IndexChain.dirFor(kv) + " (head "));
    }

    @Test
    void inspectShowsPolicyCountsSectionsAndRange() throws IOException {
        Path kv = fruit("kv03");
        Cli.Result r = Cli.run("inspect", kv);
        assertEquals(0, r.exit(), r.toString());
        String out = r.out();
        assertTrue(out.contains("format           KV03"), out);
        assertTrue(out.contains("policy           unit bit, W 15, K 15, value width variable, backspace exp-golomb(k=0)"), out);
        assertTrue(out.contains("records          5 (4 values, 1 tombstone)"), out);
        assertTrue(out.contains("key range        0x .. cherry"), out);
        for (String section : new String[] {"envelope", "directory", "records", "ef-low", "ef-high", "ef-samples", "ef-sparse", "sort-dictionary"}) {
            assertTrue(out.contains("\n  " + section + " "), section + " in\n" + out);
        }
        assertTrue(out.contains("raw key bytes    19"), out);
    }

    @Test
    void mergeNewestWinsAndCanDropTombstones() throws IOException {
        Path old = fruit("kv02");
        Path newer = dir.resolve("newer.kv");
        assertEquals(0, Cli.run("load", "--format", "kv02",
                jsonl("newer.jsonl", "{\"key\":\"6170706c65\",\"value\":null}", "{\"key\":\"636865727279\",\"value\":\"6461726b\"}"), newer).exit());
        Path merged = dir.resolve("merged.kv");
        Cli.Result r = Cli.run("merge", old, newer, "--out", merged);
        assertEquals(0, r.exit(), r.toString());
        assertEquals("0x ==> 0x\n0x00ff ==> 0x01\napple (tombstone)\nbanana ==> yellow\ncherry ==> dark\n", Cli.run("dump", merged).out());
        Path dropped = dir.resolve("dropped.kv");
        assertEquals(0, Cli.run("merge", old, newer, "--out", dropped, "--drop-tombstones").exit());
        assertEquals("0x ==> 0x\n0x00ff ==> 0x01\nbanana ==> yellow\ncherry ==> dark\n", Cli.run("dump", dropped).out());
        assertEquals(0, Cli.run("verify", merged, dropped).exit());

        Path bits = fruit("kv03");
        Cli.Result mixed = Cli.run("merge", old, bits, "--out", dir.resolve("mixed.kv"));
        assertEquals(1, mixed.exit());
        assertTrue(mixed.err().contains(bits + ": written under KV03"), mixed.toString());
        assertEquals(2, Cli.run("merge", old, "--out", old).exit(), "the output may not be an input");
    }

    @Test
    void loadRefusesBadInputNamingTheLine() throws IOException {
        Path out = dir.resolve("x.kv");
        Cli.Result dup = Cli.run("load", "--format", "kv02",
                jsonl("dup.jsonl", "{\"key\":\"61\",\"value\":\"00\"}", "{\"key\":\"62\",\"value\":\"00\"}", "{\"key\":\"61\",\"value\":null}"), out);
        assertEquals(1, dup.exit());
        assertTrue(dup.err().contains("dup.jsonl:3: duplicate key 0x61 (also at line 1)"), dup.toString());
        Cli.Result syntax = Cli.run("load", "--format", "kv02", jsonl("bad.jsonl", "{\"key\":\"61\",\"value\":\"0\"}"), out);
        assertEquals(1, syntax.exit());
        assertTrue(syntax.err().contains("bad.jsonl:1:21: \"value\" has an odd number of hex digits"), syntax.toString());
        Cli.Result member = Cli.run("load", "--format", "kv02", jsonl("member.jsonl", "{\"key\":\"61\",\"val\":\"00\"}"), out);
        assertTrue(member.err().contains("member.jsonl:1:13: unknown member \"val\""), member.toString());
        Cli.Result raw = Cli.run("load", "--format", "kv02", "--values", "raw", jsonl("raw.jsonl", "{\"key\":\"61\",\"value\":null}"), out);
        assertEquals(1, raw.exit());
        assertTrue(raw.err().contains("raw.jsonl:1: a tombstone"), raw.toString());
        Path binary = dir.resolve("binary.jsonl");
        byte[] good = "{\"key\":\"61\",\"value\":\"00\"}\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        byte[] bytes = java.util.Arrays.copyOf(good, good.length + 6);
        System.arraycopy(new byte[] {'{', '"', (byte) 0xFF, (byte) 0xFE, '"', '\n'}, 0, bytes, good.length, 6);
        Files.write(binary, bytes);
        Cli.Result notText = Cli.run("load", "--format", "kv02", binary, out);
        assertEquals(1, notText.exit());
        assertTrue(notText.err().startsWith("everett load: " + binary + ":2:"), notText.toString()); // line 2, where the bytes that are not text break the record
        assertFalse(Files.exists(out), "nothing is written from bad input");
    }

    @Test
    void loadRefusesBytesThatAreNotTextNamingTheLineAndColumn() throws IOException {
        Path in = dir.resolve("bin.jsonl");
        Files.write(in, new byte[] {'{', '"', 'k', 'e', 'y', '"', ':', '"', (byte) 0xC3, (byte) 0xA9, '"', '}', '\n'});
        Path out = dir.resolve("x.kv");
        Cli.Result r = Cli.run("load", "--format", "kv02", in, out);
        assertEquals(1, r.exit(), r.toString());
        assertTrue(r.err().contains("bin.jsonl:1:8: \"key\" is not hex"), r.toString());
        assertFalse(Files.exists(out), "nothing is written from bad input");
    }

    @Test
    void aChainHeadThatIsNotTextIsRefusedNamingItAndTheOffset() throws IOException {
        Path kv = fruit("kv02");
        Path head = IndexChain.dirFor(kv).resolve("HEAD");
        byte[] b = Files.readAllBytes(head);
        b[16] = (byte) 0xFF; // inside the native's identity on the second line
        Files.write(head, b);
        Cli.Result r = Cli.run("get", kv, "banana");
        assertEquals(1, r.exit(), r.toString());
        assertTrue(r.err().contains(head + ": offset " + (b.length - "crc32c 01234567\n".length()) + ": HEAD checksum mismatch"), r.toString());
    }

    @Test
    void rawGrammarRoundTrips() throws IOException {
        Path out = dir.resolve("raw.kv");
        Path in = jsonl("raw.jsonl", "{\"key\":\"61\",\"value\":\"\"}", "{\"key\":\"62\",\"value\":\"0102\"}");
        assertEquals(0, Cli.run("load", "--format", "kv02", "--values", "raw", "--w", "1", "--k", "3", in, out).exit());
        assertEquals(Files.readString(in).replace("\n", "\n"), Cli.run("dump", "--json", "--values", "raw", out).out());
        assertTrue(Cli.run("inspect", "--values", "raw", out).out().contains("W 1, K 3"));
    }

    @Test
    void anInterruptedLoadLeavesNoTemporaryChain() throws Exception {
        Path in = jsonl("one.jsonl", "{\"key\":\"61\",\"value\":\"31\"}");
        ChildCli.interruptWhen(() -> !ChildCli.temporaries(dir).isEmpty(), () -> { }, java.util.List.of("-Deverett.test.pause-ms=60000"),
                "load", "--format", "kv02", in, dir.resolve("many.kv"));
        assertEquals(java.util.List.of(), ChildCli.temporaries(dir), "an interrupt deletes the chain being built");
    }

    @Test
    void aDumpStopsWhenItsReaderHasGone() throws IOException {
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < 20_000; i++) {
            lines.append(String.format("{\"key\":\"%08x\",\"value\":\"00\"}%n", i));
        }
        Path kv = dir.resolve("many.kv");
        assertEquals(0, Cli.run("load", "--format", "kv02", Files.writeString(dir.resolve("many.jsonl"), lines), kv).exit());
        Path db = dir.resolve("db");
        try (dev.everett.store.EverettDB store = dev.everett.store.EverettDB.open(db)) {
            for (int i = 0; i < 20_000; i++) {
                store.put(String.format("%08x", i).getBytes(), new byte[] {0});
            }
        }
        for (String[] args : new String[][] {{"dump", kv.toString()}, {"scan", db.toString()}}) {
            // A reader that takes 100 characters and then closes the pipe, as `| head -1` does.
            long[] attempts = new long[1];
            java.io.Writer pipe = new java.io.Writer() {
                long taken;

                @Override
                public void write(char[] c, int off, int len) throws IOException {
                    attempts[0]++;
                    taken += len;
                    if (taken > 100) {
                        throw new IOException("Broken pipe");
                    }
                }

                @Override
                public void flush() {
                }

                @Override
                public void close() {
                }
            };
            java.io.StringWriter err = new java.io.StringWriter();
            int exit = Everett.run(args, new java.io.PrintWriter(pipe), new java.io.PrintWriter(err, true));
            assertEquals(141, exit, args[0] + ": " + err);
            assertEquals("", err.toString(), "no message for a closed pipe");
            assertTrue(attempts[0] < 20_000, args[0] + " stopped early, not after writing every record: " + attempts[0] + " writes");
        }
    }
}

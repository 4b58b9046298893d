package dev.everett.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VerifyCommandTest {
    @TempDir
    Path dir;

    private Path segment(String name, int records) throws IOException {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < records; i++) {
            s.append(String.format("{\"key\":\"%08x\",\"value\":\"%04x\"}%n", i * 7, i));
        }
        Path in = dir.resolve(name + ".jsonl");
        Files.writeString(in, s);
        Path kv = dir.resolve(name + ".kv");
        assertEquals(0, Cli.run("load", "--format", "kv02", in, kv).exit());
        return kv;
    }

    /** Flips one byte of a copy made first, so the chain's hard link keeps the original bytes. */
    private static void flip(Path file, long offset) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        bytes[(int) offset] ^= 0x20;
        Path tmp = file.resolveSibling(file.getFileName() + ".flipped");
        Files.write(tmp, bytes);
        Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    @Test
    void intactFilesPass() throws IOException {
        Path a = segment("a", 500);
        Cli.Result r = Cli.run("verify", a);
        assertEquals(0, r.exit(), r.toString());
        assertEquals(a + ": OK: 500 records, 34 blocks, canonical; index chain " + IndexChain.dirFor(a) + " OK\n", r.out());
    }

    @Test
    void aCorruptFileIsNamedAndExitsOne() throws IOException {
        Path good = segment("good", 300);
        Path bad = segment("bad", 300);
        IndexChain.deleteTree(IndexChain.dirFor(bad));
        flip(bad, 96 + 128 + 40); // inside the record stream
        Cli.Result r = Cli.run("verify", good, bad);
        assertEquals(1, r.exit(), r.toString());
        assertTrue(r.out().contains(good + ": OK"), r.toString());
        assertTrue(r.out().contains(bad + ": CORRUPT: " + bad + " @"), r.toString());
        assertTrue(r.err().contains("everett verify: 1 check failed"), r.toString());
    }

    @Test
    void aCorruptHeaderIsNamed() throws IOException {
        Path bad = segment("header", 10);
        IndexChain.deleteTree(IndexChain.dirFor(bad));
        flip(bad, 24); // K
        Cli.Result r = Cli.run("verify", bad);
        assertEquals(1, r.exit());
        assertTrue(r.out().contains(bad + ": CORRUPT: " + bad + " @68: header CRC32C mismatch"), r.toString());
    }

    @Test
    void aCorruptIndexObjectIsNamed() throws IOException {
        Path kv = segment("indexed", 2000);
        Path index;
        try (Stream<Path> s = Files.walk(IndexChain.dirFor(kv))) {
            index = s.filter(p -> p.toString().endsWith(".index")).findFirst().orElseThrow();
        }
        try (RandomAccessFile f = new RandomAccessFile(index.toFile(), "rw")) {
            f.seek(f.length() - 3);
            int b = f.read();
            f.seek(f.length() - 3);
            f.write(b ^ 0x01);
        }
        Cli.Result r = Cli.run("verify", kv);
        assertEquals(1, r.exit(), r.toString());
        assertTrue(r.out().contains(kv + ": CORRUPT: ") && r.out().contains(".index"), r.toString());
    }

    @Test
    void aStaleChainIsRefused() throws IOException {
        Path kv = segment("stale", 50);
        flip(kv, 96 + 128 + 20);
        Cli.Result r = Cli.run("verify", kv);
        assertEquals(1, r.exit());
        // the replaced file is corrupt and fails first; a well-formed replacement names the stale chain
        Path other = segment("other", 60);
        Files.copy(other, kv, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Cli.Result stale = Cli.run("verify", kv);
        assertEquals(1, stale.exit(), stale.toString());
        assertTrue(stale.out().contains("stale index chain"), stale.toString());
        assertEquals(1, Cli.run("get", kv, "0x00000000").exit(), "get refuses a stale chain");
        assertEquals(0, Cli.run("index", kv).exit());
        assertEquals(0, Cli.run("verify", kv).exit());
    }

    @Test
    void whatIsNotDamageIsAnErrorNotCorrupt() throws IOException {
        Path good = segment("good", 10);
        Path missing = dir.resolve("missing.kv");
        Path db = dir.resolve("db");
        assertEquals(0, Cli.run("put", db, "k", "v").exit());
        try (dev.everett.store.EverettDB open = dev.everett.store.EverettDB.open(db)) {
            Cli.Result r = Cli.run("verify", good, missing, db);
            assertEquals(1, r.exit(), r.toString());
            assertTrue(r.out().contains(good + ": OK"), r.toString());
            assertTrue(r.out().contains(missing + ": ERROR: no such file: " + missing + "\n"), r.toString());
            assertTrue(r.out().contains(db + ": ERROR: store at " + db + " is open for writing"), r.toString());
            assertTrue(!r.out().contains("CORRUPT"), r.toString());
            assertTrue(r.err().contains("everett verify: 2 checks failed"), r.toString());
        }
    }
}

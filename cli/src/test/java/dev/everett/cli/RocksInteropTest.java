package dev.everett.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.store.EverettDB;
import dev.everett.store.EverettIterator;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.IngestExternalFileOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

/** import from RocksDB, export to an SST, ingest into a fresh RocksDB: the contents come back. */
class RocksInteropTest {
    static {
        RocksDB.loadLibrary();
    }

    @TempDir
    Path dir;

    private static TreeMap<byte[], byte[]> randomContents(long seed, int n) {
        SplittableRandom random = new SplittableRandom(seed);
        TreeMap<byte[], byte[]> m = new TreeMap<>(Arrays::compareUnsigned);
        while (m.size() < n) {
            byte[] k = new byte[1 + random.nextInt(30)];
            random.nextBytes(k);
            byte[] v = new byte[random.nextInt(200)];
            random.nextBytes(v);
            m.put(k, v);
        }
        return m;
    }

    private static TreeMap<byte[], byte[]> contents(RocksDB db) {
        TreeMap<byte[], byte[]> m = new TreeMap<>(Arrays::compareUnsigned);
        try (RocksIterator it = db.newIterator()) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                m.put(it.key(), it.value());
            }
        }
        return m;
    }

    private static TreeMap<byte[], byte[]> contents(Path everett) {
        TreeMap<byte[], byte[]> m = new TreeMap<>(Arrays::compareUnsigned);
        try (EverettDB db = EverettDB.open(everett); EverettIterator it = db.newIterator()) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                m.put(it.key(), it.value());
            }
        }
        return m;
    }

    private static void assertSame(TreeMap<byte[], byte[]> expected, TreeMap<byte[], byte[]> actual, String context) {
        assertEquals(expected.size(), actual.size(), context + ": record count");
        var a = actual.entrySet().iterator();
        for (var e : expected.entrySet()) {
            var f = a.next();
            assertTrue(Arrays.equals(e.getKey(), f.getKey()) && Arrays.equals(e.getValue(), f.getValue()), context + ": records differ");
        }
    }

    @Test
    void importExportIngestGivesBackTheSource() throws RocksDBException {
        long seed = Seeds.seed();
        String context = "seed " + seed + " (replay with -Deverett.seed=" + seed + ")";
        TreeMap<byte[], byte[]> source = randomContents(seed, 3000);
        Path rocksDir = dir.resolve("rocks");
        try (Options o = new Options().setCreateIfMissing(true); RocksDB rocks = RocksDB.open(o, rocksDir.toString())) {
            for (var e : source.entrySet()) {
                rocks.put(e.getKey(), e.getValue());
            }
            rocks.delete(source.firstKey()); // a tombstone in RocksDB must not come across
        }
        source.remove(source.firstKey());

        Path everett = dir.resolve("everett");
        Cli.Result imported = Cli.run("import", "--rocksdb", rocksDir, "--out", everett);
        assertEquals(0, imported.exit(), imported.toString());
        assertEquals("imported " + source.size() + " records from " + rocksDir + " into " + everett + "\n", imported.out());
        assertSame(source, contents(everett), context + ", import");

        Path sst = dir.resolve("export.sst");
        Cli.Result exported = Cli.run("export", everett, "--sst", sst);
        assertEquals(0, exported.exit(), exported.toString());
        assertTrue(exported.out().startsWith("exported " + source.size() + " records"), exported.toString());

        Path fresh = dir.resolve("fresh");
        try (Options o = new Options().setCreateIfMissing(true); RocksDB rocks = RocksDB.open(o, fresh.toString());
             IngestExternalFileOptions ingest = new IngestExternalFileOptions()) {
            rocks.ingestExternalFile(List.of(sst.toString()), ingest);
            assertSame(source, contents(rocks), context + ", ingested");
        }

        Path again = dir.resolve("again");
        Cli.Result fromSst = Cli.run("import", "--rocksdb", sst, "--out", again, "--format", "kv03");
        assertEquals(0, fromSst.exit(), fromSst.toString());
        assertSame(source, contentsKv03(again), context + ", import of the SST");
        assertEquals(1, Cli.run("export", everett, "--sst", sst).exit(), "an existing SST is not overwritten");
    }

    private static TreeMap<byte[], byte[]> contentsKv03(Path everett) {
        TreeMap<byte[], byte[]> m = new TreeMap<>(Arrays::compareUnsigned);
        try (EverettDB db = EverettDB.open(everett, new dev.everett.store.DBOptions().setPolicy(dev.everett.api.Policy.stringPolicy()));
             EverettIterator it = db.newIterator()) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                m.put(it.key(), it.value());
            }
        }
        return m;
    }

    @Test
    void anEmptyStoreCannotBeExported() {
        Path db = dir.resolve("db");
        assertEquals(0, Cli.run("put", db, "k", "v").exit());
        assertEquals(0, Cli.run("delete", db, "k").exit());
        Cli.Result r = Cli.run("export", db, "--sst", dir.resolve("x.sst"));
        assertEquals(1, r.exit());
        assertTrue(r.err().contains("an SST file cannot be empty"), r.toString());
    }
}

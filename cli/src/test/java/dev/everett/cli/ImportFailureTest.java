package dev.everett.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.DBOptions;
import org.rocksdb.EnvOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.SstFileWriter;

/** An import that cannot read its sources fails before it writes anything, and never drops records silently. */
class ImportFailureTest {
    @TempDir
    Path dir;

    private Path sst(String name, byte[]... keys) throws Exception {
        RocksDB.loadLibrary();
        Path sst = dir.resolve(name);
        try (EnvOptions env = new EnvOptions(); Options o = new Options(); SstFileWriter w = new SstFileWriter(env, o)) {
            w.open(sst.toString());
            for (byte[] k : keys) {
                w.put(k, k);
            }
            w.finish();
        }
        return sst;
    }

    @Test
    void aMissingSstCreatesNoStore() throws Exception {
        Path good = sst("good.sst", new byte[] {1}, new byte[] {2});
        Path out = dir.resolve("store");
        Cli.Result r = Cli.run("import", "--rocksdb", good, dir.resolve("missing.sst"), "--out", out);
        assertEquals(1, r.exit(), r.toString());
        assertTrue(r.err().contains("missing.sst"), r.toString());
        assertFalse(Files.exists(out), "a failed import leaves no store behind: " + r);
    }

    @Test
    void anOutputThatIsAFileIsNamedWithTheRule() throws Exception {
        Path good = sst("good.sst", new byte[] {1});
        Path out = dir.resolve("a-file");
        Files.write(out, new byte[] {1});
        Cli.Result r = Cli.run("import", "--rocksdb", good, "--out", out);
        assertEquals(1, r.exit(), r.toString());
        assertTrue(r.err().contains(out.toString()) && r.err().contains("not a directory"), r.toString());
        assertFalse(r.err().contains("Exception"), "a user error reads as one line, not an exception's name: " + r);
    }

    @Test
    void aCorruptSstCreatesNoStore() throws Exception {
        Path good = sst("good.sst", new byte[] {1}, new byte[] {2});
        Path corrupt = dir.resolve("corrupt.sst");
        Files.write(corrupt, new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
        Path out = dir.resolve("store");
        Cli.Result r = Cli.run("import", "--rocksdb", good, corrupt, "--out", out);
        assertEquals(1, r.exit(), r.toString());
        assertTrue(r.err().contains("corrupt.sst"), r.toString());
        assertFalse(Files.exists(out), "a failed import leaves no store behind: " + r);
    }

    @Test
    void aCorruptSstLeavesAnExistingStoreUnchanged() throws Exception {
        Path out = dir.resolve("store");
        assertEquals(0, Cli.run("put", out, "k", "v").exit());
        Path good = sst("good.sst", new byte[] {1}, new byte[] {2});
        Path corrupt = dir.resolve("corrupt.sst");
        Files.write(corrupt, new byte[64]);
        Cli.Result r = Cli.run("import", "--rocksdb", good, corrupt, "--out", out);
        assertEquals(1, r.exit(), r.toString());
        Cli.Result dump = Cli.run("dump", out);
        assertEquals("k ==> v\n", dump.out(), "the store holds what it held: " + dump);
    }

    /** A RocksDB directory with column families beyond the default one: importing the default alone would drop the rest. */
    @Test
    void aDatabaseWithOtherColumnFamiliesIsRefused() throws Exception {
        RocksDB.loadLibrary();
        Path rocksDir = dir.resolve("rocks");
        try (DBOptions o = new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true)) {
            List<ColumnFamilyDescriptor> cfs = List.of(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY),
                    new ColumnFamilyDescriptor("keyValueWithTimestamp".getBytes()));
            List<ColumnFamilyHandle> handles = new java.util.ArrayList<>();
            try (RocksDB rocks = RocksDB.open(o, rocksDir.toString(), cfs, handles)) {
                rocks.put(handles.get(0), new byte[] {1}, new byte[] {1});
                rocks.put(handles.get(1), new byte[] {2}, new byte[] {2});
                handles.forEach(ColumnFamilyHandle::close);
            }
        }
        Path out = dir.resolve("store");
        Cli.Result r = Cli.run("import", "--rocksdb", rocksDir, "--out", out);
        assertEquals(1, r.exit(), r.toString());
        assertTrue(r.err().contains("keyValueWithTimestamp") && r.err().contains(rocksDir.toString()), r.toString());
        assertFalse(Files.exists(out), r.toString());
    }

    @Test
    void anInterruptedImportLeavesNoStore() throws Exception {
        Path good = sst("good.sst", new byte[] {1}, new byte[] {2});
        Path out = dir.resolve("store");
        ChildCli.interruptWhen(() -> !ChildCli.temporaries(dir).isEmpty(), () -> {
            assertEquals(1, ChildCli.temporaries(dir).size(), "a new store is built under a temporary name");
            assertFalse(Files.exists(out), "the store's own name appears only when the import is whole");
        }, java.util.List.of("-Deverett.test.pause-ms=60000"),
                "import", "--rocksdb", good, "--out", out);
        assertEquals(java.util.List.of(), ChildCli.temporaries(dir), "an interrupt deletes the store being built");
        assertFalse(Files.exists(out));
        Files.createDirectories(out);
        Cli.Result r = Cli.run("import", "--rocksdb", good, "--out", out);
        assertEquals(0, r.exit(), r.toString());
        assertEquals("0x01 ==> 0x01\n0x02 ==> 0x02\n", Cli.run("scan", out).out(), "an empty directory is filled by the rename");
        assertEquals(java.util.List.of(), ChildCli.temporaries(dir));
    }
}

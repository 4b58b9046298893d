package dev.everett.integration;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.rocksdb.CompactRangeOptions;
import org.rocksdb.Env;
import org.rocksdb.FlushOptions;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.RocksMemEnv;
import org.rocksdb.Slice;
import org.rocksdb.Snapshot;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/** The oracle: RocksDB through rocksdbjni, with small memtables so flushes and compactions happen. */
final class RocksKv implements Kv {
    static {
        RocksDB.loadLibrary();
    }

    private final Path dir;
    private final WriteOptions writeOptions;
    /** An in-memory file system when durability is not under test (equivalence runs), else null. */
    private final Env memory;
    private Options options;
    private RocksDB db;

    private RocksKv(Path dir, boolean sync, boolean disableWal, boolean inMemory) throws RocksDBException {
        this.dir = dir;
        this.writeOptions = new WriteOptions().setSync(sync).setDisableWAL(disableWal);
        this.memory = inMemory ? new RocksMemEnv(Env.getDefault()) : null;
        open();
    }

    /**
     * The oracle for equivalence runs: files in memory (a reopen still goes through RocksDB's
     * recovery, but no flush or compaction waits for a disk shared with other jobs).
     */
    static RocksKv inMemory(Path dir) throws RocksDBException {
        return new RocksKv(dir, false, false, true);
    }

    /** On disk, for crash tests. */
    static RocksKv open(Path dir, boolean sync, boolean disableWal) throws RocksDBException {
        return new RocksKv(dir, sync, disableWal, false);
    }

    private void open() throws RocksDBException {
        options = new Options().setCreateIfMissing(true).setWriteBufferSize(256 << 10)
                .setTargetFileSizeBase(256 << 10).setMaxBytesForLevelBase(1 << 20)
                .setLevel0FileNumCompactionTrigger(3);
        if (memory != null) {
            options.setEnv(memory);
        }
        db = RocksDB.open(options, dir.toString());
    }

    RocksDB db() {
        return db;
    }

    @Override
    public String name() {
        return "RocksDB";
    }

    @Override
    public void put(byte[] key, byte[] value) throws RocksDBException {
        db.put(writeOptions, key, value);
    }

    @Override
    public void delete(byte[] key) throws RocksDBException {
        db.delete(writeOptions, key);
    }

    @Override
    public void singleDelete(byte[] key) throws RocksDBException {
        db.singleDelete(writeOptions, key);
    }

    @Override
    public void write(List<Op.Write> batch) throws RocksDBException {
        try (WriteBatch b = new WriteBatch()) {
            for (Op.Write w : batch) {
                switch (w) {
                    case Op.Put p -> b.put(p.key(), p.value());
                    case Op.Delete d -> b.delete(d.key());
                    case Op.SingleDelete s -> b.singleDelete(s.key());
                }
            }
            db.write(writeOptions, b);
        }
    }

    @Override
    public Object snapshot() {
        return db.getSnapshot();
    }

    @Override
    public void release(Object snapshot) {
        db.releaseSnapshot((Snapshot) snapshot);
    }

    @Override
    public byte[] get(Object snapshot, byte[] key) throws RocksDBException {
        if (snapshot == null) {
            return db.get(key);
        }
        try (ReadOptions ro = new ReadOptions().setSnapshot((Snapshot) snapshot)) {
            return db.get(ro, key);
        }
    }

    @Override
    public List<byte[]> multiGet(Object snapshot, List<byte[]> keys) throws RocksDBException {
        if (snapshot == null) {
            return db.multiGetAsList(keys);
        }
        try (ReadOptions ro = new ReadOptions().setSnapshot((Snapshot) snapshot)) {
            return db.multiGetAsList(ro, keys);
        }
    }

    @Override
    public Cursor cursor(Object snapshot, byte[] lower, byte[] upper) {
        List<AutoCloseable> owned = new ArrayList<>();
        ReadOptions ro = new ReadOptions();
        owned.add(ro);
        if (snapshot != null) {
            ro.setSnapshot((Snapshot) snapshot);
        }
        if (lower != null) {
            Slice s = new Slice(lower);
            owned.add(s);
            ro.setIterateLowerBound(s);
        }
        if (upper != null) {
            Slice s = new Slice(upper);
            owned.add(s);
            ro.setIterateUpperBound(s);
        }
        RocksIterator it = db.newIterator(ro);
        // The iterator first, then the options and the bound slices it points into.
        owned.addFirst(it);
        return new Cursor() {
            @Override public void seekToFirst() { it.seekToFirst(); }
            @Override public void seekToLast() { it.seekToLast(); }
            @Override public void seek(byte[] t) { it.seek(t); }
            @Override public void seekForPrev(byte[] t) { it.seekForPrev(t); }
            @Override public void next() { it.next(); }
            @Override public void prev() { it.prev(); }
            @Override public boolean isValid() throws RocksDBException {
                boolean valid = it.isValid();
                if (!valid) {
                    it.status();
                }
                return valid;
            }
            @Override public byte[] key() { return it.key(); }
            @Override public byte[] value() { return it.value(); }
            @Override public void close() throws Exception {
                for (AutoCloseable c : owned) {
                    c.close();
                }
            }
        };
    }

    @Override
    public void flush() throws RocksDBException {
        try (FlushOptions fo = new FlushOptions().setWaitForFlush(true)) {
            db.flush(fo);
        }
    }

    @Override
    public void compactAll() throws RocksDBException {
        try (CompactRangeOptions co = new CompactRangeOptions()
                .setBottommostLevelCompaction(CompactRangeOptions.BottommostLevelCompaction.kForce)) {
            db.compactRange(db.getDefaultColumnFamily(), null, null, co);
        }
    }

    @Override
    public void compactRange(byte[] lower, byte[] upper) throws RocksDBException {
        try (CompactRangeOptions co = new CompactRangeOptions()
                .setBottommostLevelCompaction(CompactRangeOptions.BottommostLevelCompaction.kForce)) {
            db.compactRange(db.getDefaultColumnFamily(), lower, upper, co);
        }
    }

    @Override
    public void reopen() throws RocksDBException {
        closeDb();
        open();
    }

    private void closeDb() {
        db.close();
        options.close();
    }

    @Override
    public void close() {
        closeDb();
        writeOptions.close();
        if (memory != null) {
            memory.close();
        }
    }
}

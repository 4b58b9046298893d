package dev.everett.integration;

import dev.everett.api.Policy;
import dev.everett.compaction.Layout;
import dev.everett.store.DBOptions;
import dev.everett.store.EverettDB;
import dev.everett.store.EverettIterator;
import dev.everett.store.ReadOptions;
import dev.everett.store.Snapshot;
import dev.everett.store.WriteBatch;
import dev.everett.store.WriteOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The store under test, EverettDB, in one of its configurations. */
final class EverettKv implements Kv {
    /** A store configuration the equivalence runs cover: segment format and level layout. */
    enum Format {
        KV02(Policy.defaultBytes()),
        KV03(Policy.stringPolicy());

        final Policy policy;

        Format(Policy policy) {
            this.policy = policy;
        }
    }

    /**
     * One store configuration: segment format and level layout, with small memtables and files so a
     * run of a few thousand ops flushes, compacts and builds several levels.
     */
    /** A format, a layout, and how the log is written ({@code mappedLog}: the default mapping, or one {@code write} call per group). */
    record Config(Format format, Layout layout, boolean mappedLog) {
        String name() {
            return "everett/" + format + "/" + layout + (mappedLog ? "" : "/write-calls");
        }

        DBOptions options() {
            return new DBOptions().setPolicy(format.policy).setLevelLayout(layout).setAllowMmapWrites(mappedLog)
                    .setWriteBufferSize(256 << 10).setTargetFileSizeBase(64 << 10)
                    .setMaxBytesForLevelBase(256 << 10).setLevel0FileNumCompactionTrigger(3);
        }
    }

    /**
     * Every configuration the store offers: each format in each level layout; half of them write
     * the log with {@code write} calls, so that each format and each layout meets both ways of
     * writing the log (and the crash harness's log kill point, which a file operation marks, lands
     * inside a commit group's write there rather than only when a mapped log grows).
     */
    static List<Config> configs() {
        List<Config> out = new ArrayList<>();
        for (Format f : Format.values()) {
            for (Layout l : Layout.values()) {
                out.add(new Config(f, l, (f.ordinal() + l.ordinal()) % 2 == 0));
            }
        }
        return out;
    }

    static List<Equivalence.Factory> configurations() {
        List<Equivalence.Factory> out = new ArrayList<>();
        for (Config c : configs()) {
            out.add(Systems.factory(c.name(), dir -> new EverettKv(dir, c, new WriteOptions())));
        }
        return out;
    }

    static Config config(String name) {
        for (Config c : configs()) {
            if (c.name().equals(name)) {
                return c;
            }
        }
        return null;
    }

    private final Path dir;
    private final Config config;
    private final WriteOptions writeOptions;
    private EverettDB db;

    EverettKv(Path dir, Config config, WriteOptions writeOptions) {
        this.dir = dir;
        this.config = config;
        this.writeOptions = writeOptions;
        this.db = EverettDB.open(dir, config.options());
    }

    EverettDB db() {
        return db;
    }

    @Override
    public String name() {
        return config.name();
    }

    @Override
    public void put(byte[] key, byte[] value) {
        db.put(writeOptions, key, value);
    }

    @Override
    public void delete(byte[] key) {
        db.delete(writeOptions, key);
    }

    @Override
    public void singleDelete(byte[] key) {
        db.singleDelete(writeOptions, key);
    }

    @Override
    public void write(List<Op.Write> batch) {
        WriteBatch b = new WriteBatch();
        for (Op.Write w : batch) {
            switch (w) {
                case Op.Put p -> b.put(p.key(), p.value());
                case Op.Delete d -> b.delete(d.key());
                case Op.SingleDelete s -> b.singleDelete(s.key());
            }
        }
        db.write(writeOptions, b);
    }

    @Override
    public Object snapshot() {
        return db.getSnapshot();
    }

    @Override
    public void release(Object snapshot) {
        db.releaseSnapshot((Snapshot) snapshot);
    }

    private static ReadOptions read(Object snapshot) {
        ReadOptions ro = new ReadOptions();
        if (snapshot != null) {
            ro.setSnapshot((Snapshot) snapshot);
        }
        return ro;
    }

    @Override
    public byte[] get(Object snapshot, byte[] key) {
        return db.get(read(snapshot), key);
    }

    @Override
    public List<byte[]> multiGet(Object snapshot, List<byte[]> keys) {
        return db.multiGetAsList(read(snapshot), keys);
    }

    @Override
    public Cursor cursor(Object snapshot, byte[] lower, byte[] upper) {
        ReadOptions ro = read(snapshot);
        if (lower != null) {
            ro.setIterateLowerBound(lower);
        }
        if (upper != null) {
            ro.setIterateUpperBound(upper);
        }
        EverettIterator it = db.newIterator(ro);
        return new Cursor() {
            @Override public void seekToFirst() { it.seekToFirst(); }
            @Override public void seekToLast() { it.seekToLast(); }
            @Override public void seek(byte[] t) { it.seek(t); }
            @Override public void seekForPrev(byte[] t) { it.seekForPrev(t); }
            @Override public void next() { it.next(); }
            @Override public void prev() { it.prev(); }
            @Override public boolean isValid() { return it.isValid(); }
            @Override public byte[] key() { return it.key(); }
            @Override public byte[] value() { return it.value(); }
            @Override public void close() { it.close(); }
        };
    }

    @Override
    public void flush() {
        db.flush();
    }

    @Override
    public void compactAll() {
        db.compactRange();
    }

    @Override
    public void compactRange(byte[] lower, byte[] upper) {
        db.compactRange(lower, upper);
    }

    @Override
    public void reopen() {
        db.close();
        db = EverettDB.open(dir, config.options());
    }

    @Override
    public void close() {
        db.close();
    }
}

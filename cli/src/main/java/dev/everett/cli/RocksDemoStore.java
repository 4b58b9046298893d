package dev.everett.cli;

import java.io.IOException;
import java.nio.file.Path;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.CompactRangeOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.FlushOptions;
import org.rocksdb.InfoLogLevel;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

/**
 * RocksDB through rocksdbjni, configured as the project's benchmarks configure it: no
 * compression (Everett does not compress either), 10-bit Bloom filters, a 256 MiB block cache
 * that holds the data, a 64 MiB memtable, the write-ahead log on and unsynced, leveled
 * compaction; the info log at header level so it does not count as data.
 */
final class RocksDemoStore implements DemoStore {
    static final long MEMTABLE_BYTES = 64L << 20;

    private final Path dir;
    private final LRUCache cache;
    private final Options options;
    private final RocksDB db;

    RocksDemoStore(Path dir) {
        RocksDB.loadLibrary();
        this.dir = dir;
        this.cache = new LRUCache(256L << 20);
        this.options = new Options().setCreateIfMissing(true)
                .setCompressionType(CompressionType.NO_COMPRESSION)
                .setBottommostCompressionType(CompressionType.NO_COMPRESSION)
                .setWriteBufferSize(MEMTABLE_BYTES)
                .setInfoLogLevel(InfoLogLevel.HEADER_LEVEL)
                .setTableFormatConfig(new BlockBasedTableConfig().setFilterPolicy(new BloomFilter(10, false)).setBlockCache(cache));
        try {
            this.db = RocksDB.open(options, dir.toString());
        } catch (RocksDBException e) {
            options.close();
            cache.close();
            throw new CliException("cannot open RocksDB at " + dir + ": " + e.getMessage(), e);
        }
    }

    @Override
    public String name() {
        return "RocksDB";
    }

    @Override
    public Path directory() {
        return dir;
    }

    @Override
    public void put(byte[] key, byte[] value) {
        try {
            db.put(key, value);
        } catch (RocksDBException e) {
            throw new CliException("RocksDB put failed: " + e.getMessage(), e);
        }
    }

    @Override
    public void delete(byte[] key) {
        try {
            db.delete(key);
        } catch (RocksDBException e) {
            throw new CliException("RocksDB delete failed: " + e.getMessage(), e);
        }
    }

    @Override
    public byte[] get(byte[] key) {
        try {
            return db.get(key);
        } catch (RocksDBException e) {
            throw new CliException("RocksDB get failed: " + e.getMessage(), e);
        }
    }

    @Override
    public void flushAndCompact() {
        try (FlushOptions flush = new FlushOptions().setWaitForFlush(true);
             CompactRangeOptions compact = new CompactRangeOptions()
                     .setBottommostLevelCompaction(CompactRangeOptions.BottommostLevelCompaction.kForce)) {
            db.flush(flush);
            db.compactRange(db.getDefaultColumnFamily(), null, null, compact);
        } catch (RocksDBException e) {
            throw new CliException("RocksDB flush or compaction failed: " + e.getMessage(), e);
        }
    }

    @Override
    public Cursor newCursor() {
        RocksIterator it = db.newIterator();
        return new Cursor() {
            @Override
            public void seekToFirst() {
                it.seekToFirst();
            }

            @Override
            public boolean isValid() {
                return it.isValid();
            }

            @Override
            public byte[] key() {
                return it.key();
            }

            @Override
            public byte[] value() {
                return it.value();
            }

            @Override
            public void next() {
                it.next();
            }

            @Override
            public void close() {
                it.close();
            }
        };
    }

    @Override
    public String describeFiles() throws IOException {
        try {
            StringBuilder levels = new StringBuilder();
            for (int level = 0; level < 7; level++) {
                String n = db.getProperty("rocksdb.num-files-at-level" + level);
                if (!n.equals("0")) {
                    levels.append(levels.isEmpty() ? "" : ", ").append(n).append(" at L").append(level);
                }
            }
            return "SST files: " + (levels.isEmpty() ? "none" : levels) + "; " + db.getProperty("rocksdb.total-sst-files-size") + " SST bytes";
        } catch (RocksDBException e) {
            throw new IOException("RocksDB property: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        db.close();
        options.close();
        cache.close();
    }
}

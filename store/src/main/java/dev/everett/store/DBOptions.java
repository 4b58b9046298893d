package dev.everett.store;

import dev.everett.api.FilterPolicy;
import dev.everett.api.Policy;
import dev.everett.api.ValueGrammar;
import dev.everett.compaction.Layout;
import dev.everett.compaction.StorageFiles;

import java.util.Objects;

/**
 * How a store is opened, with RocksJava's option names where RocksDB has the same knob. Setters
 * return {@code this}; nothing is checked until {@link EverettDB#open(java.nio.file.Path, DBOptions)},
 * which refuses a bad value with an {@link IllegalArgumentException} naming the option.
 */
public final class DBOptions implements AutoCloseable {

    private boolean createIfMissing = true;
    private boolean errorIfExists;
    private Policy policy = Policy.defaultBytes();
    private Layout layout = DEFAULT_LAYOUT;
    private long writeBufferSize = 64L << 20;
    private int maxWriteBufferNumber = 2;
    private long targetFileSizeBase = 64L << 20;
    private int numLevels = 7;
    private long maxBytesForLevelBase = 256L << 20;
    private double maxBytesForLevelMultiplier = 10;
    private int level0FileNumCompactionTrigger = 4;
    private int level0SlowdownWritesTrigger = 20;
    private int level0StopWritesTrigger = 36;
    private int bloomBitsPerKey = 10;
    private int maxBackgroundJobs = 2;
    private long rateLimiterBytesPerSecond;
    private boolean disableAutoCompactions;
    private boolean allowMmapWrites = true;
    /** Null: the real file system, as {@link #allowMmapWrites} says; tests substitute their own. */
    private StoreFiles files;
    /**
     * The most bytes one log may hold: open replays a log from one array, and a Java array holds
     * at most {@code Integer.MAX_VALUE - 8} bytes, less the window of zeros a mapped log may end
     * in after a crash. Tests lower it.
     */
    private long maxLogBytes = Integer.MAX_VALUE - 8 - MappedAppendFile.WINDOW;
    private StorageFiles treeFiles = StorageFiles.system();

    /** The level layout a new store gets unless told otherwise (the faster one in the store's measurements). */
    static final Layout DEFAULT_LAYOUT = Layout.PARTITIONED;

    public DBOptions() {
    }

    /**
     * Options for reopening the store in {@code dir} as it was created: its recorded segment policy
     * and level layout (its {@code STORE} descriptor, checked), every other option at its default.
     * The counterpart of RocksJava's {@code OptionsUtil.loadLatestOptions}, for tools that are
     * given a directory and nothing else.
     *
     * @throws java.nio.file.NoSuchFileException if {@code dir} holds no store
     * @throws CorruptFileException if the descriptor is damaged
     */
    public static DBOptions loadFrom(java.nio.file.Path dir) throws java.io.IOException {
        StoreDescriptor stored = StoreDescriptor.read(StoreFiles.DEFAULT, Objects.requireNonNull(dir, "dir"));
        return new DBOptions().setCreateIfMissing(false).setPolicy(stored.policy()).setLevelLayout(stored.layout());
    }

    /** Create the store if the directory holds none (default {@code true}, unlike RocksDB, so {@code open(dir)} just works). */
    public DBOptions setCreateIfMissing(boolean createIfMissing) {
        this.createIfMissing = createIfMissing;
        return this;
    }

    public boolean createIfMissing() {
        return createIfMissing;
    }

    /** Refuse to open a store that already exists (default {@code false}). */
    public DBOptions setErrorIfExists(boolean errorIfExists) {
        this.errorIfExists = errorIfExists;
        return this;
    }

    public boolean errorIfExists() {
        return errorIfExists;
    }

    /**
     * The segment policy: format (KV02 in byte or bit units, KV03 in bit units), block width W,
     * group size K and backspace code. Default {@link Policy#defaultBytes()} (KV02, K = W = 15).
     * It must allow tombstones ({@link ValueGrammar#OPTIONAL}) and have variable-width values.
     * Fixed when the store is created; reopening with another is refused.
     */
    public DBOptions setPolicy(Policy policy) {
        this.policy = Objects.requireNonNull(policy, "policy");
        return this;
    }

    public Policy policy() {
        return policy;
    }

    /**
     * How segments are arranged in levels: {@link Layout#PARTITIONED} (RocksDB's leveled
     * compaction: overlapping flushes in level 0, key-disjoint files of about
     * {@link #setTargetFileSizeBase target size} below) or {@link Layout#WHOLE_RUN} (each level one
     * run, all runs one IX03 cascade, merged geometrically). Fixed when the store is created.
     */
    public DBOptions setLevelLayout(Layout layout) {
        this.layout = Objects.requireNonNull(layout, "layout");
        return this;
    }

    public Layout levelLayout() {
        return layout;
    }

    /** Bytes a memtable takes before it is switched out and flushed (RocksDB's {@code write_buffer_size}, default 64 MiB). */
    public DBOptions setWriteBufferSize(long bytes) {
        this.writeBufferSize = bytes;
        return this;
    }

    public long writeBufferSize() {
        return writeBufferSize;
    }

    /**
     * Memtables a store may hold, the active one included (RocksDB's {@code max_write_buffer_number},
     * default 2). Writes stop while the active memtable is full and this many are waiting for a flush.
     */
    public DBOptions setMaxWriteBufferNumber(int n) {
        this.maxWriteBufferNumber = n;
        return this;
    }

    public int maxWriteBufferNumber() {
        return maxWriteBufferNumber;
    }

    /** Partitioned layout: flush and compaction outputs are cut at about this many bytes (default 64 MiB). */
    public DBOptions setTargetFileSizeBase(long bytes) {
        this.targetFileSizeBase = bytes;
        return this;
    }

    public long targetFileSizeBase() {
        return targetFileSizeBase;
    }

    /** Partitioned layout: levels including level 0 (default 7). */
    public DBOptions setNumLevels(int n) {
        this.numLevels = n;
        return this;
    }

    public int numLevels() {
        return numLevels;
    }

    /** Partitioned layout: level 1's target bytes (RocksDB's {@code max_bytes_for_level_base}, default 256 MiB). */
    public DBOptions setMaxBytesForLevelBase(long bytes) {
        this.maxBytesForLevelBase = bytes;
        return this;
    }

    public long maxBytesForLevelBase() {
        return maxBytesForLevelBase;
    }

    /**
     * The size ratio between levels (default 10): partitioned, each level's target over the one
     * above; whole-run, how much larger each run must be than all the runs above it together.
     */
    public DBOptions setMaxBytesForLevelMultiplier(double ratio) {
        this.maxBytesForLevelMultiplier = ratio;
        return this;
    }

    public double maxBytesForLevelMultiplier() {
        return maxBytesForLevelMultiplier;
    }

    /** Partitioned layout: level-0 files that make level 0 due for compaction (default 4). */
    public DBOptions setLevel0FileNumCompactionTrigger(int n) {
        this.level0FileNumCompactionTrigger = n;
        return this;
    }

    public int level0FileNumCompactionTrigger() {
        return level0FileNumCompactionTrigger;
    }

    /**
     * Writes are slowed (each commit delayed by a millisecond) while level 0 holds this many files,
     * or the whole-run layout this many runs (default 20).
     */
    public DBOptions setLevel0SlowdownWritesTrigger(int n) {
        this.level0SlowdownWritesTrigger = n;
        return this;
    }

    public int level0SlowdownWritesTrigger() {
        return level0SlowdownWritesTrigger;
    }

    /** Writes stop until compaction catches up while level 0 holds this many files (or runs; default 36). */
    public DBOptions setLevel0StopWritesTrigger(int n) {
        this.level0StopWritesTrigger = n;
        return this;
    }

    public int level0StopWritesTrigger() {
        return level0StopWritesTrigger;
    }

    /** Bits per key of each segment's key filter (a blocked Bloom filter); 0 for none (default 10, about 1% false positives). */
    public DBOptions setBloomBitsPerKey(int bits) {
        this.bloomBitsPerKey = bits;
        return this;
    }

    public int bloomBitsPerKey() {
        return bloomBitsPerKey;
    }

    /** Background threads: one flushes, the rest compact (default 2, at least 2). */
    public DBOptions setMaxBackgroundJobs(int n) {
        this.maxBackgroundJobs = n;
        return this;
    }

    public int maxBackgroundJobs() {
        return maxBackgroundJobs;
    }

    /** Caps the bytes compactions read per second across all compaction threads; 0 (the default) for no cap. */
    public DBOptions setRateLimiterBytesPerSecond(long bytesPerSecond) {
        this.rateLimiterBytesPerSecond = bytesPerSecond;
        return this;
    }

    public long rateLimiterBytesPerSecond() {
        return rateLimiterBytesPerSecond;
    }

    /** No background compactions (flushes still run; {@link EverettDB#compactRange()} still works). */
    public DBOptions setDisableAutoCompactions(boolean disable) {
        this.disableAutoCompactions = disable;
        return this;
    }

    public boolean disableAutoCompactions() {
        return disableAutoCompactions;
    }

    /**
     * Write the write-ahead log through a shared memory mapping (default {@code true}; RocksDB's
     * default is {@code false}). An append is then a copy into the log's pages with no system
     * call, which the store's measurements found worth about 1.7x on small synchronous-free writes;
     * durability is the same either way (appended bytes are in the page cache when the write
     * returns, and {@code setSync(true)} forces them). With {@code false} each commit group is one
     * {@code write} call. Either way a log the file system cannot map is written with {@code write}
     * calls. Unlike RocksDB's option of this name, it covers only the log: segments are always
     * written with {@code write} calls and published by rename.
     */
    public DBOptions setAllowMmapWrites(boolean allow) {
        this.allowMmapWrites = allow;
        return this;
    }

    public boolean allowMmapWrites() {
        return allowMmapWrites;
    }

    /** Nothing to release (kept so RocksJava's try-with-resources habits carry over). */
    @Override
    public void close() {
    }

    /** Tests substitute a file system that fails on cue. */
    DBOptions setStoreFiles(StoreFiles files) {
        this.files = Objects.requireNonNull(files, "files");
        return this;
    }

    /** Tests lower the most bytes a log may hold. */
    DBOptions setMaxLogBytes(long bytes) {
        this.maxLogBytes = bytes;
        return this;
    }

    long maxLogBytes() {
        return maxLogBytes;
    }

    StoreFiles storeFiles() {
        return files != null ? files : StoreFiles.system(allowMmapWrites);
    }

    /** Tests substitute a file system for the tree's manifest and directories. */
    DBOptions setTreeFiles(StorageFiles files) {
        this.treeFiles = Objects.requireNonNull(files, "files");
        return this;
    }

    StorageFiles treeFiles() {
        return treeFiles;
    }

    FilterPolicy filterPolicy() {
        return bloomBitsPerKey == 0 ? FilterPolicy.none() : FilterPolicy.bloom(bloomBitsPerKey);
    }

    /** Refuses any option value the store cannot honour, naming the option. */
    void validate() {
        if (policy.grammar() != ValueGrammar.OPTIONAL) {
            throw new IllegalArgumentException("policy: the store writes deletes as tombstones, so the grammar must be OPTIONAL, got "
                    + policy.grammar());
        }
        if (policy.valueWidth().isFixed()) {
            throw new IllegalArgumentException("policy: the store takes values of any length, so the value width must be variable, got "
                    + policy.valueWidth());
        }
        atLeast("writeBufferSize", writeBufferSize, 4096);
        atLeast("maxWriteBufferNumber", maxWriteBufferNumber, 2);
        atLeast("targetFileSizeBase", targetFileSizeBase, 4096);
        atLeast("numLevels", numLevels, 2);
        if (numLevels > 64) {
            throw new IllegalArgumentException("numLevels: at most 64, got " + numLevels);
        }
        atLeast("maxBytesForLevelBase", maxBytesForLevelBase, 4096);
        if (!(maxBytesForLevelMultiplier > 1) || Double.isInfinite(maxBytesForLevelMultiplier)) {
            throw new IllegalArgumentException("maxBytesForLevelMultiplier: must be a finite ratio above 1, got " + maxBytesForLevelMultiplier);
        }
        atLeast("level0FileNumCompactionTrigger", level0FileNumCompactionTrigger, 1);
        atLeast("level0SlowdownWritesTrigger", level0SlowdownWritesTrigger, 1);
        if (layout == Layout.PARTITIONED && level0SlowdownWritesTrigger < level0FileNumCompactionTrigger) {
            // Below the compaction trigger, level 0 could sit at the stop trigger with nothing due: writes would stop for good.
            throw new IllegalArgumentException("level0SlowdownWritesTrigger: must be at least level0FileNumCompactionTrigger ("
                    + level0FileNumCompactionTrigger + "), got " + level0SlowdownWritesTrigger);
        }
        if (level0StopWritesTrigger < level0SlowdownWritesTrigger) {
            throw new IllegalArgumentException("level0StopWritesTrigger: must be at least level0SlowdownWritesTrigger ("
                    + level0SlowdownWritesTrigger + "), got " + level0StopWritesTrigger);
        }
        if (bloomBitsPerKey < 0 || bloomBitsPerKey > FilterPolicy.MAX_BITS_PER_KEY) {
            throw new IllegalArgumentException("bloomBitsPerKey: must be 0 (no filter) … " + FilterPolicy.MAX_BITS_PER_KEY + ", got " + bloomBitsPerKey);
        }
        atLeast("maxBackgroundJobs", maxBackgroundJobs, 2);
        if (maxBackgroundJobs > 64) {
            throw new IllegalArgumentException("maxBackgroundJobs: at most 64, got " + maxBackgroundJobs);
        }
        atLeast("rateLimiterBytesPerSecond", rateLimiterBytesPerSecond, 0);
    }

    private static void atLeast(String option, long value, long min) {
        if (value < min) {
            throw new IllegalArgumentException(option + ": must be at least " + min + ", got " + value);
        }
    }
}

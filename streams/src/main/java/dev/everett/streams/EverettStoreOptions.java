package dev.everett.streams;

import dev.everett.api.Policy;
import dev.everett.store.DBOptions;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * How an Everett state store opens its {@code EverettDB}: the segment policy the store's directory
 * is created with, whether commits force the write-ahead log to disk, and a hook for any other
 * {@link DBOptions}. Immutable; the {@code with...} methods return a changed copy.
 *
 * <p>The same options can come from the Kafka Streams configuration when the whole topology uses
 * {@link EverettDslStoreSuppliers}: {@value #POLICY_CONFIG} ({@code bytes}, the default, or
 * {@code string}), {@value #SYNC_COMMITS_CONFIG} ({@code false}, the default, or {@code true}) and
 * {@value #WRITE_AHEAD_LOG_CONFIG} ({@code false}, the default, or {@code true}).
 */
public final class EverettStoreOptions {
    /** Configuration key naming the segment policy: {@code bytes} or {@code string}. */
    public static final String POLICY_CONFIG = "everett.store.policy";
    /** Configuration key: whether each commit forces the write-ahead log ({@code true} or {@code false}). */
    public static final String SYNC_COMMITS_CONFIG = "everett.store.sync.commits";
    /** Configuration key: whether writes go to the write-ahead log ({@code true} or {@code false}). */
    public static final String WRITE_AHEAD_LOG_CONFIG = "everett.store.write.ahead.log";

    private static final EverettStoreOptions DEFAULTS = new EverettStoreOptions(Policy.defaultBytes(), false, false, options -> { });

    private final Policy policy;
    private final boolean syncCommits;
    private final boolean writeAheadLog;
    private final Consumer<DBOptions> dbOptions;

    private EverettStoreOptions(Policy policy, boolean syncCommits, boolean writeAheadLog, Consumer<DBOptions> dbOptions) {
        this.policy = policy;
        this.syncCommits = syncCommits;
        this.writeAheadLog = writeAheadLog;
        this.dbOptions = dbOptions;
    }

    /** The defaults: {@link Policy#defaultBytes()}, no write-ahead log (commits not forced), no other option changed. */
    public static EverettStoreOptions defaults() {
        return DEFAULTS;
    }

    /**
     * Options read from a Kafka Streams configuration map ({@value #POLICY_CONFIG},
     * {@value #SYNC_COMMITS_CONFIG}); absent keys keep the defaults.
     *
     * @throws IllegalArgumentException naming the key and the values it accepts, for a value it cannot use
     */
    public static EverettStoreOptions fromConfig(Map<String, ?> config) {
        EverettStoreOptions options = DEFAULTS;
        Object policy = config.get(POLICY_CONFIG);
        if (policy != null) {
            options = options.withPolicy(switch (policy.toString().trim()) {
                case "bytes" -> Policy.defaultBytes();
                case "string" -> Policy.stringPolicy();
                default -> throw new IllegalArgumentException(
                        POLICY_CONFIG + " must be \"bytes\" or \"string\", got \"" + policy + "\"");
            });
        }
        Object sync = config.get(SYNC_COMMITS_CONFIG);
        if (sync != null) {
            options = options.withSyncCommits(flag(SYNC_COMMITS_CONFIG, sync));
        }
        Object log = config.get(WRITE_AHEAD_LOG_CONFIG);
        if (log != null) {
            options = options.withWriteAheadLog(flag(WRITE_AHEAD_LOG_CONFIG, log));
        }
        return options;
    }

    private static boolean flag(String key, Object value) {
        return switch (value.toString().trim()) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException(key + " must be \"true\" or \"false\", got \"" + value + "\"");
        };
    }

    /**
     * The segment policy a new store directory is created with. An existing directory keeps the
     * policy it was created with: opening it with another is refused.
     */
    public EverettStoreOptions withPolicy(Policy policy) {
        return new EverettStoreOptions(Objects.requireNonNull(policy, "policy"), syncCommits, writeAheadLog, dbOptions);
    }

    /**
     * Whether each commit forces the write-ahead log to disk (default {@code false}). Either way the
     * store stays consistent after a crash, because the log is replayed as a prefix and a commit's
     * offsets follow the records they cover. Unforced, a commit survives a crash of the process but
     * may be lost with the machine, and then the store restores the rest from its changelog; forced,
     * it costs one {@code fsync} per commit (Kafka Streams commits every {@code commit.interval.ms},
     * 100 ms under exactly-once).
     */
    public EverettStoreOptions withSyncCommits(boolean syncCommits) {
        return new EverettStoreOptions(policy, syncCommits, writeAheadLog, dbOptions);
    }

    /**
     * Whether records and commits go to the write-ahead log (default {@code false}, as Kafka
     * Streams' RocksDB store runs). Without it, writes live in the memtable until it is flushed to
     * segments (when full, and when the store closes): a crash loses what was not flushed, records
     * and committed offsets together, and the store restores it from its changelog. With it, a
     * process crash loses nothing written, at the cost of a log append per write;
     * {@link #withSyncCommits} only matters then.
     */
    public EverettStoreOptions withWriteAheadLog(boolean writeAheadLog) {
        return new EverettStoreOptions(policy, syncCommits, writeAheadLog, dbOptions);
    }

    /**
     * Changes any other {@link DBOptions} before each open (applied after the policy is set, so it can
     * also override the policy). The customizer must be safe to call once per task.
     */
    public EverettStoreOptions withDbOptions(Consumer<DBOptions> customizer) {
        return new EverettStoreOptions(policy, syncCommits, writeAheadLog, Objects.requireNonNull(customizer, "customizer"));
    }

    public Policy policy() {
        return policy;
    }

    public boolean syncCommits() {
        return syncCommits;
    }

    public boolean writeAheadLog() {
        return writeAheadLog;
    }

    /** The {@link DBOptions} a store opens with. */
    DBOptions toDbOptions() {
        DBOptions options = new DBOptions().setPolicy(policy);
        dbOptions.accept(options);
        return options;
    }

    @Override
    public String toString() {
        return "EverettStoreOptions[policy=" + policy + ", syncCommits=" + syncCommits + ", writeAheadLog=" + writeAheadLog + "]";
    }
}

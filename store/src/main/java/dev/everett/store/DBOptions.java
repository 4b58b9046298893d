package dev.everett.store;

import dev.everett.api.Policy;
import dev.everett.api.ValueGrammar;

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
    private StoreFiles files = StoreFiles.DEFAULT;

    public DBOptions() {
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

    /** Nothing to release (kept so RocksJava's try-with-resources habits carry over). */
    @Override
    public void close() {
    }

    /** Tests substitute a file system that fails on cue. */
    DBOptions setStoreFiles(StoreFiles files) {
        this.files = Objects.requireNonNull(files, "files");
        return this;
    }

    StoreFiles storeFiles() {
        return files;
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
    }
}

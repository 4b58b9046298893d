/**
 * EverettDB, an embedded key-value store with a RocksJava-shaped API ({@code put}, {@code get},
 * {@code delete}, {@code singleDelete}, batches, snapshots, iterators with bounds) whose sorted
 * runs are Everett segments. Only {@code dev.everett.store} is exported.
 */
module dev.everett.store {
    requires transitive dev.everett.api;
    requires transitive dev.everett.compaction;
    requires com.google.common;

    exports dev.everett.store;
}

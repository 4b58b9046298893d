/**
 * EverettDB, an embedded key-value store with a RocksJava-shaped API ({@code put}, {@code get},
 * {@code delete}, {@code singleDelete}, batches, snapshots, iterators with bounds) whose sorted
 * runs are Everett segments. Only {@code dev.everett.store} is exported.
 */
module dev.everett.store {
    requires transitive dev.everett.api;

    exports dev.everett.store;
}

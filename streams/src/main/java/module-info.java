/**
 * Kafka Streams key-value state stores backed by EverettDB: {@link dev.everett.streams.EverettStores}
 * for one store, {@link dev.everett.streams.EverettDslStoreSuppliers} for every DSL store of a
 * topology ({@code dsl.store.suppliers.class}). Only {@code dev.everett.streams} is exported; the
 * store implementation stays internal.
 *
 * <p>Besides Kafka Streams' public API, the store uses two of its internal types, as its built-in
 * RocksDB store does: {@code processor.internals.RecordBatchingStateRestoreCallback} (restoration
 * with record headers) and {@code processor.internals.ChangelogRecordDeserializationHelper} (the
 * position those headers carry). Kafka's jars are automatic modules, which export every package,
 * so {@code requires kafka.streams} reads them; they are not a stable API and are checked against
 * each Kafka Streams upgrade by {@code RocksDbParityTest}.
 */
module dev.everett.streams {
    requires transitive dev.everett.store;
    requires transitive kafka.streams;
    requires transitive kafka.clients;

    exports dev.everett.streams;
}

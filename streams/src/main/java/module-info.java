/**
 * Kafka Streams key-value state stores backed by EverettDB: {@link dev.everett.streams.EverettStores}
 * for one store, {@link dev.everett.streams.EverettDslStoreSuppliers} for every DSL store of a
 * topology ({@code dsl.store.suppliers.class}). Only {@code dev.everett.streams} is exported; the
 * store implementation stays internal.
 */
module dev.everett.streams {
    requires transitive dev.everett.store;
    requires transitive kafka.streams;
    requires transitive kafka.clients;

    exports dev.everett.streams;
}

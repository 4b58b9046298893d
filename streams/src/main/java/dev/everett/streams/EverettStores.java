package dev.everett.streams;

import java.util.Objects;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;

/**
 * Factories for Everett key-value state stores, the counterparts of Kafka Streams'
 * {@code Stores.persistent...KeyValueStore} methods. Use a supplier per operator with
 * {@code Materialized.as(supplier)} or {@code Stores.keyValueStoreBuilder(supplier, keySerde, valueSerde)};
 * to switch every DSL store of a topology at once, set {@code dsl.store.suppliers.class} to
 * {@link EverettDslStoreSuppliers}.
 *
 * <p>Each task's store is an {@code EverettDB} in {@code <state.dir>/<application.id>/<task>/everett/<name>}.
 */
public final class EverettStores {
    private EverettStores() {
    }

    /** A plain key-value store (values as the value serde wrote them), with the default options. */
    public static KeyValueBytesStoreSupplier persistentKeyValueStore(String name) {
        return persistentKeyValueStore(name, EverettStoreOptions.defaults());
    }

    /** A plain key-value store with the given options. */
    public static KeyValueBytesStoreSupplier persistentKeyValueStore(String name, EverettStoreOptions options) {
        return new EverettKeyValueBytesStoreSupplier(name, StoreFormat.PLAIN, Objects.requireNonNull(options, "options cannot be null"));
    }

    /**
     * A timestamped key-value store (what the DSL materializes tables and aggregations into); use it
     * with {@code Stores.timestampedKeyValueStoreBuilder} or {@code Materialized.as}.
     */
    public static KeyValueBytesStoreSupplier persistentTimestampedKeyValueStore(String name) {
        return persistentTimestampedKeyValueStore(name, EverettStoreOptions.defaults());
    }

    /** A timestamped key-value store with the given options. */
    public static KeyValueBytesStoreSupplier persistentTimestampedKeyValueStore(String name, EverettStoreOptions options) {
        return new EverettKeyValueBytesStoreSupplier(name, StoreFormat.TIMESTAMPED, Objects.requireNonNull(options, "options cannot be null"));
    }

    /** A timestamped key-value store that also keeps record headers ({@code Stores.timestampedKeyValueStoreWithHeadersBuilder}). */
    public static KeyValueBytesStoreSupplier persistentTimestampedKeyValueStoreWithHeaders(String name) {
        return persistentTimestampedKeyValueStoreWithHeaders(name, EverettStoreOptions.defaults());
    }

    /** A timestamped key-value store with headers, with the given options. */
    public static KeyValueBytesStoreSupplier persistentTimestampedKeyValueStoreWithHeaders(String name, EverettStoreOptions options) {
        return new EverettKeyValueBytesStoreSupplier.WithHeaders(name, Objects.requireNonNull(options, "options cannot be null"));
    }
}

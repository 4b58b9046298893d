package dev.everett.streams;

/**
 * What the value bytes of a store hold, as Kafka Streams' store builders expect them. A store
 * directory is created with one format and refuses to open with another: the bytes differ (a
 * timestamped value starts with an 8-byte timestamp, a headers value with the serialized headers),
 * and Everett stores never convert in place.
 */
enum StoreFormat {
    /** The value as the value serde wrote it ({@code Stores.keyValueStoreBuilder}). */
    PLAIN("plain"),
    /** Timestamp then value ({@code TimestampedKeyValueStore}; the DSL's default). */
    TIMESTAMPED("timestamped"),
    /** Headers, timestamp and value ({@code TimestampedKeyValueStoreWithHeaders}, {@code dsl.store.format=HEADERS}). */
    HEADERS("timestamped-with-headers");

    final String label;

    StoreFormat(String label) {
        this.label = label;
    }

    static StoreFormat ofLabel(String label) {
        for (StoreFormat format : values()) {
            if (format.label.equals(label)) {
                return format;
            }
        }
        return null;
    }
}

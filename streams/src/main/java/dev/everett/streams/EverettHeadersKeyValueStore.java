package dev.everett.streams;

import org.apache.kafka.streams.state.HeadersBytesStore;

/**
 * An Everett store whose values are in Kafka Streams' headers layout (headers, timestamp, value);
 * the {@link HeadersBytesStore} marker keeps the store builder from adding a converting adapter.
 */
final class EverettHeadersKeyValueStore extends EverettKeyValueStore implements HeadersBytesStore {
    EverettHeadersKeyValueStore(String name, EverettStoreOptions options) {
        super(name, StoreFormat.HEADERS, options);
    }
}

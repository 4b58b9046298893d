package dev.everett.streams;

import org.apache.kafka.streams.state.TimestampedBytesStore;

/**
 * An Everett store whose values are already in Kafka Streams' timestamped layout (timestamp, then
 * value). The {@link TimestampedBytesStore} marker tells the store builder to hand values through
 * as they are, instead of wrapping the store in a converting adapter.
 */
final class EverettTimestampedKeyValueStore extends EverettKeyValueStore implements TimestampedBytesStore {
    EverettTimestampedKeyValueStore(String name, EverettStoreOptions options) {
        super(name, StoreFormat.TIMESTAMPED, options);
    }
}

package dev.everett.streams;

import java.util.Objects;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.HeadersBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueStore;

/** Supplies one fresh Everett store per task; the store opens its EverettDB when the task initialises it. */
class EverettKeyValueBytesStoreSupplier implements KeyValueBytesStoreSupplier {
    /** The metrics scope Kafka Streams files these stores' metrics under. */
    static final String METRICS_SCOPE = "everett";

    private final String name;
    private final StoreFormat format;
    /** The store's options; {@code null}: read from the task's configuration when the store opens. */
    private final EverettStoreOptions options;

    EverettKeyValueBytesStoreSupplier(String name, StoreFormat format, EverettStoreOptions options) {
        this.name = Objects.requireNonNull(name, "name cannot be null");
        this.format = format;
        this.options = options;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public KeyValueStore<Bytes, byte[]> get() {
        return switch (format) {
            case PLAIN -> new EverettKeyValueStore(name, format, options);
            case TIMESTAMPED -> new EverettTimestampedKeyValueStore(name, options);
            case HEADERS -> new EverettHeadersKeyValueStore(name, options);
        };
    }

    @Override
    public String metricsScope() {
        return METRICS_SCOPE;
    }

    /** The headers-format supplier carries Kafka Streams' marker, as the built-in one does. */
    static final class WithHeaders extends EverettKeyValueBytesStoreSupplier implements HeadersBytesStoreSupplier {
        WithHeaders(String name, EverettStoreOptions options) {
            super(name, StoreFormat.HEADERS, options);
        }
    }
}

package dev.everett.streams;

import java.io.File;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.StreamsMetrics;
import org.apache.kafka.streams.processor.CommitCallback;
import org.apache.kafka.streams.processor.StateRestoreCallback;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.common.utils.Bytes;

/**
 * Opens a bare bytes store (no metering, caching or change logging) the way a task does: a
 * {@link StateStoreContext} from kafka-streams-test-utils under a state directory, whose register call
 * keeps the restore callback so tests can drive restoration.
 */
final class StoreHarness {
    private StoreHarness() {
    }

    /** The store and the context it was initialised with. */
    record Opened(KeyValueStore<Bytes, byte[]> store, CapturingContext context) {
    }

    static Opened open(KeyValueBytesStoreSupplier supplier, File stateDir) {
        return open(supplier, stateDir, Map.of());
    }

    static Opened open(KeyValueBytesStoreSupplier supplier, File stateDir, Map<String, Object> extraConfig) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "contract");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.getAbsolutePath());
        props.putAll(extraConfig);
        MockProcessorContext<Object, Object> mock = new MockProcessorContext<>(props, new TaskId(0, 0), stateDir);
        CapturingContext context = new CapturingContext(mock.getStateStoreContext());
        KeyValueStore<Bytes, byte[]> store = supplier.get();
        store.init(context, store);
        return new Opened(store, context);
    }

    /** Delegates to the test-utils context and remembers what the store registered. */
    static final class CapturingContext implements StateStoreContext {
        private final StateStoreContext delegate;
        private StateRestoreCallback restoreCallback;
        private RecordMetadata recordMetadata;

        CapturingContext(StateStoreContext delegate) {
            this.delegate = delegate;
        }

        StateRestoreCallback restoreCallback() {
            return restoreCallback;
        }

        /** Makes the next writes look as if they came from this record (for position tracking). */
        void processing(String topic, int partition, long offset) {
            recordMetadata = new RecordMetadata() {
                @Override
                public String topic() {
                    return topic;
                }

                @Override
                public int partition() {
                    return partition;
                }

                @Override
                public long offset() {
                    return offset;
                }
            };
        }

        @Override
        public String applicationId() {
            return delegate.applicationId();
        }

        @Override
        public TaskId taskId() {
            return delegate.taskId();
        }

        @Override
        public Optional<RecordMetadata> recordMetadata() {
            return Optional.ofNullable(recordMetadata);
        }

        @Override
        public Serde<?> keySerde() {
            return delegate.keySerde();
        }

        @Override
        public Serde<?> valueSerde() {
            return delegate.valueSerde();
        }

        @Override
        public File stateDir() {
            return delegate.stateDir();
        }

        @Override
        public StreamsMetrics metrics() {
            return delegate.metrics();
        }

        @Override
        public void register(StateStore store, StateRestoreCallback callback) {
            restoreCallback = callback;
            delegate.register(store, callback);
        }

        @Override
        public void register(StateStore store, StateRestoreCallback callback, CommitCallback commitCallback) {
            restoreCallback = callback;
            delegate.register(store, callback, commitCallback);
        }

        @Override
        public Map<String, Object> appConfigs() {
            return delegate.appConfigs();
        }

        @Override
        public Map<String, Object> appConfigsWithPrefix(String prefix) {
            return delegate.appConfigsWithPrefix(prefix);
        }
    }
}

package dev.everett.streams;

import java.util.Map;
import org.apache.kafka.streams.state.BuiltInDslStoreSuppliers;
import org.apache.kafka.streams.state.DslKeyValueParams;
import org.apache.kafka.streams.state.DslSessionParams;
import org.apache.kafka.streams.state.DslStoreSuppliers;
import org.apache.kafka.streams.state.DslWindowParams;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.SessionBytesStoreSupplier;
import org.apache.kafka.streams.state.WindowBytesStoreSupplier;

/**
 * Makes every key-value store of a DSL topology an Everett store, with one configuration line:
 *
 * <pre>{@code props.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, EverettDslStoreSuppliers.class);}</pre>
 *
 * Key-value stores follow the format the DSL asks for (plain, timestamped, or with headers under
 * {@code dsl.store.format=HEADERS}). Window and session stores are not Everett stores yet: they stay
 * Kafka Streams' built-in RocksDB stores. Each store reads its options from the application's
 * configuration when its task opens it (keys {@link EverettStoreOptions#POLICY_CONFIG} and
 * {@link EverettStoreOptions#SYNC_COMMITS_CONFIG}), since Kafka Streams creates this class by name
 * and does not hand it the configuration; a host that calls {@link #configure} fixes them instead.
 */
public class EverettDslStoreSuppliers implements DslStoreSuppliers {
    private final DslStoreSuppliers windowsAndSessions = new BuiltInDslStoreSuppliers.RocksDBDslStoreSuppliers();
    /** Options fixed by {@link #configure}; {@code null}: each store reads them from its task's configuration. */
    private EverettStoreOptions options;

    /** Kafka Streams instantiates this class by name; it needs a public no-argument constructor. */
    public EverettDslStoreSuppliers() {
    }

    @Override
    public void configure(Map<String, ?> configs) {
        options = EverettStoreOptions.fromConfig(configs);
        windowsAndSessions.configure(configs);
    }

    @Override
    public KeyValueBytesStoreSupplier keyValueStore(DslKeyValueParams params) {
        return switch (params.dslStoreFormat()) {
            case PLAIN -> new EverettKeyValueBytesStoreSupplier(params.name(), StoreFormat.PLAIN, options);
            case TIMESTAMPED -> new EverettKeyValueBytesStoreSupplier(params.name(), StoreFormat.TIMESTAMPED, options);
            case HEADERS -> new EverettKeyValueBytesStoreSupplier.WithHeaders(params.name(), options);
        };
    }

    @Override
    public WindowBytesStoreSupplier windowStore(DslWindowParams params) {
        return windowsAndSessions.windowStore(params);
    }

    @Override
    public SessionBytesStoreSupplier sessionStore(DslSessionParams params) {
        return windowsAndSessions.sessionStore(params);
    }
}

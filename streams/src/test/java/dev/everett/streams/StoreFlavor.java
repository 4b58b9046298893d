package dev.everett.streams;

import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.state.BuiltInDslStoreSuppliers;
import org.apache.kafka.streams.state.DslStoreSuppliers;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.Stores;

/** The store implementations a comparison test runs the same topology or operations on. */
enum StoreFlavor {
    /** Kafka Streams' built-in RocksDB stores: the reference. */
    ROCKSDB(BuiltInDslStoreSuppliers.RocksDBDslStoreSuppliers.class) {
        @Override
        KeyValueBytesStoreSupplier keyValue(String name) {
            return Stores.persistentKeyValueStore(name);
        }

        @Override
        KeyValueBytesStoreSupplier timestampedKeyValue(String name) {
            return Stores.persistentTimestampedKeyValueStore(name);
        }
    },
    /** The stores under test, with the default options (no write-ahead log). */
    EVERETT(EverettDslStoreSuppliers.class) {
        @Override
        KeyValueBytesStoreSupplier keyValue(String name) {
            return EverettStores.persistentKeyValueStore(name);
        }

        @Override
        KeyValueBytesStoreSupplier timestampedKeyValue(String name) {
            return EverettStores.persistentTimestampedKeyValueStore(name);
        }
    },
    /** The stores under test with their write-ahead log (every write appended to the log). */
    EVERETT_WITH_LOG(EverettDslStoreSuppliers.class) {
        private static final EverettStoreOptions OPTIONS = EverettStoreOptions.defaults().withWriteAheadLog(true);

        @Override
        KeyValueBytesStoreSupplier keyValue(String name) {
            return EverettStores.persistentKeyValueStore(name, OPTIONS);
        }

        @Override
        KeyValueBytesStoreSupplier timestampedKeyValue(String name) {
            return EverettStores.persistentTimestampedKeyValueStore(name, OPTIONS);
        }

        @Override
        void configure(Properties props) {
            super.configure(props);
            props.put(EverettStoreOptions.WRITE_AHEAD_LOG_CONFIG, "true");
        }
    };

    private final Class<? extends DslStoreSuppliers> dslSuppliers;

    StoreFlavor(Class<? extends DslStoreSuppliers> dslSuppliers) {
        this.dslSuppliers = dslSuppliers;
    }

    /** A plain key-value store supplier of this flavour, for the Processor API. */
    abstract KeyValueBytesStoreSupplier keyValue(String name);

    /** A timestamped key-value store supplier of this flavour, for the Processor API. */
    abstract KeyValueBytesStoreSupplier timestampedKeyValue(String name);

    /** The one line that switches every DSL store of a topology to this flavour. */
    void configure(Properties props) {
        props.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, dslSuppliers);
    }
}

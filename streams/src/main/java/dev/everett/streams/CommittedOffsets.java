package dev.everett.streams;

import dev.everett.store.EverettDB;
import dev.everett.store.EverettIterator;
import dev.everett.store.ReadOptions;
import dev.everett.store.WriteBatch;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.errors.ProcessorStateException;

/**
 * The changelog offsets a store has committed, as Kafka Streams reads them back: held in memory
 * (so a commit costs a map update) and written to the store's bookkeeping range when the store
 * adds them to a batch. The store decides when (see {@link EverettKeyValueStore#commit}); what the
 * database holds is always offsets that some earlier commit made.
 */
final class CommittedOffsets {
    private final Map<TopicPartition, Long> offsets = new HashMap<>();
    /** Partitions whose offset the database holds, as of the last batch this wrote to. */
    private final Set<TopicPartition> stored = new HashSet<>();
    /** Each partition's bookkeeping key, built once. */
    private final Map<TopicPartition, byte[]> keys = new HashMap<>();

    private CommittedOffsets() {
    }

    /**
     * The offsets {@code db} holds.
     *
     * @throws ProcessorStateException naming the store and directory, for an offset record that is not one
     */
    static CommittedOffsets read(EverettDB db, String store, Path directory) {
        CommittedOffsets committed = new CommittedOffsets();
        try (EverettIterator records = db.newIterator(new ReadOptions()
                .setIterateLowerBound(StoreKeys.OFFSET_PREFIX).setIterateUpperBound(StoreKeys.OFFSET_END))) {
            for (records.seekToFirst(); records.isValid(); records.next()) {
                byte[] key = records.key();
                Stored entry = decode(key, records.value(), store, directory);
                committed.offsets.put(entry.partition(), entry.offset());
                committed.stored.add(entry.partition());
                committed.keys.put(entry.partition(), key);
            }
        }
        return committed;
    }

    /** One committed offset as the database holds it: the partition its key names, the offset its value holds. */
    record Stored(TopicPartition partition, long offset) {
    }

    /**
     * Decodes one record of the offset range.
     *
     * @throws ProcessorStateException naming the store and directory, for a record that is not a committed offset
     */
    static Stored decode(byte[] key, byte[] value, String store, Path directory) {
        TopicPartition partition;
        try {
            partition = StoreKeys.partitionOfOffset(key);
        } catch (IllegalArgumentException e) {
            throw new ProcessorStateException("Everett store " + store + " at " + directory + ": " + e.getMessage(), e);
        }
        if (value.length != Long.BYTES) {
            throw new ProcessorStateException("Everett store " + store + " at " + directory + ": committed offset of "
                    + partition + " has " + value.length + " bytes, expected " + Long.BYTES);
        }
        return new Stored(partition, ByteBuffer.wrap(value).getLong());
    }

    /** The committed offset of {@code partition}, or {@code null}. */
    Long get(TopicPartition partition) {
        return offsets.get(partition);
    }

    /**
     * Applies one commit as Kafka Streams 4.4 defines it: an empty map clears every offset, a
     * {@code null} value clears one, the others are set.
     */
    void update(Map<TopicPartition, Long> changelogOffsets) {
        if (changelogOffsets.isEmpty()) {
            offsets.clear();
            return;
        }
        for (Map.Entry<TopicPartition, Long> entry : changelogOffsets.entrySet()) {
            if (entry.getValue() == null) {
                offsets.remove(entry.getKey());
            } else {
                offsets.put(entry.getKey(), entry.getValue());
            }
        }
    }

    /** Adds to {@code batch} what makes the database hold exactly these offsets. */
    void writeTo(WriteBatch batch) {
        for (TopicPartition partition : stored) {
            if (!offsets.containsKey(partition)) {
                batch.delete(key(partition));
            }
        }
        for (Map.Entry<TopicPartition, Long> entry : offsets.entrySet()) {
            batch.put(key(entry.getKey()), ByteBuffer.allocate(Long.BYTES).putLong(entry.getValue()).array());
        }
        stored.clear();
        stored.addAll(offsets.keySet());
    }

    private byte[] key(TopicPartition partition) {
        return keys.computeIfAbsent(partition, StoreKeys::offset);
    }
}

package dev.everett.streams;

import dev.everett.store.EverettDB;
import dev.everett.store.WriteBatch;
import dev.everett.store.WriteOptions;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.utils.Bytes;

/**
 * Restored changelog records on their way into the database: the newest value of each key
 * (a {@code null} value deletes), written as one batch in key order when the buffer fills or before
 * anything reads, writes or commits.
 *
 * <p>Why: a changelog repeats keys (every update of an aggregate is a record), and only the last
 * value of each key survives restoration. Writing each record as it comes costs one memtable
 * insertion per record, at a random position of a skip list that grows with every version. Keeping
 * the newest value per key in a hash map costs one hash probe per record; the keys that remain are
 * then inserted in ascending order, where each insertion walks a path the previous one left in
 * the cache. The store's contents after a drain are exactly those of writing every record in order.
 *
 * <p>Keys and values are held by reference, not copied: Kafka Streams hands each restored record's
 * arrays over and does not reuse them. Not thread-safe: the store calls it under its lock.
 */
final class RestoreBuffer {
    /**
     * Bytes charged per buffered key beyond its key and value: the map's node and table slot, the
     * {@link Bytes} wrapper and two array headers.
     */
    static final int ENTRY_OVERHEAD = 96;
    /** The buffered value of a deleted key (compared by identity: an empty value is a put). */
    private static final byte[] DELETED = new byte[0];

    private final long limitBytes;
    private final HashMap<Bytes, byte[]> newest = new HashMap<>();
    private long bytes;

    /** A buffer that asks to be drained once it holds about {@code limitBytes}. */
    RestoreBuffer(long limitBytes) {
        if (limitBytes <= 0) {
            throw new IllegalArgumentException("restore buffer limit must be positive, got " + limitBytes);
        }
        this.limitBytes = limitBytes;
    }

    /** Records {@code value} (or a delete, for {@code null}) as the newest for {@code key}; true once the buffer is full. */
    boolean add(byte[] key, byte[] value) {
        byte[] stored = value == null ? DELETED : value;
        byte[] replaced = newest.put(Bytes.wrap(key), stored);
        bytes += replaced == null ? ENTRY_OVERHEAD + key.length + stored.length : stored.length - replaced.length;
        return bytes >= limitBytes;
    }

    boolean isEmpty() {
        return newest.isEmpty();
    }

    /** Writes every buffered key's newest value (or delete) to {@code db} as one batch in key order, then empties the buffer. */
    void drainTo(EverettDB db, WriteOptions options) {
        if (newest.isEmpty()) {
            return;
        }
        try (WriteBatch batch = new WriteBatch()) {
            for (Pending pending : sorted()) {
                byte[] key = StoreKeys.data(pending.key);
                if (pending.value == DELETED) {
                    batch.delete(key);
                } else {
                    batch.put(key, pending.value);
                }
            }
            db.write(options, batch);
        }
        newest.clear();
        bytes = 0;
    }

    /**
     * The buffered keys in unsigned byte order. Comparing the arrays themselves costs a chain of
     * dependent loads per comparison, scattered over the heap; most comparisons are decided instead
     * by eight bytes copied next to the key, taken just after the prefix every buffered key shares
     * (changelog keys often share a long one: a serialized type, a tenant, a name).
     */
    private Pending[] sorted() {
        int shared = sharedPrefixLength();
        Pending[] pending = new Pending[newest.size()];
        int i = 0;
        for (Map.Entry<Bytes, byte[]> entry : newest.entrySet()) {
            byte[] key = entry.getKey().get();
            pending[i++] = new Pending(bigEndianWord(key, shared), key, entry.getValue());
        }
        Arrays.sort(pending, Pending.ORDER);
        return pending;
    }

    private int sharedPrefixLength() {
        byte[] first = null;
        int shared = 0;
        for (Bytes wrapped : newest.keySet()) {
            byte[] key = wrapped.get();
            if (first == null) {
                first = key;
                shared = key.length;
            } else {
                int mismatch = Arrays.mismatch(first, 0, shared, key, 0, Math.min(shared, key.length));
                shared = mismatch >= 0 ? mismatch : Math.min(shared, key.length);
            }
        }
        return shared;
    }

    /**
     * Bytes {@code from} to {@code from + 7} of {@code key} as an unsigned big-endian number, zeros past
     * its end: a smaller word means a smaller key, an equal one (also for a key and the same key with
     * zeros appended) leaves the order to the keys.
     */
    private static long bigEndianWord(byte[] key, int from) {
        long word = 0;
        for (int i = from; i < from + Long.BYTES; i++) {
            word = word << 8 | (i < key.length ? key[i] & 0xFFL : 0);
        }
        return word;
    }

    /** A buffered key with its value and its order word. */
    private record Pending(long word, byte[] key, byte[] value) {
        static final Comparator<Pending> ORDER = (a, b) -> {
            int c = Long.compareUnsigned(a.word, b.word);
            return c != 0 ? c : Arrays.compareUnsigned(a.key, b.key);
        };
    }
}

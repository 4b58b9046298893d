package dev.everett.streams;

import dev.everett.store.EverettIterator;
import java.util.NoSuchElementException;
import java.util.function.Consumer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.KeyValueIterator;

/**
 * A store iterator over an EverettDB iterator bounded to a part of the record range, forward or
 * backward. Keys come back without the record-range byte; keys and values are copies the caller owns.
 */
final class EverettKeyValueIterator implements KeyValueIterator<Bytes, byte[]> {
    private final String storeName;
    private final EverettIterator cursor;
    private final boolean reverse;
    private final Consumer<EverettKeyValueIterator> onClose;
    private boolean closed;

    EverettKeyValueIterator(String storeName, EverettIterator cursor, boolean reverse, Consumer<EverettKeyValueIterator> onClose) {
        this.storeName = storeName;
        this.cursor = cursor;
        this.reverse = reverse;
        this.onClose = onClose;
        if (reverse) {
            cursor.seekToLast();
        } else {
            cursor.seekToFirst();
        }
    }

    @Override
    public synchronized boolean hasNext() {
        if (closed) {
            throw new InvalidStateStoreException("Everett iterator for store " + storeName + " has closed");
        }
        return cursor.isValid();
    }

    @Override
    public synchronized KeyValue<Bytes, byte[]> next() {
        if (!hasNext()) {
            throw new NoSuchElementException("Everett iterator for store " + storeName + " has no more records");
        }
        KeyValue<Bytes, byte[]> entry = KeyValue.pair(Bytes.wrap(StoreKeys.storeKey(cursor.key())), cursor.value());
        if (reverse) {
            cursor.prev();
        } else {
            cursor.next();
        }
        return entry;
    }

    @Override
    public synchronized Bytes peekNextKey() {
        if (!hasNext()) {
            throw new NoSuchElementException("Everett iterator for store " + storeName + " has no more records");
        }
        return Bytes.wrap(StoreKeys.storeKey(cursor.key()));
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            cursor.close();
            onClose.accept(this);
        }
    }

    /** The store is closing: release the cursor; later calls fail as on a closed iterator. */
    synchronized void closeWithStore() {
        if (!closed) {
            closed = true;
            cursor.close();
        }
    }
}

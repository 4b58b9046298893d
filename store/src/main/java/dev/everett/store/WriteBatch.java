package dev.everett.store;

import java.util.Arrays;
import java.util.Objects;

/**
 * Updates applied together: {@link EverettDB#write(WriteOptions, WriteBatch)} makes all of them
 * visible at once (to readers and to recovery) or none. Operations apply in the order added; each
 * takes the next sequence number, so a later operation on the same key wins.
 *
 * <p>The batch copies keys and values as they are added (later changes to the caller's arrays do
 * not affect it). The encoding it builds is the payload the write-ahead log stores. A batch is
 * not thread-safe; it may be written any number of times.
 */
public final class WriteBatch implements AutoCloseable {

    /** Operation codes, as in RocksDB's value types. */
    static final byte DELETE = 0x0;
    static final byte PUT = 0x1;
    static final byte SINGLE_DELETE = 0x7;

    /** The largest encoding a batch may reach. */
    static final int MAX_BYTES = Integer.MAX_VALUE - 8 - 2 * MappedAppendFile.WINDOW;

    private byte[] data = new byte[64];
    private int size;
    private int count;
    private boolean hasSingleDelete;

    public WriteBatch() {
    }

    /** A batch whose encoding starts with room for {@code bytes} (a single operation's, say, so it never grows). */
    WriteBatch(int bytes) {
        data = new byte[bytes];
    }

    /** The encoded size of one operation on a key and value of these lengths ({@code valueLength} -1 for a delete). */
    static int encodedSize(int keyLength, int valueLength) {
        return 1 + Varint.MAX_INT_BYTES + keyLength + (valueLength < 0 ? 0 : Varint.MAX_INT_BYTES + valueLength);
    }

    /** Adds a put of {@code value} under {@code key} (empty key and value are allowed). */
    public WriteBatch put(byte[] key, byte[] value) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        append(PUT, key, value);
        return this;
    }

    /** Adds a delete of {@code key}: reads then find nothing, whatever was written before. */
    public WriteBatch delete(byte[] key) {
        Objects.requireNonNull(key, "key");
        append(DELETE, key, null);
        return this;
    }

    /**
     * Adds a single delete of {@code key}, with RocksDB's contract: the key was put exactly once
     * since it was last single-deleted (or ever), and is never mixed with {@link #delete}. Under the
     * contract it reads exactly like a delete; a flush or compaction may then drop the delete and the
     * put it cancels together. Outside the contract the result is undefined, as in RocksDB.
     */
    public WriteBatch singleDelete(byte[] key) {
        Objects.requireNonNull(key, "key");
        append(SINGLE_DELETE, key, null);
        hasSingleDelete = true;
        return this;
    }

    /** The number of operations added since creation or the last {@link #clear()}. */
    public int count() {
        return count;
    }

    /** The size in bytes of the encoded operations (what the log will hold for this batch, less framing). */
    public int getDataSize() {
        return size;
    }

    /** True if the batch holds a single delete. */
    public boolean hasSingleDelete() {
        return hasSingleDelete;
    }

    /** Removes every operation. */
    public void clear() {
        size = 0;
        count = 0;
        hasSingleDelete = false;
    }

    /** Nothing to release (RocksJava's batch is native; ours lives on the heap). Kept for try-with-resources. */
    @Override
    public void close() {
    }

    byte[] data() {
        return data;
    }

    int size() {
        return size;
    }

    private void append(byte type, byte[] key, byte[] value) {
        int need = encodedSize(key.length, value == null ? -1 : value.length);
        // Room for the log's framing and a mapped log's window of zeros: a log holding the batch
        // alone must stay readable at open, in one array (see DBOptions' maxLogBytes).
        if ((long) size + need > MAX_BYTES) {
            throw new IllegalArgumentException("write batch would exceed 2 GiB (" + size + " bytes and " + count + " operations so far)");
        }
        if (size + need > data.length) {
            data = Arrays.copyOf(data, Math.max(size + need, data.length * 2));
        }
        data[size++] = type;
        size = Varint.put(data, size, key.length);
        System.arraycopy(key, 0, data, size, key.length);
        size += key.length;
        if (value != null) {
            size = Varint.put(data, size, value.length);
            System.arraycopy(value, 0, data, size, value.length);
            size += value.length;
        }
        count++;
    }
}

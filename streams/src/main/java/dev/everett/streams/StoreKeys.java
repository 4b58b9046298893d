package dev.everett.streams;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.kafka.common.TopicPartition;

/**
 * How one EverettDB holds a state store: its records and its own bookkeeping (format, open/closed
 * status, committed changelog offsets, query position) in two disjoint key ranges, so that offsets
 * can be written in the same atomic batch as the records they cover. Record keys are the store key
 * behind the byte {@link #DATA}; bookkeeping keys are an ASCII name behind {@link #META}. Both
 * ranges keep the store keys' unsigned lexicographic order.
 */
final class StoreKeys {
    /** First byte of every bookkeeping key. */
    static final byte META = 0x00;
    /** First byte of every record key. */
    static final byte DATA = 0x01;

    /** The smallest record key (inclusive lower bound of the record range). */
    static final byte[] DATA_START = {DATA};
    /** Just past the record range (exclusive upper bound). */
    static final byte[] DATA_END = {DATA + 1};

    static final byte[] FORMAT = meta("format");
    static final byte[] STATUS = meta("status");
    static final byte[] POSITION = meta("position");
    /** Committed offsets are {@code offset/<topic>/<partition>}; this is the prefix of them all. */
    static final byte[] OFFSET_PREFIX = meta("offset/");
    static final byte[] OFFSET_END = successorOfPrefix(OFFSET_PREFIX);

    private StoreKeys() {
    }

    static byte[] meta(String name) {
        byte[] ascii = name.getBytes(StandardCharsets.US_ASCII);
        byte[] key = new byte[ascii.length + 1];
        key[0] = META;
        System.arraycopy(ascii, 0, key, 1, ascii.length);
        return key;
    }

    static byte[] offset(TopicPartition partition) {
        // Topic names are ASCII letters, digits, '.', '_' and '-', so '/' cannot occur inside one.
        return meta("offset/" + partition.topic() + "/" + partition.partition());
    }

    /**
     * The partition a committed-offset key names (the inverse of {@link #offset}): only the key
     * {@link #offset} writes, so that a partition has one key and no two records claim it.
     *
     * @throws IllegalArgumentException if {@code key} is not {@code offset/<topic>/<partition>} with
     *         a legal topic name (1 to 249 ASCII letters, digits, '.', '_' and '-', not "." or
     *         "..", as Kafka's {@code Topic.validate}) and a partition
     *         number in its canonical decimal form (0 to 2^31 − 1, no sign, no leading zero)
     */
    static TopicPartition partitionOfOffset(byte[] key) {
        if (key.length <= OFFSET_PREFIX.length || !Arrays.equals(key, 0, OFFSET_PREFIX.length, OFFSET_PREFIX, 0, OFFSET_PREFIX.length)) {
            throw new IllegalArgumentException("not a committed-offset key offset/<topic>/<partition>: " + Arrays.toString(key));
        }
        // One char per byte, so that a byte that is not ASCII stays one character and is refused below.
        String name = new String(key, OFFSET_PREFIX.length, key.length - OFFSET_PREFIX.length, StandardCharsets.ISO_8859_1);
        int slash = name.lastIndexOf('/');
        if (slash <= 0) {
            throw new IllegalArgumentException("committed-offset key offset/" + name + " has no '/' between topic and partition");
        }
        String topic = name.substring(0, slash);
        for (int i = 0; i < topic.length(); i++) {
            char c = topic.charAt(i);
            if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-')) {
                throw new IllegalArgumentException("committed-offset key offset/" + name + ": byte " + (OFFSET_PREFIX.length + i)
                        + " (0x" + Integer.toHexString(c) + ") cannot be in a topic name (ASCII letters, digits, '.', '_' and '-')");
            }
        }
        if (topic.equals(".") || topic.equals("..")) {
            throw new IllegalArgumentException("committed-offset key offset/" + name + ": Kafka refuses the topic names '.' and '..'");
        }
        if (topic.length() > MAX_TOPIC_LENGTH) {
            throw new IllegalArgumentException("committed-offset key offset/" + name + ": a topic name is at most " + MAX_TOPIC_LENGTH
                    + " characters, this one has " + topic.length());
        }
        String number = name.substring(slash + 1);
        int partition;
        try {
            partition = Integer.parseInt(number);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("committed-offset key offset/" + name + " has no partition number after its last '/'", e);
        }
        if (partition < 0 || !Integer.toString(partition).equals(number)) {
            throw new IllegalArgumentException("committed-offset key offset/" + name + ": the partition must be written as "
                    + "the store writes it, a number from 0 without sign or leading zero");
        }
        return new TopicPartition(topic, partition);
    }

    /** Kafka's limit on a topic name's length. */
    static final int MAX_TOPIC_LENGTH = 249;

    /** Bytes of the stored form of a record key of {@code keyBytes} bytes ({@link #data}). */
    static int dataLength(int keyBytes) {
        return keyBytes + 1;
    }

    /** The record key of a store key: {@link #DATA} then the key's bytes. */
    static byte[] data(byte[] key) {
        byte[] stored = new byte[dataLength(key.length)];
        stored[0] = DATA;
        System.arraycopy(key, 0, stored, 1, key.length);
        return stored;
    }

    /** The record key just after {@code key} in order (the exclusive bound that includes {@code key}). */
    static byte[] dataAfter(byte[] key) {
        byte[] stored = new byte[key.length + 2];
        stored[0] = DATA;
        System.arraycopy(key, 0, stored, 1, key.length);
        return stored;                                   // trailing 0x00: the immediate successor
    }

    /** The store key inside a record key. */
    static byte[] storeKey(byte[] stored) {
        return Arrays.copyOfRange(stored, 1, stored.length);
    }

    /**
     * The exclusive upper bound of all record keys starting with {@code prefix}: the prefix with its
     * last byte below 0xff incremented and what follows dropped; past the record range if there is
     * no such byte (an empty prefix or one of only 0xff bytes).
     */
    static byte[] dataPrefixEnd(byte[] prefix) {
        byte[] bound = successorOfPrefix(data(prefix));
        return bound.length == 1 ? DATA_END : bound;
    }

    private static byte[] successorOfPrefix(byte[] prefix) {
        for (int i = prefix.length - 1; i >= 0; i--) {
            if (prefix[i] != (byte) 0xff) {
                byte[] bound = Arrays.copyOf(prefix, i + 1);
                bound[i]++;
                return bound;
            }
        }
        throw new IllegalArgumentException("a prefix of only 0xff bytes has no successor");
    }
}

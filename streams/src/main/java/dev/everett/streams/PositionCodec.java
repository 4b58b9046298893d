package dev.everett.streams;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.query.Position;

/**
 * The bytes a store's query {@link Position} is kept in: a version byte (1), the number of
 * (topic, partition) components as an int, then per component the topic's UTF-8 length (int) and
 * bytes, the partition (int) and the offset (long); big-endian.
 */
final class PositionCodec {
    private static final byte VERSION = 1;

    private PositionCodec() {
    }

    static byte[] encode(Position position) {
        int size = 1 + 4;
        int components = 0;
        for (String topic : position.getTopics()) {
            int partitions = position.getPartitionPositions(topic).size();
            size += partitions * (4 + topic.getBytes(StandardCharsets.UTF_8).length + 4 + 8);
            components += partitions;
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        out.put(VERSION).putInt(components);
        for (String topic : position.getTopics()) {
            byte[] name = topic.getBytes(StandardCharsets.UTF_8);
            for (Map.Entry<Integer, Long> entry : position.getPartitionPositions(topic).entrySet()) {
                out.putInt(name.length).put(name).putInt(entry.getKey()).putLong(entry.getValue());
            }
        }
        return out.array();
    }

    static Position decode(byte[] bytes, String store) {
        try {
            ByteBuffer in = ByteBuffer.wrap(bytes);
            byte version = in.get();
            if (version != VERSION) {
                throw new ProcessorStateException("Everett store " + store + ": position record has version "
                        + version + ", expected " + VERSION);
            }
            Position position = Position.emptyPosition();
            for (int n = in.getInt(); n > 0; n--) {
                int length = in.getInt();
                if (length < 0 || length > in.remaining()) {
                    // Checked before allocating: a damaged length must not become a huge array.
                    throw new ProcessorStateException("Everett store " + store + ": position record names a topic of "
                            + length + " bytes with " + in.remaining() + " bytes left");
                }
                byte[] name = new byte[length];
                in.get(name);
                position.withComponent(new String(name, StandardCharsets.UTF_8), in.getInt(), in.getLong());
            }
            if (in.hasRemaining()) {
                throw new ProcessorStateException("Everett store " + store + ": position record has "
                        + in.remaining() + " bytes after its last component");
            }
            return position;
        } catch (RuntimeException e) {
            if (e instanceof ProcessorStateException p) {
                throw p;
            }
            throw new ProcessorStateException("Everett store " + store + ": position record of "
                    + bytes.length + " bytes is truncated or malformed", e);
        }
    }
}

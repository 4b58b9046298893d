package dev.everett.segment.encoded;

import dev.everett.api.CommonWidthRule;
import dev.everett.api.Policy;
import dev.everett.api.SegmentInfo;
import dev.everett.segment.natives.NativeWriter;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

/**
 * A native segment written from encoded records: the caller gives each record's retained
 * prefix length, literal and encoded value (copied straight from their sources), and answers
 * for key order. Streaming and publishing are those of the ordinary writer: bounded memory,
 * temporary file, force, atomic rename, force the directory.
 */
public final class EncodedOutput implements AutoCloseable {
    private final NativeWriter writer;

    private EncodedOutput(NativeWriter writer) {
        this.writer = writer;
    }

    public static EncodedOutput create(Path target, Policy policy, CommonWidthRule rule) throws IOException {
        return new EncodedOutput(new NativeWriter(target, policy, rule));
    }

    /**
     * Appends one record, in the units of {@link EncodedRecords}: for bit-unit policies every
     * position is a bit offset into its segment and every length counts bits, the retained
     * prefix counts bits of the host key (a KV03 sort code is added here, not given), and the
     * value is an encoded bit span copied as is ({@link EncodedValues} makes one from bytes).
     *
     * @param retained units shared with the previous key (0 for the first record)
     * @param literal  where the key's remaining units lie
     * @param value    where the encoded value lies (with its presence tag under the optional grammar)
     */
    public void append(long retained, MemorySegment literal, long literalAt, long literalLength,
                       MemorySegment value, long valueAt, long valueLength) throws IOException {
        writer.appendEncoded(retained, literal, literalAt, literalLength, value, valueAt, valueLength);
    }

    public long recordCount() {
        return writer.recordCount();
    }

    public SegmentInfo finish() throws IOException {
        return writer.finish();
    }

    @Override
    public void close() throws IOException {
        writer.close();
    }
}

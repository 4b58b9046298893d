package dev.everett.segment.fc;

import dev.everett.segment.io.FileOutput;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * Byte-unit KV02 records: LEB128 counts and backspaces, key bytes as they are, the value's
 * encoding ({@link OptionalValue}'s tag, or the raw bytes) written straight to the file output.
 */
final class ByteRecordEncoder extends RecordEncoder {
    private final boolean optional;
    private FileOutput out;
    private long streamStart;

    ByteRecordEncoder(Framing framing, ValueCodec values, long blockWidth, long streamWidth, FileOutput out) {
        super(framing, values, blockWidth, streamWidth, "bytes");
        this.optional = values instanceof OptionalValue;
        redirect(out);
    }

    @Override
    long position() {
        return out.position() - streamStart;
    }

    @Override
    void writeCount(long v) throws IOException {
        out.writeVarint(v);
    }

    @Override
    void writeBackspace(long v) throws IOException {
        out.writeVarint(v);
    }

    @Override
    void writeLiteral(byte[] key, long from, long n) throws IOException {
        out.write(key, (int) from, (int) n);
    }

    @Override
    void writeSortCode(long n) {
        throw new IllegalStateException("byte-unit keys have no sort code");
    }

    @Override
    void copy(MemorySegment s, long at, long n) throws IOException {
        out.write(s, at, n);
    }

    @Override
    void writeValue(byte[] value, int n, boolean present) throws IOException {
        if (optional) {
            out.writeByte(present ? OptionalValue.PRESENT : OptionalValue.ABSENT);
        }
        if (present) {
            out.write(value, 0, n);
        }
    }

    @Override
    long commonPrefix(byte[] a, int aLength, byte[] b, int bLength) {
        // Called on keys in strictly increasing order, so they differ within the shorter one's length or at its end.
        int i = Arrays.mismatch(a, 0, aLength, b, 0, bLength);
        return i < 0 ? aLength : i;
    }

    @Override
    long units(long bytes) {
        return bytes;
    }

    @Override
    public long end() throws IOException {
        out.flush();
        return position();
    }

    @Override
    void redirect(FileOutput next) {
        this.out = next;
        this.streamStart = next.position();
    }
}

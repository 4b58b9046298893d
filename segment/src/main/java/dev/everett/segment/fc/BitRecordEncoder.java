package dev.everett.segment.fc;

import dev.everett.api.BackspaceCode;
import dev.everett.segment.bits.BitOutput;
import dev.everett.segment.bits.BitStrings;
import dev.everett.segment.bits.OrderedStrings;
import dev.everett.segment.io.FileOutput;
import java.io.IOException;
import java.lang.foreign.MemorySegment;

/**
 * Bit-unit records, KV02 framing or KV03's: EG0 counts, the policy's backspace code (Golomb or
 * exponential-Golomb), the logical key (the string sort's code {@code 0} then the key's bytes)
 * and the value in {@link BitValue}'s codec, through a 64-bit reservoir. KV02 in bits stores
 * each key in its ordered string form ({@link OrderedStrings}; docs/format.md, "Keys"), which
 * this encoder makes from the host's key; KV03 stores the host's key.
 */
final class BitRecordEncoder extends RecordEncoder {
    private final boolean golomb;
    private final long parameter;
    private final BitValue.Codec codec;
    private final boolean orderedStrings;
    private byte[] orderedScratch = new byte[64];
    private BitOutput bits;

    BitRecordEncoder(Framing framing, BitValue values, long blockWidth, long streamWidth, boolean orderedStrings, FileOutput out) {
        super(framing, values, blockWidth, streamWidth, "bits");
        this.golomb = framing.backspace().code() == BackspaceCode.GOLOMB;
        this.parameter = framing.backspace().parameter();
        this.codec = values.codec();
        this.orderedStrings = orderedStrings;
        redirect(out);
    }

    @Override
    byte[] stored(byte[] key, int keyLength) {
        if (!orderedStrings) {
            return super.stored(key, keyLength);
        }
        int n = OrderedStrings.length(key, keyLength);
        if (orderedScratch.length < n) {
            orderedScratch = new byte[Math.max(n, orderedScratch.length * 2)];
        }
        OrderedStrings.encode(key, keyLength, orderedScratch);
        storedLength = n;
        return orderedScratch;
    }

    @Override
    long position() {
        return bits.bitPosition();
    }

    @Override
    void writeCount(long v) throws IOException {
        bits.writeEg0(v);
    }

    @Override
    void writeBackspace(long v) throws IOException {
        if (golomb) {
            bits.writeGolomb(v, parameter);
        } else {
            bits.writeExpGolomb(v, (int) parameter);
        }
    }

    @Override
    void writeLiteral(byte[] key, long from, long n) throws IOException {
        int path = framing.pathBits();
        if (from < path) {
            bits.writeBits(0, (int) (path - from));
            bits.writeBitsOf(key, 0, n - (path - from));
        } else {
            bits.writeBitsOf(key, from - path, n);
        }
    }

    @Override
    void writeSortCode(long n) throws IOException {
        bits.writeBits(0, (int) n);
    }

    @Override
    void copy(MemorySegment s, long at, long n) throws IOException {
        bits.writeBitsOf(s, at, n);
    }

    @Override
    void writeValue(byte[] value, int n, boolean present) throws IOException {
        if (codec == BitValue.Codec.OPTIONAL_STRING) {
            bits.writeBits(present ? 1 : 0, 1);
        }
        if (present) {
            if (codec != BitValue.Codec.BYTES) {
                bits.writeEg0(n);
            }
            bits.writeBitsOf(value, 0, 8L * n);
        }
    }

    @Override
    long commonPrefix(byte[] a, int aLength, byte[] b, int bLength) {
        return BitStrings.commonPrefixBits(a, aLength, b, bLength);
    }

    @Override
    long units(long bytes) {
        return 8 * bytes;
    }

    @Override
    public long end() throws IOException {
        long extent = bits.bitPosition();
        bits.padToByte();
        return extent;
    }

    @Override
    void redirect(FileOutput next) {
        this.bits = new BitOutput(next);
    }
}

package dev.everett.segment;

import dev.everett.api.CorruptSegmentException;
import dev.everett.api.Policy;
import dev.everett.api.SegmentReader;
import java.lang.foreign.MemorySegment;

/**
 * The records of a native segment as they are encoded: for each record its retained prefix
 * length, its literal (the key units after that prefix) and its encoded value, all as offsets
 * into the mapped file. No key is rebuilt; this is what the native merger walks. Framing, block
 * offsets, the extent and the terminal length are checked as the walk goes; key order is left
 * to the consumer, which compares literals anyway.
 */
public final class EncodedRecords {
    private final Kv02Reader reader;
    private final FcStream stream;
    private final ByteFrame frame;
    private final EliasFanoReader.Cursor blockOffsets;
    private final long stride;
    private long ordinal = -1;
    private long nextBlock;
    private long keyLength;

    private EncodedRecords(Kv02Reader reader) {
        this.reader = reader;
        this.stream = reader.typed().stream();
        this.frame = new ByteFrame();
        this.frame.bind(stream);
        this.frame.pos = stream.start();
        this.blockOffsets = stream.offsets().cursor(0);
        this.stride = stream.stride();
    }

    /** The encoded records of a segment opened by this engine. */
    public static EncodedRecords of(SegmentReader reader) {
        if (!(reader instanceof Kv02Reader r)) {
            throw new IllegalArgumentException("not a segment of this engine: " + reader);
        }
        return new EncodedRecords(r);
    }

    public Policy policy() {
        return reader.policy();
    }

    public SegmentReader reader() {
        return reader;
    }

    public long count() {
        return stream.count();
    }

    /** Moves to the next record; false after the last (once the stream's end is checked). */
    public boolean next() {
        long o = ordinal + 1;
        if (o >= stream.count()) {
            if (o == stream.count()) {
                checkEnd();
                ordinal = o;
            }
            return false;
        }
        boolean blockStart = o == nextBlock;
        if (blockStart) {
            long expected = blockOffsets.next() + o * stride;
            if (expected != frame.pos - stream.start()) {
                throw corrupt(frame.pos, "block starts at stream offset " + (frame.pos - stream.start()) + " but its Elias–Fano entry says " + expected);
            }
            nextBlock += stream.blockWidth();
        }
        frame.read(blockStart, o == 0 ? 0 : keyLength, o == 0, stream.start());
        keyLength = frame.retained + frame.suffixLength;
        ordinal = o;
        return true;
    }

    private void checkEnd() {
        if (frame.pos != stream.end()) {
            throw corrupt(frame.pos, "records end before the stream's extent");
        }
        if (stream.count() > 0 && keyLength != stream.terminalLength()) {
            throw corrupt(stream.terminalAt(), "terminal key length " + stream.terminalLength() + " but the last key has " + keyLength);
        }
        long last = blockOffsets.next();
        if (last != stream.end() - stream.start() - stream.count() * stride) {
            throw corrupt(stream.end(), "last Elias–Fano entry disagrees with the extent");
        }
    }

    /** A corruption error naming this file. */
    public CorruptSegmentException corrupt(long offset, String rule) {
        return reader.corruption().at(offset, rule);
    }

    /** The mapped file every offset below refers to. */
    public MemorySegment source() {
        return stream.segment();
    }

    public long ordinal() {
        return ordinal;
    }

    /** File offset at which the current record starts. */
    public long recordStart() {
        return frame.start;
    }

    /** Units of the previous key this record keeps (as stored; may be less than maximal). */
    public long retained() {
        return frame.retained;
    }

    public long keyLength() {
        return keyLength;
    }

    /** File offset of the literal: key units [retained, keyLength). */
    public long literalAt() {
        return frame.suffixAt;
    }

    public long literalLength() {
        return frame.suffixLength;
    }

    /** File offset of the encoded value (with its presence tag under the optional grammar). */
    public long valueAt() {
        return frame.valueAt;
    }

    public long valueLength() {
        return frame.valueLength;
    }

    /** True if the encoded value is a tombstone (only under the optional grammar). */
    public boolean tombstone() {
        return reader.optionalValues() && OptionalValue.isTombstone(stream.segment(), reader.corruption(), frame.valueAt, frame.valueLength);
    }
}

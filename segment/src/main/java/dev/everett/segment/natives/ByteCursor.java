package dev.everett.segment.natives;

import dev.everett.api.SegmentCursor;
import dev.everett.segment.fc.ByteFrame;
import dev.everett.segment.fc.ByteWalker;
import dev.everett.segment.fc.ValueCodec;
import dev.everett.segment.io.Corruption;
import java.lang.foreign.MemorySegment;

/**
 * The host-facing forward cursor over a byte-unit KV02 file: an {@link ByteWalker} over the
 * native stream plus the value grammar. Values are not copied; they are read in place from the
 * mapping. Stepping allocates nothing.
 */
final class ByteCursor implements SegmentCursor {
    // Deliberately a near-copy of BitCursor: each is the zero-allocation step loop of one unit.
    private final MemorySegment s;
    private final Corruption corruption;
    private final ByteWalker walker;
    private final ValueCodec values;
    private MemorySegment keyView;
    private byte[] keyViewArray;
    private long valueAt;
    private long valueLength;
    private boolean tombstone;

    ByteCursor(NativeReader reader, NativeReader.Typed typed) {
        this.s = reader.file();
        this.corruption = reader.corruption();
        this.values = reader.values();
        this.walker = typed.stream().byteWalker();
    }

    @Override
    public boolean next() {
        if (!walker.next()) {
            return false;
        }
        ByteFrame f = walker.frame();
        ValueCodec v = values;
        v.decode(s, corruption, f.valueAt, f.valueLength);
        tombstone = v.tombstone;
        valueAt = v.at;
        valueLength = v.bytes;
        return true;
    }

    /** File offset at which the current record starts. */
    long recordStart() {
        return walker.frame().start;
    }

    /** Ordinal of the first record found with shorter-than-maximal retention, or -1. */
    long firstNonCanonical() {
        return walker.firstNonCanonical();
    }

    /** The key bytes, valid in [0, keyLength()). */
    byte[] keyArray() {
        return walker.key;
    }

    @Override
    public long ordinal() {
        return walker.ordinal();
    }

    @Override
    public int keyLength() {
        return walker.keyLength;
    }

    @Override
    public MemorySegment keyBuffer() {
        byte[] k = walker.key;
        if (k != keyViewArray) {
            keyViewArray = k;
            keyView = MemorySegment.ofArray(k);
        }
        return keyView;
    }

    @Override
    public boolean isTombstone() {
        return tombstone;
    }

    @Override
    public MemorySegment valueSource() {
        return s;
    }

    @Override
    public long valueOffset() {
        return valueAt;
    }

    @Override
    public long valueLength() {
        return valueLength;
    }

    @Override
    public void close() {
        walker.stop();
    }
}

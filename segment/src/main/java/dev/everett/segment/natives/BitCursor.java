package dev.everett.segment.natives;

import dev.everett.api.SegmentCursor;
import dev.everett.segment.bits.BitStrings;
import dev.everett.segment.bits.OrderedStrings;
import dev.everett.segment.fc.BitWalker;
import dev.everett.segment.fc.Frame;
import dev.everett.segment.fc.Framing;
import dev.everett.segment.fc.ValueCodec;
import dev.everett.segment.io.Corruption;
import java.lang.foreign.MemorySegment;

/**
 * The host-facing forward cursor over a bit-unit native (KV02 bit or KV03): a {@link BitWalker}
 * over the record stream, the host key cut out of the logical key (the key without its sort
 * code; for KV02 that is the ordered string form, decoded back), and the value decoded in place. A value that starts on a byte boundary is a view of the
 * mapping; otherwise it is copied into a reused buffer. Stepping allocates nothing once the
 * buffers have grown.
 */
final class BitCursor implements SegmentCursor {
    // Deliberately a near-copy of ByteCursor: each is the zero-allocation step loop of one unit.
    private final MemorySegment s;
    private final Corruption corruption;
    private final BitWalker walker;
    private final ValueCodec value;
    private final int pathBits;
    /** KV02 in bits: the stored key is the host key's ordered string form. */
    private final boolean orderedStrings;
    private byte[] key;
    private int keyLength;
    private MemorySegment keyView;
    private byte[] keyViewArray;
    private byte[] shifted = new byte[64];
    private MemorySegment valueSource;
    private long valueOffset;
    private long valueLength;
    private boolean tombstone;

    BitCursor(NativeReader reader, NativeReader.Typed typed) {
        this.s = reader.file();
        this.corruption = reader.corruption();
        this.walker = typed.stream().bitWalker();
        this.value = reader.values();
        this.pathBits = typed.stream().framing().pathBits();
        this.orderedStrings = Framing.orderedStrings(reader.policy());
    }

    @Override
    public boolean next() {
        if (!walker.next()) {
            return false;
        }
        Frame f = walker.frame();
        ValueCodec v = value;
        v.decode(f, s, corruption);
        tombstone = v.tombstone;
        valueOffset = v.offsetIn(s);
        valueSource = v.source(s);
        valueLength = v.bytes;
        long bits = walker.keyUnits() - pathBits;
        int n = (int) (bits >>> 3);
        if (shifted.length < n) {
            shifted = new byte[Math.max(n, 2 * shifted.length)];
        }
        BitStrings.dropFirstBit(walker.keyBuffer(), shifted, n);
        key = shifted;
        keyLength = orderedStrings ? hostKey(shifted, n, f.start) : n;
        return true;
    }

    /** The host key of the ordered string form in {@code b[0 .. n)}, decoded in place (KV02 in bits). */
    private int hostKey(byte[] b, int n, long recordBit) {
        int h = OrderedStrings.decodeInPlace(b, n);
        if (h < 0) {
            throw corruption.at(recordBit >>> 3, OrderedStrings.NOT_CANONICAL);
        }
        return h;
    }

    /** Ordinal of the first record found with shorter-than-maximal retention, or -1. */
    long firstNonCanonical() {
        return walker.firstNonCanonical();
    }

    @Override
    public long ordinal() {
        return walker.ordinal();
    }

    @Override
    public int keyLength() {
        return keyLength;
    }

    @Override
    public MemorySegment keyBuffer() {
        byte[] k = key;
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
        return valueSource;
    }

    @Override
    public long valueOffset() {
        return valueOffset;
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

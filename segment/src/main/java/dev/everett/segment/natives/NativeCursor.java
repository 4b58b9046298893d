package dev.everett.segment.natives;

import dev.everett.api.SegmentCursor;
import dev.everett.segment.fc.KeyWalker;
import dev.everett.segment.io.Corruption;
import java.lang.foreign.MemorySegment;

/**
 * What the host-facing forward cursors of both units share: the current record's key and
 * value as {@link #next()} left them, and the accessors. Each unit's subclass
 * ({@link ByteCursor}, {@link BitCursor}) holds its own concrete walker and its own step, so the
 * per-record loop has one call target.
 */
abstract sealed class NativeCursor implements SegmentCursor permits ByteCursor, BitCursor {
    final MemorySegment s;
    final Corruption corruption;
    private final KeyWalker walk;
    byte[] key;
    int keyLength;
    MemorySegment valueSource;
    long valueOffset;
    long valueLength;
    boolean tombstone;
    private MemorySegment keyView;
    private byte[] keyViewArray;

    NativeCursor(NativeReader reader, KeyWalker walk) {
        this.s = reader.file();
        this.corruption = reader.corruption();
        this.walk = walk;
        this.valueSource = s;
    }

    @Override
    public final long ordinal() {
        return walk.ordinal();
    }

    @Override
    public final int keyLength() {
        return keyLength;
    }

    @Override
    public final MemorySegment keyBuffer() {
        byte[] k = key;
        if (k != keyViewArray) {
            keyViewArray = k;
            keyView = MemorySegment.ofArray(k);
        }
        return keyView;
    }

    @Override
    public final boolean isTombstone() {
        return tombstone;
    }

    @Override
    public final MemorySegment valueSource() {
        return valueSource;
    }

    @Override
    public final long valueOffset() {
        return valueOffset;
    }

    @Override
    public final long valueLength() {
        return valueLength;
    }

    @Override
    public final void close() {
        walk.stop();
    }
}

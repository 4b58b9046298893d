package dev.everett.compaction;

import dev.everett.api.KeyRange;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * The tree cursor of a partitioned version whose only records are in one level (no level 0, one
 * non-empty level below: a fully compacted store): the level's own cursor, hiding its tombstones.
 * With one child there is nothing to merge, so no {@link MergedCursor} stands between the reader
 * and the level: a scan's step, key and value each reach the segment cursor through one object
 * fewer (and no child array), which a step of a few tens of nanoseconds feels.
 *
 * <p>It behaves as a {@link MergedCursor} over that one child: a tombstone hides nothing older
 * (there is nothing older), so every move skips tombstones in its direction; moving or reading
 * when not on a record, or after closing, throws {@link IllegalStateException}.
 */
final class LevelTreeCursor extends LevelCursor implements TreeCursor {
    private final Runnable onClose;
    private boolean closed;
    private MemorySegment keyView;

    LevelTreeCursor(List<SegmentHandle> segments, KeyRange range, Runnable onClose) {
        super(segments, range);
        this.onClose = onClose;
    }

    private void requireOpen() {
        MergedCursor.requireOpen(closed);
    }

    private void requireValid() {
        MergedCursor.requireValid(closed, super.valid());
    }

    @Override
    public boolean valid() {
        return !closed && super.valid();
    }

    @Override
    public void seekToFirst() {
        requireOpen();
        super.seekToFirst();
        skipForward();
    }

    @Override
    public void seekToLast() {
        requireOpen();
        super.seekToLast();
        skipBackward();
    }

    @Override
    public void seek(byte[] target) {
        requireOpen();
        super.seek(target);
        skipForward();
    }

    @Override
    public void seekForPrev(byte[] target) {
        requireOpen();
        super.seekForPrev(target);
        skipBackward();
    }

    @Override
    public void next() {
        requireValid();
        super.next();
        skipForward();
    }

    @Override
    public void prev() {
        requireValid();
        super.prev();
        skipBackward();
    }

    private void skipForward() {
        keyView = null;
        while (super.valid() && super.isTombstone()) {
            super.next();
        }
    }

    private void skipBackward() {
        keyView = null;
        while (super.valid() && super.isTombstone()) {
            super.prev();
        }
    }

    @Override
    public MemorySegment key() {
        requireValid();
        if (keyView == null) {
            keyView = keyBuffer().asSlice(0, keyLength());
        }
        return keyView;
    }

    @Override
    public MemorySegment value() {
        requireValid();
        return super.value();
    }

    /** The key copied by the segment cursor (no view made for it). */
    @Override
    public byte[] keyBytes() {
        requireValid();
        return super.keyBytes();
    }

    /** The value copied by the segment cursor (no view made for it); the cursor is never on a tombstone. */
    @Override
    public byte[] valueBytes() {
        requireValid();
        return super.valueBytes();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            super.close();
        } finally {
            onClose.run();
        }
    }
}

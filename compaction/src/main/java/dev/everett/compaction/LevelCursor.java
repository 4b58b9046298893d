package dev.everett.compaction;

import dev.everett.api.KeyRange;
import dev.everett.api.SeekCursor;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;

/**
 * A seek cursor over one partitioned level: key-disjoint segments in key order, read as one run.
 * A seek finds the one segment that may hold the target by key range and opens a cursor on it
 * only; moving past a segment's end opens the next.
 */
final class LevelCursor implements SeekCursor {
    private final List<SegmentHandle> segments;
    private final KeyRange range;
    private SeekCursor cursor;
    private int at = -1;

    LevelCursor(List<SegmentHandle> segments, KeyRange range) {
        this.segments = segments;
        this.range = range;
    }

    private void open(int i) {
        if (at != i) {
            if (cursor != null) {
                cursor.close();
            }
            cursor = segments.get(i).segment().cursor(range);
            at = i;
        }
    }

    /** The first segment whose largest key is ≥ {@code target}. */
    private int firstEndingAtOrAfter(byte[] target) {
        int lo = 0;
        int hi = segments.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (Arrays.compareUnsigned(segments.get(mid).meta().largestKeyView(), target) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** The last segment whose smallest key is ≤ {@code target}, or -1. */
    private int lastStartingAtOrBefore(byte[] target) {
        int lo = 0;
        int hi = segments.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (Arrays.compareUnsigned(segments.get(mid).meta().smallestKeyView(), target) <= 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo - 1;
    }

    private void forwardFrom(int i) {
        for (; i < segments.size(); i++) {
            open(i);
            cursor.seekToFirst();
            if (cursor.valid()) {
                return;
            }
        }
    }

    private void backwardFrom(int i) {
        for (; i >= 0; i--) {
            open(i);
            cursor.seekToLast();
            if (cursor.valid()) {
                return;
            }
        }
    }

    private void invalidate() {
        if (cursor != null) {
            cursor.close();
            cursor = null;
        }
        at = -1;
    }

    @Override
    public boolean valid() {
        return cursor != null && cursor.valid();
    }

    @Override
    public void seekToFirst() {
        invalidate();
        forwardFrom(range.lower() == null ? 0 : firstEndingAtOrAfter(range.lower()));
    }

    @Override
    public void seekToLast() {
        invalidate();
        backwardFrom(range.upper() == null ? segments.size() - 1 : lastStartingAtOrBefore(range.upper()));
    }

    @Override
    public void seek(byte[] target) {
        int i = firstEndingAtOrAfter(range.lower() != null && Arrays.compareUnsigned(target, range.lower()) < 0 ? range.lower() : target);
        if (i >= segments.size()) {
            invalidate();
            return;
        }
        open(i);
        cursor.seek(target);
        if (!cursor.valid()) {
            forwardFrom(i + 1);
        }
    }

    @Override
    public void seekForPrev(byte[] target) {
        int i = lastStartingAtOrBefore(target);
        if (i < 0) {
            invalidate();
            return;
        }
        open(i);
        cursor.seekForPrev(target);
        if (!cursor.valid()) {
            backwardFrom(i - 1);
        }
    }

    @Override
    public void next() {
        cursor.next();
        if (!cursor.valid()) {
            forwardFrom(at + 1);
        }
    }

    @Override
    public void prev() {
        cursor.prev();
        if (!cursor.valid()) {
            backwardFrom(at - 1);
        }
    }

    @Override
    public long ordinal() {
        return cursor.ordinal();
    }

    @Override
    public int keyLength() {
        return cursor.keyLength();
    }

    @Override
    public MemorySegment keyBuffer() {
        return cursor.keyBuffer();
    }

    @Override
    public byte[] keyBytes() {
        return cursor.keyBytes();
    }

    @Override
    public boolean isTombstone() {
        return cursor.isTombstone();
    }

    @Override
    public MemorySegment value() {
        return cursor.value();
    }

    @Override
    public byte[] valueBytes() {
        return cursor.valueBytes();
    }

    @Override
    public void close() {
        invalidate();
    }
}

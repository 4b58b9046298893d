package dev.everett.compaction;

import dev.everett.api.KeyRange;
import dev.everett.api.RunCursors;
import dev.everett.api.SeekCursor;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;

/**
 * A seek cursor over one partitioned level: key-disjoint segments in key order, read as one run.
 * A seek finds the one segment that may hold the target by key range and opens a cursor on it
 * only; moving past a segment's end opens the next.
 *
 * <p>Each segment is read through its chain's run cursor ({@link dev.everett.api.Chain#runCursors}
 * of its one run), as a whole-run version reads its runs: a bare segment cursor, not the
 * {@link dev.everett.api.IndexedSegment#cursor} handle that checks, at each of the several calls
 * a step makes, that the segment and its store are still open. The version this cursor reads
 * holds its segments open until the cursor is closed, so that check is made once, when a
 * segment's cursor is opened (a store closed meanwhile closes the mappings, which then refuse
 * every read).
 */
sealed class LevelCursor implements SeekCursor permits LevelTreeCursor {
    private final List<SegmentHandle> segments;
    private final KeyRange range;
    /** The open segment's run cursors (one run) and that run's cursor, or null. */
    private RunCursors runs;
    private SeekCursor cursor;
    private int at = -1;

    LevelCursor(List<SegmentHandle> segments, KeyRange range) {
        this.segments = segments;
        this.range = range;
    }

    private void open(int i) {
        if (at != i) {
            invalidate();
            runs = segments.get(i).segment().runCursors(1, range);
            cursor = runs.run(0);
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

    /** Closes the open segment's cursor, if any: nothing is open and the cursor is not valid. */
    private void invalidate() {
        at = -1;
        if (runs != null) {
            RunCursors r = runs;
            runs = null;
            cursor = null;
            r.close();
        }
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

package dev.everett.segment.cascade;

import dev.everett.api.KeyRange;
import dev.everett.api.RunCursors;
import dev.everett.api.SeekCursor;
import dev.everett.segment.index.Catalog;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Seek cursors over the natives of a chain's bottom catalogs, positioned together by
 * {@link Cascade#lowerBounds}: one descent answers every run. Each run's cursor is a
 * {@link SegmentSeekCursor} at its catalog's depth, so it steps forward with a walker and
 * backward through the {@link KeyMaterialiser} of the whole chain (one group decode per K
 * records), exactly as the cursor of a segment on its own.
 */
public final class ChainRunCursors implements RunCursors {
    private final Cascade cascade;
    private final KeyRange range;
    /** Newest run first: {@code cursors[i]} reads the catalog at depth {@code top + i}. */
    private final SegmentSeekCursor[] cursors;
    private final int top;
    /** Scratch: the first record ≥ the target in every catalog of the main route, head first. */
    private final long[] bounds;

    public ChainRunCursors(Cascade cascade, int runs, KeyRange range) {
        this(cascade, mainRoute(cascade), runs, range);
    }

    /** {@code path}: the catalogs of the cascade's main route, head first (a segment keeps its own). */
    public ChainRunCursors(Cascade cascade, List<Catalog> path, int runs, KeyRange range) {
        this.cascade = cascade;
        this.range = Objects.requireNonNull(range, "range");
        if (runs < 1 || runs > path.size()) {
            throw new IllegalArgumentException("runs must be between 1 and the chain's " + path.size() + " catalogs, got " + runs);
        }
        this.bounds = new long[path.size()];
        this.top = path.size() - runs;
        this.cursors = new SegmentSeekCursor[runs];
        KeyMaterialiser keys = new KeyMaterialiser(path);
        for (int i = 0; i < runs; i++) {
            Catalog c = path.get(top + i);
            cursors[i] = new SegmentSeekCursor(cascade, keys, top + i, c.nativeReader, range);
        }
    }

    private static List<Catalog> mainRoute(Cascade cascade) {
        List<Catalog> path = new ArrayList<>();
        for (Catalog c = cascade.head(); c != null; c = c.main) {
            path.add(c);
        }
        return path;
    }

    @Override
    public int runs() {
        return cursors.length;
    }

    @Override
    public SeekCursor run(int i) {
        return cursors[i];
    }

    @Override
    public void seekToFirst() {
        if (range.lower() != null) {
            seek(range.lower());
            return;
        }
        for (SegmentSeekCursor c : cursors) {
            c.seekToFirst();
        }
    }

    @Override
    public void seekToLast() {
        if (range.upper() == null) {
            for (SegmentSeekCursor c : cursors) {
                c.seekToLast();
            }
            return;
        }
        cascade.lowerBounds(range.upper(), range.upper().length, bounds);
        for (int i = 0; i < cursors.length; i++) {
            cursors[i].landBefore(bounds[top + i]);
        }
    }

    @Override
    public void seek(byte[] target) {
        byte[] q = cursors[0].seekTarget(target);
        cascade.lowerBounds(q, q.length, bounds);
        for (int i = 0; i < cursors.length; i++) {
            cursors[i].landAt(bounds[top + i], q);
        }
    }

    @Override
    public void seekForPrev(byte[] target) {
        if (cursors[0].pastUpper(target)) {
            seekToLast();
            return;
        }
        cascade.lowerBounds(target, target.length, bounds);
        for (int i = 0; i < cursors.length; i++) {
            cursors[i].landAtOrBefore(bounds[top + i], target);
        }
    }

    @Override
    public void close() {
        for (SegmentSeekCursor c : cursors) {
            c.close();
        }
    }
}

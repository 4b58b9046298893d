package dev.everett.store;

import java.util.Arrays;

/**
 * Several sources merged into one record per key, both directions: where sources share a key,
 * the newest source (lowest index) wins and the others are stepped past it. Tombstones pass
 * through (the iterator above skips them) so they hide older sources' records.
 *
 * <p>Moving forward, every valid child sits on its first key ≥ the current key; moving backward,
 * on its last key ≤ it. Changing direction repositions the other children (as LevelDB's merging
 * iterator does). With the handful of sources a store has, a linear scan for the minimum beats a heap.
 */
final class MergingCursor implements SourceCursor {

    private final SourceCursor[] children;
    private int current = -1;
    private boolean forward = true;

    /** {@code children} newest first. */
    MergingCursor(SourceCursor[] children) {
        this.children = children;
    }

    @Override
    public void seek(byte[] target) {
        for (SourceCursor c : children) {
            c.seek(target);
        }
        forward = true;
        pickSmallest();
    }

    @Override
    public void seekForPrev(byte[] target) {
        for (SourceCursor c : children) {
            c.seekForPrev(target);
        }
        forward = false;
        pickLargest();
    }

    @Override
    public void seekToFirst() {
        for (SourceCursor c : children) {
            c.seekToFirst();
        }
        forward = true;
        pickSmallest();
    }

    @Override
    public void seekToLast() {
        for (SourceCursor c : children) {
            c.seekToLast();
        }
        forward = false;
        pickLargest();
    }

    @Override
    public void next() {
        if (!forward) {
            byte[] k = key().clone();
            for (SourceCursor c : children) {
                c.seek(k);
                if (c.valid() && Arrays.equals(c.key(), k)) {
                    c.next();
                }
            }
            forward = true;
        } else {
            advanceOthersPast(true);
            children[current].next();
        }
        pickSmallest();
    }

    @Override
    public void prev() {
        if (forward) {
            byte[] k = key().clone();
            for (SourceCursor c : children) {
                c.seekForPrev(k);
                if (c.valid() && Arrays.equals(c.key(), k)) {
                    c.prev();
                }
            }
            forward = false;
        } else {
            advanceOthersPast(false);
            children[current].prev();
        }
        pickLargest();
    }

    @Override
    public boolean valid() {
        return current >= 0;
    }

    @Override
    public byte[] key() {
        return children[current].key();
    }

    @Override
    public boolean isTombstone() {
        return children[current].isTombstone();
    }

    @Override
    public byte[] value() {
        return children[current].value();
    }

    @Override
    public byte[] valueCopy() {
        return children[current].valueCopy();
    }

    @Override
    public void close() {
        for (SourceCursor c : children) {
            c.close();
        }
        current = -1;
    }

    /** Steps every other child that sits on the current key, so the key is not seen twice. */
    private void advanceOthersPast(boolean forwardStep) {
        byte[] k = children[current].key();
        for (int i = 0; i < children.length; i++) {
            SourceCursor c = children[i];
            if (i != current && c.valid() && Arrays.equals(c.key(), k)) {
                if (forwardStep) {
                    c.next();
                } else {
                    c.prev();
                }
            }
        }
    }

    private void pickSmallest() {
        pick(-1);
    }

    private void pickLargest() {
        pick(1);
    }

    /** Makes current the child with the smallest ({@code sign} -1) or largest (+1) key; ties go to the newest. */
    private void pick(int sign) {
        int best = -1;
        byte[] bestKey = null;
        for (int i = 0; i < children.length; i++) {
            SourceCursor c = children[i];
            if (c.valid()) {
                byte[] k = c.key();
                if (best < 0 || Integer.signum(Arrays.compareUnsigned(k, bestKey)) == sign) {
                    best = i;
                    bestKey = k;
                }
            }
        }
        current = best;
    }
}

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
 *
 * <p>A scan also notes the runner-up (the best key among the other children) and whether it ties
 * the current key. While no other child sits on the current key, a step moves only the current
 * child and compares its new key with the runner-up's, once: a long run of keys from one source
 * (a memtable's burst over the segments, or the segments between sparse memtable keys) costs one
 * comparison a step, not a scan of every child.
 */
final class MergingCursor implements SourceCursor {

    private final SourceCursor[] children;
    private int current = -1;
    /** The child with the best key among the others (-1 if none is valid); meaningful while {@code current >= 0}. */
    private int runnerUp = -1;
    /** The runner-up sits on the current key (so it must be stepped past it too). */
    private boolean tied;
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
            turn(true);
        } else if (!stepAlone(true)) {
            advanceOthersPast(true);
            children[current].next();
        } else {
            return;
        }
        pickSmallest();
    }

    @Override
    public void prev() {
        if (forward) {
            turn(false);
        } else if (!stepAlone(false)) {
            advanceOthersPast(false);
            children[current].prev();
        } else {
            return;
        }
        pickLargest();
    }

    /** Repositions every child on the other side of the current key, for travel {@code ahead} (forward) or back. */
    private void turn(boolean ahead) {
        byte[] k = key().clone();
        for (SourceCursor c : children) {
            if (ahead) {
                c.seek(k);
            } else {
                c.seekForPrev(k);
            }
            if (c.valid() && Arrays.equals(c.key(), k)) {
                if (ahead) {
                    c.next();
                } else {
                    c.prev();
                }
            }
        }
        forward = ahead;
    }

    /**
     * Steps the current child alone when no other child sits on its key, and keeps it current if
     * its new key still beats the runner-up's (one comparison). Returns false, having moved
     * nothing, if another child ties the current key; true if the step is complete, including
     * when a scan was needed to pick the new current child.
     */
    private boolean stepAlone(boolean ahead) {
        if (tied) {
            return false;
        }
        SourceCursor c = children[current];
        if (ahead) {
            c.next();
        } else {
            c.prev();
        }
        if (runnerUp < 0) {
            if (!c.valid()) {
                current = -1;
            }
            return true;
        }
        if (c.valid()) {
            int cmp = Arrays.compareUnsigned(c.key(), children[runnerUp].key());
            if (ahead ? cmp < 0 : cmp > 0) {
                return true;
            }
            if (cmp == 0 && current < runnerUp) {
                tied = true; // still current: the newer of the two
                return true;
            }
        }
        pick(ahead ? -1 : 1);
        return true;
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
    public byte[] keyCopy() {
        return children[current].keyCopy();
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

    /**
     * Makes current the child with the smallest ({@code sign} -1) or largest (+1) key, ties going
     * to the newest, and notes the runner-up and whether it ties.
     */
    private void pick(int sign) {
        int best = -1;
        int second = -1;
        byte[] bestKey = null;
        byte[] secondKey = null;
        for (int i = 0; i < children.length; i++) {
            SourceCursor c = children[i];
            if (c.valid()) {
                byte[] k = c.key();
                if (best < 0) {
                    best = i;
                    bestKey = k;
                } else if (Integer.signum(Arrays.compareUnsigned(k, bestKey)) == sign) {
                    second = best;
                    secondKey = bestKey;
                    best = i;
                    bestKey = k;
                } else if (second < 0 || Integer.signum(Arrays.compareUnsigned(k, secondKey)) == sign) {
                    second = i;
                    secondKey = k;
                }
            }
        }
        current = best;
        runnerUp = second;
        tied = second >= 0 && Arrays.equals(bestKey, secondKey);
    }
}

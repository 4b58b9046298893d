package dev.everett.compaction;

import dev.everett.api.RunCursors;
import dev.everett.api.SeekCursor;
import java.lang.foreign.MemorySegment;

/**
 * Merges child cursors ordered newest first (a level-0 segment, a partitioned level, or a run):
 * each key once, from the newest child holding it, and a key whose newest record is a tombstone
 * skipped with everything older. Seeks position every child through {@link RunCursors}: one search
 * per child ({@link SeparateCursors}), or, over a whole-run chain, one cascade descent for all. Moving in one direction
 * advances only the children on the current key; turning around re-seeks every child to just past
 * the current key (one key copy per turn). Children are few (level-0 segments plus levels), so the
 * smallest or largest key is found by a scan over them.
 *
 * <p>When the current child is the only valid one (a fully compacted store, or the last level
 * once the others are exhausted in the direction of travel), a step moves it alone with no scan:
 * a child that ran out in one direction stays out until a seek or a turn repositions every child.
 */
final class MergedCursor implements TreeCursor {
    /** The children, newest first, and how to position all of them at once. */
    private final RunCursors all;
    private final SeekCursor[] children;
    private final Runnable onClose;
    private int current = -1;
    private boolean forward = true;
    private boolean closed;
    private MemorySegment keyView;
    /** No child but the current one is valid; meaningful while {@code current >= 0}. */
    private boolean alone;

    MergedCursor(RunCursors all, Runnable onClose) {
        this.all = all;
        this.children = new SeekCursor[all.runs()];
        for (int i = 0; i < children.length; i++) {
            children[i] = all.run(i);
        }
        this.onClose = onClose;
    }

    private void requireOpen() {
        requireOpen(closed);
    }

    private void requireValid() {
        requireValid(closed, current >= 0);
    }

    /** A tree cursor's check before it moves: open (shared with {@link LevelTreeCursor}). */
    static void requireOpen(boolean closed) {
        if (closed) {
            throw new IllegalStateException("cursor closed");
        }
    }

    /** A tree cursor's check before it steps or reads: open and on a record. */
    static void requireValid(boolean closed, boolean onRecord) {
        requireOpen(closed);
        if (!onRecord) {
            throw new IllegalStateException("cursor is not on a record");
        }
    }

    @Override
    public boolean valid() {
        return !closed && current >= 0;
    }

    @Override
    public void seekToFirst() {
        requireOpen();
        all.seekToFirst();
        forward = true;
        settleForward();
    }

    @Override
    public void seekToLast() {
        requireOpen();
        all.seekToLast();
        forward = false;
        settleBackward();
    }

    @Override
    public void seek(byte[] target) {
        requireOpen();
        all.seek(target);
        forward = true;
        settleForward();
    }

    @Override
    public void seekForPrev(byte[] target) {
        requireOpen();
        all.seekForPrev(target);
        forward = false;
        settleBackward();
    }

    @Override
    public void next() {
        requireValid();
        if (alone && forward) {
            stepAlone(true);
            return;
        }
        if (!forward) {
            byte[] key = keyBytes();
            all.seek(key);
            for (SeekCursor c : children) {
                if (c.valid() && Keys.compare(c, key) == 0) {
                    c.next();
                }
            }
            forward = true;
        } else {
            skipCurrentKey(true);
        }
        settleForward();
    }

    @Override
    public void prev() {
        requireValid();
        if (alone && !forward) {
            stepAlone(false);
            return;
        }
        if (forward) {
            byte[] key = keyBytes();
            all.seekForPrev(key);
            for (SeekCursor c : children) {
                if (c.valid() && Keys.compare(c, key) == 0) {
                    c.prev();
                }
            }
            forward = false;
        } else {
            skipCurrentKey(false);
        }
        settleBackward();
    }

    /**
     * Steps the lone valid child past its tombstones: with no other child valid, none can tie its
     * key and a tombstone hides nothing older, so the settle's scan has nothing to decide.
     */
    private void stepAlone(boolean ahead) {
        keyView = null;
        SeekCursor c = children[current];
        do {
            step(c, ahead);
        } while (c.valid() && c.isTombstone());
        if (!c.valid()) {
            current = -1;
        }
    }

    /** Moves every child on the current key ({@code children[current]}'s) one step, the owner of the key last. */
    private void skipCurrentKey(boolean ahead) {
        SeekCursor owner = children[current];
        for (int i = 0; i < children.length; i++) {
            SeekCursor c = children[i];
            if (i != current && c.valid() && Keys.compare(c, owner) == 0) {
                step(c, ahead);
            }
        }
        step(owner, ahead);
    }

    private static void step(SeekCursor c, boolean ahead) {
        if (ahead) {
            c.next();
        } else {
            c.prev();
        }
    }

    /** Puts the cursor on the smallest visible key at or after the children's positions. */
    private void settleForward() {
        settle(true);
    }

    private void settleBackward() {
        settle(false);
    }

    private void settle(boolean ahead) {
        keyView = null;
        while (true) {
            int best = -1;
            int valid = 0;
            for (int i = 0; i < children.length; i++) {
                SeekCursor c = children[i];
                if (!c.valid()) {
                    continue;
                }
                valid++;
                if (best < 0) {
                    best = i;
                    continue;
                }
                int cmp = Keys.compare(c, children[best]);
                if (ahead ? cmp < 0 : cmp > 0) {
                    best = i; // ties keep the newer (earlier) child
                }
            }
            current = best;
            alone = valid == 1;
            if (best < 0 || !children[best].isTombstone()) {
                return;
            }
            skipCurrentKey(ahead);
        }
    }

    @Override
    public MemorySegment key() {
        requireValid();
        if (keyView == null) {
            SeekCursor c = children[current];
            keyView = c.keyBuffer().asSlice(0, c.keyLength());
        }
        return keyView;
    }

    @Override
    public MemorySegment value() {
        requireValid();
        return children[current].value();
    }

    /** The key copied by the child that holds it (no view made for it). */
    @Override
    public byte[] keyBytes() {
        requireValid();
        return children[current].keyBytes();
    }

    /** The value copied by the child that holds it (no view made for it); current is never a tombstone. */
    @Override
    public byte[] valueBytes() {
        requireValid();
        return children[current].valueBytes();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        current = -1;
        try {
            all.close();
        } finally {
            onClose.run();
        }
    }
}

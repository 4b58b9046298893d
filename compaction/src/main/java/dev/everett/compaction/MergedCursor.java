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

    MergedCursor(RunCursors all, Runnable onClose) {
        this.all = all;
        this.children = new SeekCursor[all.runs()];
        for (int i = 0; i < children.length; i++) {
            children[i] = all.run(i);
        }
        this.onClose = onClose;
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("cursor closed");
        }
    }

    private void requireValid() {
        requireOpen();
        if (current < 0) {
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
            for (int i = 0; i < children.length; i++) {
                SeekCursor c = children[i];
                if (!c.valid()) {
                    continue;
                }
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

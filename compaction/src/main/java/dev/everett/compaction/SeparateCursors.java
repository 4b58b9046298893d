package dev.everett.compaction;

import dev.everett.api.RunCursors;
import dev.everett.api.SeekCursor;

/**
 * Child cursors of a partitioned version (level-0 segments and levels), newest first, each
 * positioned by its own search: they share no cascade, unlike the runs of a whole-run chain.
 */
final class SeparateCursors implements RunCursors {
    private final SeekCursor[] cursors;

    SeparateCursors(SeekCursor[] cursors) {
        this.cursors = cursors;
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
        for (SeekCursor c : cursors) {
            c.seekToFirst();
        }
    }

    @Override
    public void seekToLast() {
        for (SeekCursor c : cursors) {
            c.seekToLast();
        }
    }

    @Override
    public void seek(byte[] target) {
        for (SeekCursor c : cursors) {
            c.seek(target);
        }
    }

    @Override
    public void seekForPrev(byte[] target) {
        for (SeekCursor c : cursors) {
            c.seekForPrev(target);
        }
    }

    @Override
    public void close() {
        for (SeekCursor c : cursors) {
            c.close();
        }
    }
}

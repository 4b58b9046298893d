package dev.everett.store;

import dev.everett.compaction.TreeCursor;

/**
 * A version's merged segment cursor as the oldest source of a read. The tree cursor already
 * hides its own tombstones, which is right for the oldest source: nothing older is left for them
 * to hide. Keys are copied once per position (the cursor's views move with it).
 */
final class TreeSource implements SourceCursor {

    private final TreeCursor cursor;
    private byte[] key;

    TreeSource(TreeCursor cursor) {
        this.cursor = cursor;
    }

    @Override
    public void seek(byte[] target) {
        cursor.seek(target);
        load();
    }

    @Override
    public void seekForPrev(byte[] target) {
        cursor.seekForPrev(target);
        load();
    }

    @Override
    public void seekToFirst() {
        cursor.seekToFirst();
        load();
    }

    @Override
    public void seekToLast() {
        cursor.seekToLast();
        load();
    }

    @Override
    public void next() {
        cursor.next();
        load();
    }

    @Override
    public void prev() {
        cursor.prev();
        load();
    }

    @Override
    public boolean valid() {
        return key != null;
    }

    @Override
    public byte[] key() {
        return key;
    }

    @Override
    public boolean isTombstone() {
        return false;
    }

    @Override
    public byte[] value() {
        return cursor.valueBytes();
    }

    @Override
    public byte[] valueCopy() {
        return cursor.valueBytes(); // a new array each call already
    }

    @Override
    public void close() {
        key = null;
        cursor.close();
    }

    private void load() {
        key = cursor.valid() ? cursor.keyBytes() : null;
    }
}

package dev.everett.store;

import dev.everett.compaction.TreeCursor;

/**
 * A version's merged segment cursor as the oldest source of a read. The tree cursor already
 * hides its own tombstones, which is right for the oldest source: nothing older is left for them
 * to hide. The key is copied out of the cursor's view only when asked for (a merge compares it,
 * a bounded iterator checks it): a lone source handing keys to the caller copies each once.
 */
final class TreeSource implements SourceCursor {

    private final TreeCursor cursor;
    /** The current key, copied on first use at this position; null until then. */
    private byte[] key;

    TreeSource(TreeCursor cursor) {
        this.cursor = cursor;
    }

    @Override
    public void seek(byte[] target) {
        key = null;
        cursor.seek(target);
    }

    @Override
    public void seekForPrev(byte[] target) {
        key = null;
        cursor.seekForPrev(target);
    }

    @Override
    public void seekToFirst() {
        key = null;
        cursor.seekToFirst();
    }

    @Override
    public void seekToLast() {
        key = null;
        cursor.seekToLast();
    }

    @Override
    public void next() {
        key = null;
        cursor.next();
    }

    @Override
    public void prev() {
        key = null;
        cursor.prev();
    }

    @Override
    public boolean valid() {
        return cursor.valid();
    }

    @Override
    public byte[] key() {
        byte[] k = key;
        if (k == null) {
            k = cursor.keyBytes();
            key = k;
        }
        return k;
    }

    @Override
    public byte[] keyCopy() {
        return key == null ? cursor.keyBytes() : key.clone();
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
}

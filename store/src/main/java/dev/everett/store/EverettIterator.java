package dev.everett.store;

import dev.everett.compaction.TreeCursor;
import java.util.Arrays;
import java.util.Objects;

/**
 * An iterator over a store's live keys in unsigned byte order, as RocksJava's {@code RocksIterator}:
 * position it with {@link #seek}, {@link #seekForPrev}, {@link #seekToFirst} or {@link #seekToLast},
 * then step with {@link #next} and {@link #prev} while {@link #isValid()}. It reads one snapshot
 * (the one in its {@link ReadOptions}, else an implicit one taken when it was created) and keeps
 * to the options' bounds (lower inclusive, upper exclusive); a seek below the lower bound starts at
 * it, a {@code seekForPrev} at or past the upper bound starts just below it.
 *
 * <p>Not thread-safe. Close it (try-with-resources) to release what it pins; using it after it or
 * its store is closed throws {@link IllegalStateException}.
 */
public final class EverettIterator implements AutoCloseable {

    private final EverettDB db;
    /** The merged sources; null when {@link #tree} is the only one. */
    private final SourceCursor cursor;
    /**
     * The version's cursor when it is the only source (every memtable empty), else null: it
     * already hides tombstones and keeps to the bounds it was opened with (the iterator's), so the
     * iterator moves it and copies from it directly, with no source adapter or bound check between.
     */
    private final TreeCursor tree;
    private final byte[] lower;
    private final byte[] upper;
    private final Runnable release;
    private boolean valid;
    private boolean closed;

    EverettIterator(EverettDB db, SourceCursor cursor, byte[] lower, byte[] upper, Runnable release) {
        this(db, cursor, null, lower, upper, release);
    }

    /** An iterator over the version's cursor alone, opened with the bounds {@code lower} and {@code upper}. */
    EverettIterator(EverettDB db, TreeCursor tree, byte[] lower, byte[] upper, Runnable release) {
        this(db, null, Objects.requireNonNull(tree, "tree"), lower, upper, release);
    }

    private EverettIterator(EverettDB db, SourceCursor cursor, TreeCursor tree, byte[] lower, byte[] upper, Runnable release) {
        this.db = db;
        this.cursor = cursor;
        this.tree = tree;
        this.lower = lower;
        this.upper = upper;
        this.release = release;
    }

    /** Positions at the first key ≥ {@code target} (and ≥ the lower bound). */
    public void seek(byte[] target) {
        Objects.requireNonNull(target, "target");
        checkOpen();
        if (tree != null) {
            tree.seek(target);
            valid = tree.valid();
            return;
        }
        cursor.seek(lower != null && Arrays.compareUnsigned(target, lower) < 0 ? lower : target);
        skipForward();
    }

    /** Positions at the last key ≤ {@code target} (and below the upper bound). */
    public void seekForPrev(byte[] target) {
        Objects.requireNonNull(target, "target");
        checkOpen();
        if (tree != null) {
            tree.seekForPrev(target);
            valid = tree.valid();
            return;
        }
        if (upper != null && Arrays.compareUnsigned(target, upper) >= 0) {
            seekBelowUpper();
        } else {
            cursor.seekForPrev(target);
        }
        skipBackward();
    }

    /** Positions at the first key (the first at or above the lower bound). */
    public void seekToFirst() {
        checkOpen();
        if (tree != null) {
            tree.seekToFirst();
            valid = tree.valid();
            return;
        }
        if (lower != null) {
            cursor.seek(lower);
        } else {
            cursor.seekToFirst();
        }
        skipForward();
    }

    /** Positions at the last key (the last below the upper bound). */
    public void seekToLast() {
        checkOpen();
        if (tree != null) {
            tree.seekToLast();
            valid = tree.valid();
            return;
        }
        if (upper != null) {
            seekBelowUpper();
        } else {
            cursor.seekToLast();
        }
        skipBackward();
    }

    /** True when positioned on a key. */
    public boolean isValid() {
        checkOpen();
        return valid;
    }

    /** The current key (a new array). */
    public byte[] key() {
        checkValid();
        TreeCursor t = tree;
        return t != null ? t.keyBytes() : cursor.keyCopy();
    }

    /** The current value (a new array). */
    public byte[] value() {
        checkValid();
        TreeCursor t = tree;
        return t != null ? t.valueBytes() : cursor.valueCopy();
    }

    /** Moves to the next key; the iterator must be valid. */
    public void next() {
        checkValid();
        TreeCursor t = tree;
        if (t != null) {
            t.next();
            valid = t.valid();
            return;
        }
        cursor.next();
        skipForward();
    }

    /** Moves to the previous key; the iterator must be valid. */
    public void prev() {
        checkValid();
        TreeCursor t = tree;
        if (t != null) {
            t.prev();
            valid = t.valid();
            return;
        }
        cursor.prev();
        skipBackward();
    }

    /** Releases the snapshot and files the iterator pins. Closing twice does nothing. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            valid = false;
            if (tree != null) {
                tree.close();
            } else {
                cursor.close();
            }
            release.run();
        }
    }

    private void seekBelowUpper() {
        cursor.seekForPrev(upper);
        if (cursor.valid() && Arrays.equals(cursor.key(), upper)) {
            cursor.prev();
        }
    }

    private void skipForward() {
        while (cursor.valid()) {
            if (upper != null && Arrays.compareUnsigned(cursor.key(), upper) >= 0) {
                valid = false;
                return;
            }
            if (!cursor.isTombstone()) {
                valid = true;
                return;
            }
            cursor.next();
        }
        valid = false;
    }

    private void skipBackward() {
        while (cursor.valid()) {
            if (lower != null && Arrays.compareUnsigned(cursor.key(), lower) < 0) {
                valid = false;
                return;
            }
            if (!cursor.isTombstone()) {
                valid = true;
                return;
            }
            cursor.prev();
        }
        valid = false;
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("iterator is closed");
        }
        db.checkOpen();
    }

    private void checkValid() {
        checkOpen();
        if (!valid) {
            throw new IllegalStateException("iterator is not positioned on a key (isValid() is false)");
        }
    }
}

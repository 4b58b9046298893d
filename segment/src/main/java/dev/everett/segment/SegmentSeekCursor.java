package dev.everett.segment;

import dev.everett.api.KeyRange;
import dev.everett.api.SeekCursor;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * A bidirectional cursor over the bottom native of a segment chain. Seeks go through the
 * cascade: the first key ≥ Q is found without decoding keys, and its key is Q's first r bytes
 * followed by its literal (r is its retained prefix, which cannot exceed its agreement with Q).
 * Forward steps continue with an {@link FcWalker}; backward steps rebuild the keys of the
 * record's group from the chain above ({@link KeyMaterialiser}) and keep them, so walking
 * backwards costs one group decode per K records.
 */
final class SegmentSeekCursor implements SeekCursor {
    private final Cascade cascade;
    private final KeyMaterialiser keys;
    private final int bottom;
    private final FcStream natives;
    private final Kv02Reader reader;
    private final KeyRange range;
    private final FcStream.Window window = new FcStream.Window();

    private FcWalker walker;
    private boolean valid;
    private long ordinal = -1;
    private byte[] key = new byte[0];
    private int keyLength;
    private MemorySegment keyView = MemorySegment.ofArray(key);
    private byte[] keyViewArray = key;
    private long valueAt;
    private long valueLength;
    private boolean tombstone;
    private KeyMaterialiser.GroupKeys group;

    SegmentSeekCursor(Cascade cascade, KeyMaterialiser keys, int bottom, Kv02Reader reader, KeyRange range) {
        this.cascade = cascade;
        this.keys = keys;
        this.bottom = bottom;
        this.reader = reader;
        this.natives = reader.typed().stream();
        this.range = range;
    }

    @Override
    public boolean valid() {
        return valid;
    }

    @Override
    public void seekToFirst() {
        if (range.lower() != null) {
            seek(range.lower());
            return;
        }
        walker = natives.walker();
        forward();
    }

    @Override
    public void seekToLast() {
        long last = range.upper() == null ? natives.count() - 1 : cascade.lowerBound(range.upper(), range.upper().length) - 1;
        backwardTo(last);
    }

    @Override
    public void seek(byte[] target) {
        byte[] q = target;
        if (range.lower() != null && Arrays.compareUnsigned(q, range.lower()) < 0) {
            q = range.lower();
        }
        long p = cascade.lowerBound(q, q.length);
        if (p >= natives.count()) {
            invalidate();
            return;
        }
        positionAt(p, q);
        checkUpper();
    }

    @Override
    public void seekForPrev(byte[] target) {
        if (range.upper() != null && Arrays.compareUnsigned(target, range.upper()) >= 0) {
            seekToLast();
            return;
        }
        long p = cascade.lowerBound(target, target.length);
        if (p < natives.count()) {
            positionAt(p, target);
            if (Arrays.equals(key, 0, keyLength, target, 0, target.length)) {
                checkLower();
                return;
            }
        }
        backwardTo(p - 1);
    }

    @Override
    public void next() {
        requireValid();
        if (walker == null) {
            walker = natives.walker();
            walker.resume(ordinal, key, keyLength, recordEnd());
        }
        forward();
    }

    @Override
    public void prev() {
        requireValid();
        backwardTo(ordinal - 1);
    }

    /** The file offset just past the current record (its encoded value ends it). */
    private long recordEnd() {
        return encodedValueAt + encodedValueLength;
    }

    private long encodedValueAt;
    private long encodedValueLength;

    private void forward() {
        if (!walker.next()) {
            invalidate();
            return;
        }
        ByteFrame f = walker.frame();
        setKey(walker.key, walker.keyLength);
        setValue(walker.ordinal(), f.valueAt, f.valueLength);
        group = null;
        checkUpper();
    }

    /** Positions on record p, the first key ≥ q: its key is q's first r bytes then its literal. */
    private void positionAt(long p, byte[] q) {
        natives.open(window, p);
        window.read();
        ByteFrame f = window.frame;
        int retained = (int) f.retained;
        if (retained > q.length) {
            throw reader.corruption().at(f.start, "seek landed on a record retaining more than the query's bytes");
        }
        int length = Math.toIntExact(f.retained + f.suffixLength);
        byte[] k = Arrays.copyOf(q, Math.max(length, 1));
        MemorySegment.copy(natives.segment(), java.lang.foreign.ValueLayout.JAVA_BYTE, f.suffixAt, k, retained, (int) f.suffixLength);
        setKey(k, length);
        setValue(p, f.valueAt, f.valueLength);
        group = null;
        walker = natives.walker();
        walker.resume(p, k, length, f.valueAt + f.valueLength);
    }

    private void backwardTo(long x) {
        walker = null;
        if (x < 0) {
            invalidate();
            return;
        }
        if (group == null || x < group.first() || x >= group.first() + group.count()) {
            group = keys.natives(bottom, x);
        }
        int i = (int) (x - group.first());
        setKey(group.keys()[i], group.lengths()[i]);
        setValue(x, group.valueAt()[i], group.valueLength()[i]);
        checkLower();
    }

    private void setKey(byte[] k, int length) {
        key = k;
        keyLength = length;
    }

    private void setValue(long at, long encodedAt, long encodedLength) {
        ordinal = at;
        valid = true;
        encodedValueAt = encodedAt;
        encodedValueLength = encodedLength;
        if (reader.optionalValues()) {
            tombstone = OptionalValue.isTombstone(natives.segment(), reader.corruption(), encodedAt, encodedLength);
            valueAt = encodedAt + 1;
            valueLength = tombstone ? 0 : encodedLength - 1;
        } else {
            tombstone = false;
            valueAt = encodedAt;
            valueLength = encodedLength;
        }
    }

    private void checkUpper() {
        if (valid && range.upper() != null && Arrays.compareUnsigned(key, 0, keyLength, range.upper(), 0, range.upper().length) >= 0) {
            invalidate();
        }
    }

    private void checkLower() {
        if (valid && range.lower() != null && Arrays.compareUnsigned(key, 0, keyLength, range.lower(), 0, range.lower().length) < 0) {
            invalidate();
        }
    }

    private void invalidate() {
        valid = false;
        walker = null;
    }

    private void requireValid() {
        if (!valid) {
            throw new IllegalStateException("cursor is not on a record");
        }
    }

    @Override
    public long ordinal() {
        requireValid();
        return ordinal;
    }

    @Override
    public int keyLength() {
        requireValid();
        return keyLength;
    }

    @Override
    public MemorySegment keyBuffer() {
        requireValid();
        if (key != keyViewArray) {
            keyViewArray = key;
            keyView = MemorySegment.ofArray(key);
        }
        return keyView;
    }

    @Override
    public boolean isTombstone() {
        requireValid();
        return tombstone;
    }

    @Override
    public MemorySegment value() {
        requireValid();
        return natives.segment().asSlice(valueAt, valueLength);
    }

    @Override
    public void close() {
        invalidate();
    }
}

package dev.everett.segment.cascade;

import dev.everett.api.KeyRange;
import dev.everett.api.SeekCursor;
import dev.everett.segment.fc.ByteWalker;
import dev.everett.segment.fc.FcStream;
import dev.everett.segment.fc.Frame;
import dev.everett.segment.fc.KeyForm;
import dev.everett.segment.fc.KeyWalker;
import dev.everett.segment.fc.StreamUnits;
import dev.everett.segment.fc.ValueCodec;
import dev.everett.segment.natives.NativeReader;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * A bidirectional cursor over the bottom native of a segment chain. Seeks go through the
 * cascade: the first key ≥ Q is found without decoding keys, and its key is Q's first r bytes
 * followed by its literal (r is its retained prefix, which cannot exceed its agreement with Q).
 * Forward steps continue with an {@link ByteWalker}; backward steps rebuild the keys of the
 * record's group from the chain above ({@link KeyMaterialiser}) and keep them, so walking
 * backwards costs one group decode per K records.
 *
 * <p>Bit-unit segments work alike on logical bit strings (a KV03 key behind its sort code); the
 * cursor shows the host key (the key bits after the code) and the decoded value, copied when it
 * does not start on a byte boundary.
 */
public final class SegmentSeekCursor implements SeekCursor {
    private final Cascade cascade;
    private final KeyMaterialiser keys;
    private final int bottom;
    private final FcStream natives;
    private final NativeReader reader;
    private final KeyRange range;
    private final FcStream.Window window = new FcStream.Window();
    private final StreamUnits units;
    /** The host's keys as stored (queries are made logical, keys cut back to the host's). */
    private final KeyForm form;
    private final ValueCodec values;

    private KeyWalker walker;
    private boolean valid;
    private long ordinal = -1;
    private byte[] key = new byte[0];
    private int keyLength;
    private MemorySegment keyView = MemorySegment.ofArray(key);
    private byte[] keyViewArray = key;
    /** The current value, made on the first {@link #value()} after a step (null until then). */
    private MemorySegment valueView;
    private boolean tombstone;
    private KeyMaterialiser.GroupKeys group;
    /** The current record's logical key (bit units: a bit string, KV03's sort code first) and its length in units. */
    private byte[] logical = new byte[0];
    private long logicalLength;
    /** KV03: the host key, the logical key without its sort code. */
    private byte[] shifted = new byte[64];

    public SegmentSeekCursor(Cascade cascade, KeyMaterialiser keys, int bottom, NativeReader reader, KeyRange range) {
        this.cascade = cascade;
        this.keys = keys;
        this.bottom = bottom;
        this.reader = reader;
        this.natives = reader.typed().stream();
        this.range = range;
        this.units = reader.framing().units();
        this.form = reader.keyForm();
        this.values = reader.values();
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
        walker = natives.keys();
        forward(walker);
    }

    @Override
    public void seekToLast() {
        if (range.upper() == null) {
            backwardTo(natives.count() - 1);
        } else {
            backwardTo(cascade.lowerBound(range.upper(), range.upper().length) - 1);
        }
    }

    @Override
    public void seek(byte[] target) {
        byte[] q = seekTarget(target);
        landAt(cascade.lowerBound(q, q.length), q);
    }

    @Override
    public void seekForPrev(byte[] target) {
        if (pastUpper(target)) {
            seekToLast();
            return;
        }
        landAtOrBefore(cascade.lowerBound(target, target.length), target);
    }

    /** The key a seek for {@code target} looks for: the target, raised to the range's lower bound. */
    byte[] seekTarget(byte[] target) {
        if (range.lower() != null && Arrays.compareUnsigned(target, range.lower()) < 0) {
            return range.lower();
        }
        return target;
    }

    /** True if {@code target} is at or past the range's (exclusive) upper bound. */
    boolean pastUpper(byte[] target) {
        return range.upper() != null && Arrays.compareUnsigned(target, range.upper()) >= 0;
    }

    /** Positions on record {@code p}, known to be the first ≥ {@code q} (a seek's answer). */
    void landAt(long p, byte[] q) {
        if (p >= natives.count()) {
            invalidate();
            return;
        }
        positionAt(p, q);
        checkUpper();
    }

    /**
     * Positions on the last record ≤ {@code target}, given {@code p}, the first record ≥ it
     * (a seekForPrev's answer).
     */
    void landAtOrBefore(long p, byte[] target) {
        if (p < natives.count()) {
            positionAt(p, target);
            if (Arrays.equals(key, 0, keyLength, target, 0, target.length)) {
                checkLower();
                return;
            }
        }
        backwardTo(p - 1);
    }

    /** Positions on the record before {@code p} (the last in range when {@code p} is the upper bound's lower bound). */
    void landBefore(long p) {
        backwardTo(p - 1);
    }

    @Override
    public void next() {
        requireValid();
        KeyWalker w = walker;
        forward(w != null ? w : startWalk());
    }

    /** Starts the walk forward from the current record (once per seek: kept out of the step's code). */
    private KeyWalker startWalk() {
        KeyWalker w = natives.keys();
        w.resume(ordinal, logical, logicalLength, recordEnd());
        walker = w;
        return w;
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

    private void forward(KeyWalker w) {
        if (!w.next()) {
            invalidate();
            return;
        }
        Frame f = w.frame();
        setKey(w.keyBuffer(), w.keyUnits());
        values.decode(f, natives.segment(), reader.corruption()); // a byte frame's walk reads the tag from the header's load
        placed(w.ordinal(), f.valueAt, f.valueLength);
        group = null;
        checkUpper();
    }

    /**
     * Positions on record p, the first key ≥ q: its key is q's first r units then its literal
     * (in bit units: the logical query's first r bits, then the literal).
     */
    private void positionAt(long p, byte[] q) {
        natives.open(window, p);
        window.read();
        Frame f = window.frame;
        long length = f.retained + f.suffixLength;
        byte[] logicalQuery = form.logicalQuery(q, q.length);
        if (f.retained > form.units(form.storedBytes(logicalQuery))) {
            throw reader.corruption().at(units.byteOffset(f.start), "seek landed on a record retaining more than the query's " + units.names());
        }
        byte[] k = units.extend(logicalQuery, f.retained, natives.segment(), f.suffixAt, f.suffixLength);
        setKey(k, length);
        setValue(p, f.valueAt, f.valueLength);
        group = null;
        // A walk forward starts only if next() asks for one: a seek that reads one record
        // builds no walker (and no Elias–Fano cursor) for it.
        walker = null;
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

    /** Makes the logical key {@code k} of {@code length} units current, and its host form. */
    private void setKey(byte[] k, long length) {
        logical = k;
        logicalLength = length;
        int n = form.scratchBytes(length);
        if (shifted.length < n) {
            shifted = new byte[Math.max(n, 2 * shifted.length)];
        }
        key = form.host(k, length, shifted);
        keyLength = form.hostLength(key, length, reader.corruption(), 0);
    }

    private void setValue(long at, long encodedAt, long encodedLength) {
        values.decode(natives.segment(), reader.corruption(), encodedAt, encodedLength);
        placed(at, encodedAt, encodedLength);
    }

    /** Makes record {@code at}, whose encoded value {@link #values} has just decoded, current. */
    private void placed(long at, long encodedAt, long encodedLength) {
        ordinal = at;
        valid = true;
        encodedValueAt = encodedAt;
        encodedValueLength = encodedLength;
        tombstone = values.tombstone;
        valueView = null;
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

    /** The key copied straight out of the cursor's own array: no view made for it. */
    @Override
    public byte[] keyBytes() {
        requireValid();
        return Arrays.copyOf(key, keyLength);
    }

    @Override
    public boolean isTombstone() {
        requireValid();
        return tombstone;
    }

    /** The value copied straight out of the mapping (no slice made for it), null for a tombstone. */
    @Override
    public byte[] valueBytes() {
        requireValid();
        if (tombstone) {
            return null;
        }
        MemorySegment s = natives.segment();
        long from = values.offsetIn(s);
        byte[] out = new byte[Math.toIntExact(values.bytes)];
        MemorySegment.copy(values.source(s), ValueLayout.JAVA_BYTE, from, out, 0, out.length);
        return out;
    }

    @Override
    public MemorySegment value() {
        requireValid();
        if (valueView == null) {
            valueView = values.copyOrView(natives.segment());
        }
        return valueView;
    }

    @Override
    public void close() {
        invalidate();
    }
}

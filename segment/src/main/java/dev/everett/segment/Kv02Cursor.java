package dev.everett.segment;

import dev.everett.api.SegmentCursor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * The sequential walk over a byte-unit KV02 stream. The key is rebuilt in one reused buffer: each
 * record keeps the retained prefix already there and copies only its suffix. Values are not
 * copied; they are read in place from the mapping.
 *
 * <p>While walking it checks what a query may rely on: framing and bounds, that each block start
 * sits at the offset its Elias–Fano entry names, strict key order (one byte comparison in the
 * canonical case), and at the end the FC extent, the terminal key length and the last residual.
 */
final class Kv02Cursor implements SegmentCursor {
    private final MemorySegment s;
    private final Corruption corruption;
    private final ByteFrame frame;
    private final EliasFanoReader.Cursor blockOffsets;
    private final long fcStart;
    private final long fcEnd;
    private final long blockWidth;
    private final long stride;
    private final long count;
    private final long terminalLength;
    private final boolean optional;

    private long ordinal = -1;
    private long nextBlock;
    private byte[] key = new byte[64];
    private MemorySegment keyView = MemorySegment.ofArray(key);
    private int keyLength;
    private long valueAt;
    private long valueLength;
    private boolean tombstone;
    private boolean ended;
    private long firstNonCanonical = -1;
    private byte[] displaced = new byte[0];

    Kv02Cursor(Kv02Reader reader, Kv02Reader.Typed typed) {
        this.s = reader.file();
        this.corruption = reader.corruption();
        Envelope env = reader.envelope();
        this.fcStart = typed.fcStart();
        this.fcEnd = typed.fcEnd();
        this.blockWidth = env.blockWidth();
        this.stride = Math.max(0, env.commonWidthOrNone());
        this.count = env.recordCount();
        this.terminalLength = typed.directory().terminalLength();
        this.optional = reader.optionalValues();
        this.frame = new ByteFrame(s, corruption, fcEnd, env.commonWidthOrNone());
        this.frame.pos = fcStart;
        this.blockOffsets = typed.offsets().cursor(0);
    }

    @Override
    public boolean next() {
        if (ended) {
            return false;
        }
        long o = ordinal + 1;
        if (o == count) {
            checkEnd();
            ended = true;
            ordinal = count;
            return false;
        }
        boolean blockStart = o == nextBlock;
        if (blockStart) {
            long expected = blockOffsets.next() + o * stride;
            if (expected != frame.pos - fcStart) {
                throw corruption.at(frame.pos, "block " + o / blockWidth + " starts at FC offset " + (frame.pos - fcStart)
                        + " but its Elias–Fano entry says " + expected);
            }
            nextBlock += blockWidth;
        }
        int previous = keyLength;
        frame.read(blockStart, o == 0 ? 0 : previous, o == 0, fcStart);
        long length = frame.keyLength();
        if (length > Integer.MAX_VALUE - 16) {
            throw corruption.at(frame.start, "key of " + length + " bytes exceeds the reader's 2 GiB key limit");
        }
        int retained = (int) frame.retained;
        int newLength = (int) length;
        if (newLength > key.length) {
            key = Arrays.copyOf(key, Math.max(newLength, key.length * 2));
            keyView = MemorySegment.ofArray(key);
        }
        if (o > 0 && retained < previous) {
            byte incoming = s.get(ValueLayout.JAVA_BYTE, frame.suffixAt);
            int cmp = Byte.compareUnsigned(incoming, key[retained]);
            if (cmp < 0) {
                throw corruption.at(frame.start, "key of record " + o + " sorts before its predecessor");
            }
            if (cmp == 0) {
                checkConservativeOrder(o, retained, previous);
            }
        }
        MemorySegment.copy(s, ValueLayout.JAVA_BYTE, frame.suffixAt, key, retained, (int) frame.suffixLength);
        keyLength = newLength;
        if (optional) {
            tombstone = OptionalValue.isTombstone(s, corruption, frame.valueAt, frame.valueLength);
            valueAt = frame.valueAt + 1;
            valueLength = tombstone ? 0 : frame.valueLength - 1;
        } else {
            valueAt = frame.valueAt;
            valueLength = frame.valueLength;
        }
        ordinal = o;
        return true;
    }

    /**
     * The record kept less than the whole shared prefix (legal, not canonical): compare the rest
     * of the old key with the incoming suffix before it overwrites it.
     */
    private void checkConservativeOrder(long o, int retained, int previous) {
        if (firstNonCanonical < 0) {
            firstNonCanonical = o;
        }
        int oldRest = previous - retained;
        if (displaced.length < oldRest) {
            displaced = new byte[oldRest];
        }
        System.arraycopy(key, retained, displaced, 0, oldRest);
        long n = Math.min(oldRest, frame.suffixLength);
        for (long i = 0; i < n; i++) {
            int cmp = Byte.compareUnsigned(s.get(ValueLayout.JAVA_BYTE, frame.suffixAt + i), displaced[(int) i]);
            if (cmp != 0) {
                if (cmp < 0) {
                    throw corruption.at(frame.start, "key of record " + o + " sorts before its predecessor");
                }
                return;
            }
        }
        if (frame.suffixLength <= oldRest) {
            throw corruption.at(frame.start, "key of record " + o + " is not greater than its predecessor");
        }
    }

    private void checkEnd() {
        if (frame.pos != fcEnd) {
            throw corruption.at(frame.pos, "records end at FC offset " + (frame.pos - fcStart) + " but the FC extent is " + (fcEnd - fcStart));
        }
        if (count > 0 && keyLength != terminalLength) {
            throw corruption.at(Envelope.BYTES + 16, "terminal key length " + terminalLength + " but the last key has " + keyLength + " bytes");
        }
        long last = blockOffsets.next();
        if (last != fcEnd - fcStart - count * stride) {
            throw corruption.at(fcEnd, "last Elias–Fano entry " + last + " is not the FC extent less the value stride");
        }
    }

    /** File offset at which the current record starts. */
    long recordStart() {
        return frame.start;
    }

    /** Ordinal of the first record found with shorter-than-maximal retention, or -1. */
    long firstNonCanonical() {
        return firstNonCanonical;
    }

    @Override
    public long ordinal() {
        return ordinal;
    }

    @Override
    public int keyLength() {
        return keyLength;
    }

    @Override
    public MemorySegment keyBuffer() {
        return keyView;
    }

    @Override
    public boolean isTombstone() {
        return tombstone;
    }

    @Override
    public MemorySegment valueSource() {
        return s;
    }

    @Override
    public long valueOffset() {
        return valueAt;
    }

    @Override
    public long valueLength() {
        return valueLength;
    }

    @Override
    public void close() {
        ended = true;
    }
}

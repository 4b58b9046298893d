package dev.everett.segment.fc;

import dev.everett.segment.bits.EliasFanoReader;
import dev.everett.segment.io.Corruption;
import java.lang.foreign.MemorySegment;

/**
 * One front-coded stream inside a mapped file, native or borrowed: where its records lie, its
 * block directory, its shape and its framing. Records can be walked from the start
 * ({@link #walker()} for byte units, {@link #keys()} for any) or entered at any ordinal through
 * the block directory ({@link #open(Window, long)}).
 *
 * <p>Positions count the stream's units: file byte offsets for byte-unit streams, file bit
 * offsets (byte offset × 8) for bit-unit ones; so do lengths, the extent and Elias–Fano values.
 *
 * @param segment        the mapped file
 * @param corruption     raises errors naming the file
 * @param start          position of record 0
 * @param end            position one past the stream (start + extent)
 * @param offsets        the block-start Elias–Fano directory
 * @param count          records in the stream
 * @param blockWidth     W
 * @param commonWidth    common value width, or -1 (borrowed streams: 0)
 * @param unique         native keys are unique; borrowed keys may repeat
 * @param terminalLength the last key's length
 * @param terminalAt     file byte offset of the terminal-length field, for error messages
 * @param framing         the framing (and so the unit)
 */
public record FcStream(MemorySegment segment, Corruption corruption, long start, long end, EliasFanoReader offsets,
                long count, long blockWidth, long commonWidth, boolean unique, long terminalLength, long terminalAt, Framing framing) {

    /** A byte-unit stream. */
    FcStream(MemorySegment segment, Corruption corruption, long start, long end, EliasFanoReader offsets,
             long count, long blockWidth, long commonWidth, boolean unique, long terminalLength, long terminalAt) {
        this(segment, corruption, start, end, offsets, count, blockWidth, commonWidth, unique, terminalLength, terminalAt, Framing.BYTES);
    }

    /** The sequential walk of a byte-unit stream. */
    public ByteWalker byteWalker() {
        if (framing.units() != StreamUnits.BYTES) {
            throw new IllegalStateException("a byte walker cannot walk a " + framing + " stream");
        }
        return new ByteWalker(this);
    }

    /** The sequential walk of a bit-unit stream. */
    public BitWalker bitWalker() {
        if (framing.units() != StreamUnits.BITS) {
            throw new IllegalStateException("a bit walker cannot walk a byte-unit stream");
        }
        return new BitWalker(this);
    }

    /** The sequential walk of any stream, rebuilding its keys. */
    public KeyWalker keys() {
        return framing.units().walker(this);
    }

    public long stride() {
        return Math.max(0, commonWidth);
    }

    /** File byte offset of a position in this stream's units, for error messages. */
    public long byteOffset(long position) {
        return framing.units().byteOffset(position);
    }

    /**
     * Positions {@code w} so that its next {@link Window#read()} returns record {@code first}:
     * select the block, then parse at most W − 1 record headers (literals and values skipped).
     */
    public void open(Window w, long first) {
        if (first < 0 || first > count) {
            throw corruption.at(byteOffset(start), "record " + first + " lies outside a stream of " + count);
        }
        Frame f = w.bind(this);
        if (first == count) {
            w.next = first;
            w.previousLength = -1;
            w.untilBlock = 0;
            return;
        }
        long block = first / blockWidth;
        long blockOrdinal = block * blockWidth;
        long offset = offsets.select(block) + blockOrdinal * stride();
        if (offset < 0 || offset > end - start) {
            throw corruption.at(byteOffset(start), "block " + block + " offset " + offset + " lies outside the stream");
        }
        f.pos = start + offset;
        long previous = -1;
        if (first > blockOrdinal) {
            f.read(true, -1, blockOrdinal == 0, start);
            previous = f.keyLength();
            for (long o = blockOrdinal + 1; o < first; o++) {
                f.read(false, previous, false, start);
                previous = f.keyLength();
            }
        }
        w.next = first;
        w.previousLength = previous;
        // Records left before the next block start: the division is done once per window, not per record.
        w.untilBlock = first - blockOrdinal == 0 ? 0 : blockWidth - (first - blockOrdinal);
    }

    /** A cursor over a run of consecutive records, entered anywhere; reused across streams. */
    public static final class Window {
        /** The frame of the stream last opened; its fields describe the record last read. */
        public Frame frame;
        private ByteFrame bytes;
        private BitFrame bits;
        private Kv03Frame kv03;
        FcStream stream;
        /** Ordinal of the record the next {@link #read()} returns. */
        long next;
        long previousLength;
        /** Records before the next block start; 0 means the next record starts a block. */
        long untilBlock;

        /** Makes {@link #frame} a frame of the stream's framing, bound to it. */
        Frame bind(FcStream s) {
            Frame f = switch (s.framing().kind()) {
                case BYTES -> bytes == null ? bytes = new ByteFrame() : bytes;
                case BITS -> bits == null ? bits = new BitFrame() : bits;
                case KV03 -> kv03 == null ? kv03 = new Kv03Frame() : kv03;
            };
            f.bind(s);
            frame = f;
            stream = s;
            return f;
        }

        /** Reads the next record's framing into {@link #frame}. */
        public void read() {
            long o = next;
            FcStream st = stream;
            if (o >= st.count) {
                throw st.corruption.at(st.byteOffset(frame.pos), "read past the last of " + st.count + " records");
            }
            Frame f = frame;
            long left = untilBlock;
            boolean blockStart = left == 0;
            f.read(blockStart, previousLength, o == 0, st.start);
            untilBlock = (blockStart ? st.blockWidth : left) - 1;
            previousLength = f.retained + f.suffixLength;
            next = o + 1;
        }
    }
}

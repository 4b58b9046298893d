package dev.everett.segment;

import java.lang.foreign.MemorySegment;

/**
 * One front-coded stream inside a mapped file, native or borrowed: where its records lie, its
 * block directory, and its shape. Records can be walked from the start ({@link #walker()}) or
 * entered at any ordinal through the block directory ({@link #open(Window, long)}).
 *
 * @param segment        the mapped file
 * @param corruption     raises errors naming the file
 * @param start          file offset of record 0
 * @param end            file offset one past the stream (start + extent)
 * @param offsets        the block-start Elias–Fano directory
 * @param count          records in the stream
 * @param blockWidth     W
 * @param commonWidth    common value width, or -1 (borrowed streams: 0)
 * @param unique         native keys are unique; borrowed keys may repeat
 * @param terminalLength the last key's length
 * @param terminalAt     file offset of the terminal-length field, for error messages
 */
record FcStream(MemorySegment segment, Corruption corruption, long start, long end, EliasFanoReader offsets,
                long count, long blockWidth, long commonWidth, boolean unique, long terminalLength, long terminalAt) {

    FcWalker walker() {
        return new FcWalker(segment, corruption, offsets, start, end, blockWidth, commonWidth, count, terminalLength, terminalAt, unique);
    }

    long stride() {
        return Math.max(0, commonWidth);
    }

    /**
     * Positions {@code w} so that its next {@link Window#read()} returns record {@code first}:
     * select the block, then parse at most W − 1 record headers (literals and values skipped).
     */
    void open(Window w, long first) {
        if (first < 0 || first > count) {
            throw corruption.at(start, "record " + first + " lies outside a stream of " + count);
        }
        w.frame.bind(this);
        w.stream = this;
        if (first == count) {
            w.next = first;
            w.previousLength = -1;
            return;
        }
        long block = first / blockWidth;
        long blockOrdinal = block * blockWidth;
        long offset = offsets.select(block) + blockOrdinal * stride();
        if (offset < 0 || offset > end - start) {
            throw corruption.at(start, "block " + block + " offset " + offset + " lies outside the stream");
        }
        ByteFrame f = w.frame;
        f.pos = start + offset;
        long previous = -1;
        for (long o = blockOrdinal; o < first; o++) {
            f.read(o == blockOrdinal, previous, o == 0, start);
            previous = f.keyLength();
        }
        w.next = first;
        w.previousLength = first == blockOrdinal ? -1 : previous;
    }

    /** A cursor over a run of consecutive records, entered anywhere; reused across streams. */
    static final class Window {
        final ByteFrame frame = new ByteFrame();
        FcStream stream;
        /** Ordinal of the record the next {@link #read()} returns. */
        long next;
        long previousLength;

        /** Reads the next record's framing into {@link #frame}. */
        void read() {
            long o = next;
            FcStream st = stream;
            if (o >= st.count) {
                throw st.corruption.at(frame.pos, "read past the last of " + st.count + " records");
            }
            frame.read(o % st.blockWidth == 0, previousLength, o == 0, st.start);
            previousLength = frame.retained + frame.suffixLength;
            next = o + 1;
        }
    }
}

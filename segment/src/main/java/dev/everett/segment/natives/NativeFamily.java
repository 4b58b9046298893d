package dev.everett.segment.natives;

import dev.everett.api.RecordLocation;
import dev.everett.api.SegmentCursor;
import dev.everett.segment.fc.Frame;
import dev.everett.segment.fc.ValueCodec;
import dev.everett.segment.io.LittleEndian;
import java.lang.foreign.MemorySegment;

/**
 * What a native reader does differently per unit, chosen once when the reader opens
 * ({@link dev.everett.segment.fc.StreamUnits#choose}): which cursor walks it and how a record at
 * an ordinal is shown in stored terms. The reader itself never asks for its unit.
 *
 * @param cursors the host-facing forward cursor of the unit
 * @param records record {@code ordinal}, whose framing {@code f} has just read, in stored terms
 */
record NativeFamily(Cursors cursors, Records records) {
    static final NativeFamily BYTES = new NativeFamily(ByteCursor::new, NativeFamily::byteRecord);
    static final NativeFamily BITS = new NativeFamily(BitCursor::new, NativeFamily::bitRecord);

    interface Cursors {
        SegmentCursor open(NativeReader reader, NativeReader.Typed typed);
    }

    interface Records {
        RecordLocation at(NativeReader reader, long ordinal, Frame f);
    }

    private static RecordLocation byteRecord(NativeReader reader, long ordinal, Frame f) {
        return located(reader, ordinal, f.keyLength(), f.retained, reader.file().asSlice(f.suffixAt, f.suffixLength), f);
    }

    /**
     * A bit-unit record without the sort code: the key's length in bytes, the retained prefix in
     * bits (0 for a record that keeps less than the code), the suffix bits copied out, and the
     * decoded value. For KV02 in bits the key is the ordered string form of the host's key, so
     * these count that form's bytes and bits (the cursor gives the host key).
     */
    private static RecordLocation bitRecord(NativeReader reader, long ordinal, Frame f) {
        int path = reader.framing().pathBits();
        long keyBits = f.keyLength() - path;
        long spelled = Math.max(0, path - f.retained);
        long suffixBits = f.suffixLength - spelled;
        byte[] suffix = new byte[Math.toIntExact(LittleEndian.ceilDiv(suffixBits, 8))];
        reader.framing().units().copy(reader.file(), f.suffixAt + spelled, suffix, 0, suffixBits);
        return located(reader, ordinal, keyBits >>> 3, Math.max(0, f.retained - path), MemorySegment.ofArray(suffix), f);
    }

    /** Record {@code ordinal} with the given key terms and the value {@code f} has just read, decoded by a fresh codec. */
    private static RecordLocation located(NativeReader reader, long ordinal, long keyLength, long retained, MemorySegment suffix, Frame f) {
        ValueCodec v = reader.values();
        MemorySegment file = reader.file();
        v.decode(file, reader.corruption(), f.valueAt, f.valueLength);
        return new RecordLocation(ordinal, keyLength, retained, suffix, v.tombstone, v.copyOrView(file));
    }
}

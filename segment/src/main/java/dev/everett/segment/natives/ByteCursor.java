package dev.everett.segment.natives;

import dev.everett.segment.fc.ByteFrame;
import dev.everett.segment.fc.ByteWalker;
import dev.everett.segment.fc.ValueCodec;

/**
 * The host-facing forward cursor over a byte-unit KV02 file: a {@link ByteWalker} over the
 * native stream plus the value grammar. Values are not copied; they are read in place from the
 * mapping. Stepping allocates nothing.
 */
final class ByteCursor extends NativeCursor {
    private final ByteWalker walker;
    private final ValueCodec values;

    ByteCursor(NativeReader reader, NativeReader.Typed typed) {
        this(reader, typed.stream().byteWalker());
    }

    private ByteCursor(NativeReader reader, ByteWalker walker) {
        super(reader, walker);
        this.walker = walker;
        this.values = reader.values();
        this.key = walker.key;
    }

    @Override
    public boolean next() {
        if (!walker.next()) {
            return false;
        }
        ByteFrame f = walker.frame();
        ValueCodec v = values;
        v.decode(s, corruption, f.valueAt, f.valueLength);
        tombstone = v.tombstone;
        valueOffset = v.at;
        valueLength = v.bytes;
        key = walker.key;
        keyLength = walker.keyLength;
        return true;
    }
}

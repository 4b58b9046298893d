package dev.everett.segment.natives;

import dev.everett.segment.fc.BitWalker;
import dev.everett.segment.fc.Frame;
import dev.everett.segment.fc.KeyForm;
import dev.everett.segment.fc.ValueCodec;

/**
 * The host-facing forward cursor over a bit-unit native (KV02 bit or KV03): a {@link BitWalker}
 * over the record stream, the host key cut out of the logical key (the key without its sort
 * code; for KV02 that is the ordered string form, decoded back), and the value decoded in
 * place. A value that starts on a byte boundary is a view of the mapping; otherwise it is copied
 * into a reused buffer. Stepping allocates nothing once the buffers have grown.
 */
final class BitCursor extends NativeCursor {
    private final BitWalker walker;
    private final ValueCodec value;
    /** The host key cut out of the logical key (a concrete class: one call target in the step loop). */
    private final KeyForm.Logical form;
    private byte[] shifted = new byte[64];

    BitCursor(NativeReader reader, NativeReader.Typed typed) {
        this(reader, typed.stream().bitWalker());
    }

    private BitCursor(NativeReader reader, BitWalker walker) {
        super(reader, walker);
        this.walker = walker;
        this.value = reader.values();
        this.form = (KeyForm.Logical) reader.keyForm();
    }

    @Override
    public boolean next() {
        if (!walker.next()) {
            return false;
        }
        Frame f = walker.frame();
        ValueCodec v = value;
        v.decode(f, s, corruption);
        tombstone = v.tombstone;
        valueOffset = v.offsetIn(s);
        valueSource = v.source(s);
        valueLength = v.bytes;
        long units = walker.keyUnits();
        int n = form.scratchBytes(units);
        if (shifted.length < n) {
            shifted = new byte[Math.max(n, 2 * shifted.length)];
        }
        key = form.host(walker.keyBuffer(), units, shifted);
        keyLength = form.hostLength(key, units, corruption, f.start >>> 3);
        return true;
    }
}

package dev.everett.segment.index;

import dev.everett.segment.fc.KeySource;
import dev.everett.segment.fc.KeyWalker;
import dev.everett.segment.fc.StreamUnits;

/**
 * Walks a catalog's virtual order: its native keys merged with both borrowed streams, every
 * occurrence kept, equal keys ordered native, then main, then secondary. Nothing stores this
 * order; the builder of the catalog above samples it. Keys are in the streams' units (bit-unit
 * catalogs: logical bit strings).
 */
final class AugmentedKeys implements KeySource {
    static final int NATIVE = 0;
    static final int MAIN = 1;
    static final int SECONDARY = 2;

    private final KeyWalker[] walkers = new KeyWalker[3];
    private final boolean[] live = new boolean[3];
    private final StreamUnits units;
    private int origin = -1;
    private boolean primed;

    AugmentedKeys(Catalog c) {
        walkers[NATIVE] = c.nativeStream().keys();
        walkers[MAIN] = c.index.route(IndexReader.MAIN).stream().keys();
        walkers[SECONDARY] = c.index.route(IndexReader.SECONDARY).stream().keys();
        this.units = c.nativeStream().framing().units();
    }

    /** Moves to the next occurrence; false at the end. */
    @Override
    public boolean next() {
        if (!primed) {
            for (int i = 0; i < 3; i++) {
                live[i] = walkers[i].next();
            }
            primed = true;
        } else if (origin >= 0) {
            live[origin] = walkers[origin].next();
        }
        origin = -1;
        for (int i = 0; i < 3; i++) {
            if (live[i] && (origin < 0 || less(walkers[i], walkers[origin]))) {
                origin = i;
            }
        }
        return origin >= 0;
    }

    private boolean less(KeyWalker a, KeyWalker b) {
        return units.compare(a.keyBuffer(), a.keyUnits(), b.keyBuffer(), b.keyUnits()) < 0;
    }

    @Override
    public byte[] keyBuffer() {
        return walkers[origin].keyBuffer();
    }

    /** The current key's length in units. */
    @Override
    public long keyUnits() {
        return walkers[origin].keyUnits();
    }

    int origin() {
        return origin;
    }
}

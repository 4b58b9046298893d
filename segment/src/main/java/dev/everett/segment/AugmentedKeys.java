package dev.everett.segment;

import java.util.Arrays;

/**
 * Walks a catalog's virtual order: its native keys merged with both borrowed streams, every
 * occurrence kept, equal keys ordered native, then main, then secondary. Nothing stores this
 * order; the builder of the catalog above samples it.
 */
final class AugmentedKeys {
    static final int NATIVE = 0;
    static final int MAIN = 1;
    static final int SECONDARY = 2;

    private final FcWalker[] walkers = new FcWalker[3];
    private final boolean[] live = new boolean[3];
    private int origin = -1;
    private boolean primed;

    AugmentedKeys(Catalog c) {
        walkers[NATIVE] = c.nativeStream().walker();
        walkers[MAIN] = c.index.route(IndexReader.MAIN).stream().walker();
        walkers[SECONDARY] = c.index.route(IndexReader.SECONDARY).stream().walker();
    }

    /** Moves to the next occurrence; false at the end. */
    boolean next() {
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

    private static boolean less(FcWalker a, FcWalker b) {
        return Arrays.compareUnsigned(a.key, 0, a.keyLength, b.key, 0, b.keyLength) < 0;
    }

    byte[] key() {
        return walkers[origin].key;
    }

    int keyLength() {
        return walkers[origin].keyLength;
    }

    int origin() {
        return origin;
    }
}

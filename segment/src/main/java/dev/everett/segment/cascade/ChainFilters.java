package dev.everett.segment.cascade;

import dev.everett.api.ObjectId;
import dev.everett.segment.filter.KeyFilter;
import dev.everett.segment.filter.KeyHash;
import dev.everett.segment.index.Catalog;
import dev.everett.segment.natives.NativeReader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * The key filters of one chain, by level: for the catalog d levels below the head, the filter
 * of its native and of its secondary leaf (null where the object is empty, so holds nothing).
 * {@link #holders} turns a key into the mask {@link Cascade#get(byte[], int, long)} takes.
 */
public final class ChainFilters {
    private final KeyFilter[] natives;
    private final KeyFilter[] leaves;

    private ChainFilters(KeyFilter[] natives, KeyFilter[] leaves) {
        this.natives = natives;
        this.leaves = leaves;
    }

    /** Where a chain's filters come from: the object store, which writes a missing one first. */
    @FunctionalInterface
    public interface Source {
        /** The filter of native {@code id} read through {@code reader}, or null if it holds nothing to filter. */
        KeyFilter filter(ObjectId id, NativeReader reader) throws java.io.IOException;
    }

    /** Filters for the chain below {@code head}, each one from {@code store} (written there if missing). */
    public static ChainFilters of(Catalog head, Source store) throws java.io.IOException {
        List<KeyFilter> n = new ArrayList<>();
        List<KeyFilter> l = new ArrayList<>();
        for (Catalog c = head; c != null; c = c.main) {
            n.add(store.filter(c.nativeId, c.nativeReader));
            l.add(c.secondary == null ? null : store.filter(c.secondaryId, c.secondary));
        }
        return new ChainFilters(n.toArray(KeyFilter[]::new), l.toArray(KeyFilter[]::new));
    }

    /**
     * Which objects may hold {@code key}: bit 2d for the native d levels down, bit 2d + 1 for its
     * leaf; 0 if none may. A chain deeper than {@link Cascade#MASK_DEPTH} gets
     * {@link Cascade#ALL_HOLDERS} when any object may hold the key.
     */
    public long holders(byte[] key) {
        long h = KeyHash.of(key, key.length);
        long mask = 0;
        boolean any = false;
        for (int d = 0; d < natives.length; d++) {
            boolean n = natives[d] != null && natives[d].mayContain(h);
            boolean l = leaves[d] != null && leaves[d].mayContain(h);
            any |= n | l;
            if (d < Cascade.MASK_DEPTH) {
                mask |= (n ? 1L : 0L) << (2 * d) | (l ? 2L : 0L) << (2 * d);
            }
        }
        return natives.length > Cascade.MASK_DEPTH && any ? Cascade.ALL_HOLDERS : mask;
    }

    /** Rebuilds every filter from the chain below {@code head} (the one it was made from) and compares. */
    /** Bytes of every filter file this chain reads, each counted once. */
    public long fileBytes() {
        long total = 0;
        Set<KeyFilter> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (KeyFilter[] level : new KeyFilter[][] {natives, leaves}) {
            for (KeyFilter f : level) {
                if (f != null && seen.add(f)) {
                    total += f.fileBytes();
                }
            }
        }
        return total;
    }

    public void verify(Catalog head) {
        int d = 0;
        for (Catalog c = head; c != null; c = c.main, d++) {
            if (natives[d] != null) {
                natives[d].verify(c.nativeReader);
            }
            if (leaves[d] != null) {
                leaves[d].verify(c.secondary);
            }
        }
    }
}

package dev.everett.store;

import java.util.Arrays;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The reference the store is checked against: every key's versions by sequence number (a null
 * value is a delete), so any snapshot's view is a floor lookup. Sequence numbers follow the
 * store's: one per operation, in order.
 */
final class StoreModel {

    final TreeMap<byte[], TreeMap<Long, byte[]>> versions = new TreeMap<>(Arrays::compareUnsigned);
    long seq;

    void put(byte[] key, byte[] value) {
        versions.computeIfAbsent(key.clone(), k -> new TreeMap<>()).put(++seq, value.clone());
    }

    void delete(byte[] key) {
        versions.computeIfAbsent(key.clone(), k -> new TreeMap<>()).put(++seq, null);
    }

    /** The value of {@code key} at sequence {@code at}, or null. */
    byte[] get(byte[] key, long at) {
        TreeMap<Long, byte[]> v = versions.get(key);
        if (v == null) {
            return null;
        }
        Map.Entry<Long, byte[]> e = v.floorEntry(at);
        return e == null ? null : e.getValue();
    }

    /** Every live key and its value at sequence {@code at}. */
    NavigableMap<byte[], byte[]> view(long at) {
        TreeMap<byte[], byte[]> out = new TreeMap<>(Arrays::compareUnsigned);
        for (Map.Entry<byte[], TreeMap<Long, byte[]>> e : versions.entrySet()) {
            Map.Entry<Long, byte[]> v = e.getValue().floorEntry(at);
            if (v != null && v.getValue() != null) {
                out.put(e.getKey(), v.getValue());
            }
        }
        return out;
    }

    /** The live view restricted to [lower, upper) (either may be null). */
    static NavigableMap<byte[], byte[]> bounded(NavigableMap<byte[], byte[]> view, byte[] lower, byte[] upper) {
        if (lower != null && upper != null) {
            return Arrays.compareUnsigned(lower, upper) >= 0 ? new TreeMap<>(Arrays::compareUnsigned) : view.subMap(lower, true, upper, false);
        }
        if (lower != null) {
            return view.tailMap(lower, true);
        }
        if (upper != null) {
            return view.headMap(upper, false);
        }
        return view;
    }
}

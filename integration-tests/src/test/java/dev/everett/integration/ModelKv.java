package dev.everett.integration;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * An in-memory model of RocksDB's defined semantics: every key keeps its versions with sequence
 * numbers, a snapshot is a sequence number, a read at a snapshot sees the newest version at or
 * below it, a batch takes consecutive sequence numbers. SingleDelete acts as Delete, which is what
 * RocksDB guarantees while the contract holds. Flush and compaction only prune versions no live
 * snapshot can see. It lets the harness check the generator and the runner against RocksDB before
 * (and besides) checking EverettDB.
 */
class ModelKv implements Kv {
    /** A version; value null is a deletion. */
    private record Version(long seq, byte[] value) {}

    private final TreeMap<byte[], List<Version>> versions = new TreeMap<>(Bytes::compare);
    /** Live snapshot sequence numbers with their multiplicity (two snapshots may share one). */
    private final TreeMap<Long, Integer> liveSnapshots = new TreeMap<>();
    private long seq;

    @Override
    public String name() {
        return "model";
    }

    private void apply(byte[] key, byte[] value) {
        versions.computeIfAbsent(key, k -> new ArrayList<>(2)).add(new Version(++seq, value));
    }

    @Override
    public void put(byte[] key, byte[] value) {
        apply(key.clone(), value.clone());
    }

    @Override
    public void delete(byte[] key) {
        apply(key.clone(), null);
    }

    @Override
    public void singleDelete(byte[] key) {
        apply(key.clone(), null);
    }

    @Override
    public void write(List<Op.Write> batch) {
        for (Op.Write w : batch) {
            switch (w) {
                case Op.Put p -> put(p.key(), p.value());
                case Op.Delete d -> delete(d.key());
                case Op.SingleDelete s -> singleDelete(s.key());
            }
        }
    }

    @Override
    public Object snapshot() {
        liveSnapshots.merge(seq, 1, Integer::sum);
        return new long[] {seq};
    }

    @Override
    public void release(Object snapshot) {
        liveSnapshots.computeIfPresent(((long[]) snapshot)[0], (k, n) -> n == 1 ? null : n - 1);
    }

    private long at(Object snapshot) {
        return snapshot == null ? seq : ((long[]) snapshot)[0];
    }

    private static byte[] visible(List<Version> vs, long at) {
        for (int i = vs.size() - 1; i >= 0; i--) {
            if (vs.get(i).seq <= at) {
                return vs.get(i).value;
            }
        }
        return null;
    }

    @Override
    public byte[] get(Object snapshot, byte[] key) {
        List<Version> vs = versions.get(key);
        return vs == null ? null : visible(vs, at(snapshot));
    }

    @Override
    public List<byte[]> multiGet(Object snapshot, List<byte[]> keys) {
        List<byte[]> values = new ArrayList<>(keys.size());
        for (byte[] key : keys) {
            values.add(get(snapshot, key));
        }
        return values;
    }

    /** The visible state at {@code at}, as sorted parallel lists. */
    TreeMap<byte[], byte[]> state(long at) {
        TreeMap<byte[], byte[]> out = new TreeMap<>(Bytes::compare);
        for (Map.Entry<byte[], List<Version>> e : versions.entrySet()) {
            byte[] v = visible(e.getValue(), at);
            if (v != null) {
                out.put(e.getKey(), v);
            }
        }
        return out;
    }

    /** The latest visible state. */
    TreeMap<byte[], byte[]> state() {
        return state(seq);
    }

    @Override
    public Cursor cursor(Object snapshot, byte[] lower, byte[] upper) {
        TreeMap<byte[], byte[]> s = state(at(snapshot));
        List<byte[]> keys = new ArrayList<>();
        List<byte[]> values = new ArrayList<>();
        for (Map.Entry<byte[], byte[]> e : s.entrySet()) {
            if ((lower == null || Bytes.compare(e.getKey(), lower) >= 0) && (upper == null || Bytes.compare(e.getKey(), upper) < 0)) {
                keys.add(e.getKey());
                values.add(e.getValue());
            }
        }
        return new ListCursor(keys, values);
    }

    @Override
    public void flush() {
        prune();
    }

    @Override
    public void compactAll() {
        prune();
    }

    @Override
    public void compactRange(byte[] lower, byte[] upper) {
        prune();
    }

    @Override
    public void reopen() {
        if (!liveSnapshots.isEmpty()) {
            throw new IllegalStateException("reopen with live snapshots " + liveSnapshots);
        }
        prune();
    }

    /** Keeps, per key, the newest version and the newest version each live snapshot sees. */
    private void prune() {
        var it = versions.entrySet().iterator();
        while (it.hasNext()) {
            var e = it.next();
            List<Version> vs = e.getValue();
            List<Version> kept = new ArrayList<>(2);
            for (int i = 0; i < vs.size(); i++) {
                Version v = vs.get(i);
                long nextSeq = i + 1 < vs.size() ? vs.get(i + 1).seq : Long.MAX_VALUE;
                // v is needed if it is the newest, or some live snapshot s has v.seq <= s < nextSeq.
                Long s = liveSnapshots.ceilingKey(v.seq);
                if (nextSeq == Long.MAX_VALUE || (s != null && s < nextSeq)) {
                    kept.add(v);
                }
            }
            if (kept.size() == 1 && kept.getFirst().value == null && liveSnapshots.isEmpty()) {
                it.remove();
            } else {
                e.setValue(kept);
            }
        }
    }

    @Override
    public void close() {}

    /** A RocksDB-style cursor over a materialised sorted list. */
    static final class ListCursor implements Cursor {
        private final List<byte[]> keys;
        private final List<byte[]> values;
        private int pos = -1;

        ListCursor(List<byte[]> keys, List<byte[]> values) {
            this.keys = keys;
            this.values = values;
        }

        private int lowerIndex(byte[] t, boolean inclusive) {
            int lo = 0;
            int hi = keys.size();
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                int c = Bytes.compare(keys.get(mid), t);
                if (c < 0 || (!inclusive && c == 0)) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            return lo;
        }

        @Override public void seekToFirst() { pos = keys.isEmpty() ? -1 : 0; }
        @Override public void seekToLast() { pos = keys.size() - 1; }
        @Override public void seek(byte[] t) {
            int i = lowerIndex(t, true);
            pos = i < keys.size() ? i : -1;
        }
        @Override public void seekForPrev(byte[] t) {
            pos = lowerIndex(t, false) - 1;
        }
        @Override public void next() {
            check();
            pos = pos + 1 < keys.size() ? pos + 1 : -1;
        }
        @Override public void prev() {
            check();
            pos = pos - 1;
        }
        private void check() {
            if (pos < 0) {
                throw new IllegalStateException("step on an invalid iterator");
            }
        }
        @Override public boolean isValid() { return pos >= 0; }
        @Override public byte[] key() { check(); return keys.get(pos); }
        @Override public byte[] value() { check(); return values.get(pos); }
        @Override public void close() {}
    }

    @Override
    public String toString() {
        return "model(seq " + seq + ", " + versions.size() + " keys, snapshots " + liveSnapshots + ")";
    }
}

package dev.everett.integration;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;

/**
 * The writes a crash-test child issues, a pure function of (seed, writer, index) so the parent can
 * rebuild the oracle's state after any prefix without hearing from the child. Writer {@code t}
 * owns the keys {@code w<t>/...}, so writers commute and each writer's history can be checked on
 * its own. Values carry their writer and index, so a value from the wrong write cannot pass.
 */
final class CrashWorkload {
    private CrashWorkload() {}

    static final int KEYS_PER_WRITER = 400;

    static byte[] key(int writer, int k) {
        return ("w" + writer + "/" + String.format("%04d", k)).getBytes(StandardCharsets.US_ASCII);
    }

    /** The writer owning {@code key}, or -1 when no writer does. */
    static int owner(byte[] key) {
        if (key.length < 3 || key[0] != 'w') {
            return -1;
        }
        int slash = 1;
        while (slash < key.length && key[slash] != '/') {
            slash++;
        }
        return slash == key.length ? -1 : Integer.parseInt(new String(key, 1, slash - 1, StandardCharsets.US_ASCII));
    }

    /** Write number {@code index} of {@code writer}: one put or delete, or an atomic batch. */
    static List<Op.Write> write(long seed, int writer, long index) {
        Random r = new Random(Fingerprint.mix(seed ^ Fingerprint.mix(writer * 0x9e3779b97f4a7c15L + index)));
        int n = r.nextInt(10) < 7 ? 1 : 2 + r.nextInt(12);
        List<Op.Write> out = new ArrayList<>(n);
        for (int j = 0; j < n; j++) {
            byte[] k = key(writer, r.nextInt(KEYS_PER_WRITER));
            if (r.nextInt(6) == 0) {
                out.add(new Op.Delete(k));
            } else {
                int c = r.nextInt(100);
                int length = c < 85 ? 16 + r.nextInt(100) : c < 99 ? 1000 + r.nextInt(8000) : 40_000 + r.nextInt(60_000);
                byte[] v = Bytes.pattern(Math.max(length, 16), (long) writer << 48 | index << 8 | j);
                out.add(new Op.Put(k, v));
            }
        }
        return out;
    }

    static void apply(TreeMap<byte[], byte[]> state, List<Op.Write> writes) {
        for (Op.Write w : writes) {
            switch (w) {
                case Op.Put p -> state.put(p.key(), p.value());
                case Op.Delete d -> state.remove(d.key());
                case Op.SingleDelete s -> state.remove(s.key());
            }
        }
    }

    /** Everything in the store, read through an iterator. */
    static TreeMap<byte[], byte[]> contents(Kv kv) throws Exception {
        TreeMap<byte[], byte[]> out = new TreeMap<>(Bytes::compare);
        try (Kv.Cursor c = kv.cursor(null, null, null)) {
            for (c.seekToFirst(); c.isValid(); c.next()) {
                out.put(c.key(), c.value());
            }
        }
        return out;
    }
}

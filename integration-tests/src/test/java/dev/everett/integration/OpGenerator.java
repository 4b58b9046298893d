package dev.everett.integration;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * The seeded operation generator. It draws keys from a fixed universe shaped by a
 * {@link KeySpace} and keeps db_stress's discipline for SingleDelete: a fixed part of the universe
 * is "no overwrite" (about 40%): such a key is put only while absent and removed only by
 * SingleDelete, so every SingleDelete meets exactly one Put; every other key is overwritten and
 * removed by Delete. Iterator steps avoid what RocksDB leaves undefined: a lower bound is always
 * below the upper bound, no SeekToFirst under a lower bound, no SeekToLast under an upper bound, no
 * Seek at or below the lower bound, no SeekForPrev at or above the upper bound.
 */
final class OpGenerator {
    /** The shape of the key universe. */
    enum KeySpace {
        /** 48 short keys (and the empty key): many overwrites and deletes of the same keys. */
        DENSE,
        /** 400 keys sharing a 300-byte prefix, some keys prefixes of others. */
        SHARED_PREFIX,
        /** 300 binary keys rich in 0x00 and 0xFF, prefixes of each other, and the empty key. */
        BINARY,
        /** The union of the three. */
        MIXED
    }

    /** Relative weights of the op kinds; {@link #standard()} is the CI mix. */
    record Mix(int put, int delete, int singleDelete, int batch, int get, int multiGet, int scan, int snapshot,
               int release, int flush, int compact, int compactRange, int reopen, int invariance, int fingerprint) {
        static Mix standard() {
            return new Mix(300, 90, 60, 70, 200, 30, 110, 25, 25, 4, 1, 2, 1, 1, 2);
        }

        int total() {
            return put + delete + singleDelete + batch + get + multiGet + scan + snapshot + release + flush + compact + compactRange + reopen
                    + invariance + fingerprint;
        }
    }

    private final Random random;
    private final List<byte[]> keys;
    private final Set<Integer> noOverwrite = new HashSet<>();
    private final Set<String> noOverwriteKeys = new HashSet<>();
    private final Map<Integer, Boolean> present = new HashMap<>();
    private final Mix mix;
    private final List<Integer> liveSnapshots = new ArrayList<>();
    private int nextSnapshot;
    private long nextTag;
    private final int maxValue;

    /**
     * @param maxValue the largest value in bytes (1 MiB in CI); values that large are rare
     */
    OpGenerator(long seed, KeySpace space, Mix mix, int maxValue) {
        this.random = new Random(seed);
        this.keys = universe(space, new Random(seed ^ 0x5eedL));
        this.mix = mix;
        this.maxValue = maxValue;
        for (int i = 0; i < keys.size(); i++) {
            if (random.nextInt(10) < 4) {
                noOverwrite.add(i);
                noOverwriteKeys.add(Bytes.hex(keys.get(i)));
            }
        }
        this.nextTag = seed << 20;
    }

    static List<byte[]> universe(KeySpace space, Random r) {
        Set<String> seen = new HashSet<>();
        List<byte[]> out = new ArrayList<>();
        switch (space) {
            case DENSE -> {
                add(out, seen, new byte[0]);
                for (int i = 0; i < 47; i++) {
                    add(out, seen, ("k" + (char) ('a' + i % 26) + (i / 26)).getBytes(StandardCharsets.US_ASCII));
                }
            }
            case SHARED_PREFIX -> {
                byte[] prefix = new byte[300];
                Arrays.fill(prefix, (byte) 'p');
                for (int i = 0; i < 400; i++) {
                    int extra = r.nextInt(4) == 0 ? 0 : 1 + r.nextInt(6);
                    byte[] k = Arrays.copyOf(prefix, prefix.length - r.nextInt(3) + extra);
                    for (int j = prefix.length; j < k.length; j++) {
                        k[j] = (byte) ('a' + r.nextInt(4));
                    }
                    add(out, seen, k);
                }
            }
            case BINARY -> {
                add(out, seen, new byte[0]);
                for (int i = 0; i < 300; i++) {
                    byte[] k = new byte[r.nextInt(9)];
                    for (int j = 0; j < k.length; j++) {
                        int c = r.nextInt(6);
                        k[j] = (byte) (c < 2 ? 0x00 : c < 4 ? 0xFF : r.nextInt(256));
                    }
                    add(out, seen, k);
                }
            }
            case MIXED -> {
                for (KeySpace s : List.of(KeySpace.DENSE, KeySpace.SHARED_PREFIX, KeySpace.BINARY)) {
                    for (byte[] k : universe(s, r)) {
                        add(out, seen, k);
                    }
                }
            }
        }
        return out;
    }

    private static void add(List<byte[]> out, Set<String> seen, byte[] k) {
        if (seen.add(Bytes.hex(k))) {
            out.add(k);
        }
    }

    List<Op> generate(int count) {
        List<Op> ops = new ArrayList<>(count);
        while (ops.size() < count) {
            ops.add(next());
        }
        return ops;
    }

    Op next() {
        int roll = random.nextInt(mix.total());
        if ((roll -= mix.put) < 0) {
            return put();
        }
        if ((roll -= mix.delete) < 0) {
            return delete();
        }
        if ((roll -= mix.singleDelete) < 0) {
            Op sd = singleDelete();
            return sd != null ? sd : put();
        }
        if ((roll -= mix.batch) < 0) {
            return batch();
        }
        if ((roll -= mix.get) < 0) {
            return new Op.Get(pickSnapshot(), readKey());
        }
        if ((roll -= mix.multiGet) < 0) {
            // One to eight keys: RocksJava asserts a non-empty list (an empty one is refused under -ea).
            int n = 1 + random.nextInt(8);
            List<byte[]> keys = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                keys.add(random.nextInt(8) == 0 && i > 0 ? keys.get(random.nextInt(i)) : readKey()); // some repeats
            }
            return new Op.MultiGet(pickSnapshot(), List.copyOf(keys));
        }
        if ((roll -= mix.scan) < 0) {
            return scan();
        }
        if ((roll -= mix.snapshot) < 0) {
            int id = nextSnapshot++;
            liveSnapshots.add(id);
            return new Op.TakeSnapshot(id);
        }
        if ((roll -= mix.release) < 0) {
            if (liveSnapshots.isEmpty()) {
                return new Op.Get(Op.NO_SNAPSHOT, readKey());
            }
            // Out of order: any live snapshot, not the oldest.
            return new Op.ReleaseSnapshot(liveSnapshots.remove(random.nextInt(liveSnapshots.size())));
        }
        if ((roll -= mix.flush) < 0) {
            return new Op.Flush();
        }
        if ((roll -= mix.compact) < 0) {
            return new Op.CompactAll();
        }
        if ((roll -= mix.compactRange) < 0) {
            // Either end may be open; the two ends may come in either order (an inverted range is an answer too).
            return new Op.CompactRange(random.nextInt(4) == 0 ? null : readKey(), random.nextInt(4) == 0 ? null : readKey());
        }
        if ((roll -= mix.reopen) < 0) {
            liveSnapshots.clear();
            return new Op.Reopen();
        }
        if ((roll -= mix.invariance) < 0) {
            byte[][] b = bounds(true);
            return new Op.CompactionInvariance(b[0], b[1]);
        }
        return new Op.FingerprintCheck();
    }

    /** A put on an overwritable key, or on an absent no-overwrite key; null if neither exists. */
    private Op.Put put() {
        for (int attempt = 0; attempt < 8; attempt++) {
            int i = random.nextInt(keys.size());
            if (!noOverwrite.contains(i)) {
                return new Op.Put(keys.get(i), value());
            }
            if (!present.getOrDefault(i, false)) {
                present.put(i, true);
                return new Op.Put(keys.get(i), value());
            }
        }
        int i = overwritable();
        return new Op.Put(keys.get(i), value());
    }

    private int overwritable() {
        while (true) {
            int i = random.nextInt(keys.size());
            if (!noOverwrite.contains(i)) {
                return i;
            }
        }
    }

    private Op.Delete delete() {
        // Mostly keys of the universe (present or not), sometimes a key never written.
        if (random.nextInt(10) == 0) {
            byte[] stray = strayKey();
            // A stray key may equal a no-overwrite key, which must never see a Delete.
            if (!noOverwriteKeys.contains(Bytes.hex(stray))) {
                return new Op.Delete(stray);
            }
        }
        return new Op.Delete(keys.get(overwritable()));
    }

    private Op.SingleDelete singleDelete() {
        List<Integer> candidates = new ArrayList<>();
        for (Map.Entry<Integer, Boolean> e : present.entrySet()) {
            if (e.getValue()) {
                candidates.add(e.getKey());
            }
        }
        if (candidates.isEmpty()) {
            return null;
        }
        candidates.sort(null);
        int i = candidates.get(random.nextInt(candidates.size()));
        present.put(i, false);
        return new Op.SingleDelete(keys.get(i));
    }

    private Op.Batch batch() {
        int n = 1 + random.nextInt(random.nextInt(4) == 0 ? 40 : 8);
        List<Op.Write> writes = new ArrayList<>(n);
        for (int j = 0; j < n; j++) {
            int c = random.nextInt(10);
            Op.Write w = c < 6 ? put() : c < 8 ? delete() : singleDelete();
            writes.add(w != null ? w : put());
        }
        return new Op.Batch(List.copyOf(writes));
    }

    private int pickSnapshot() {
        if (liveSnapshots.isEmpty() || random.nextBoolean()) {
            return Op.NO_SNAPSHOT;
        }
        return liveSnapshots.get(random.nextInt(liveSnapshots.size()));
    }

    private byte[] readKey() {
        return random.nextInt(8) == 0 ? strayKey() : keys.get(random.nextInt(keys.size()));
    }

    /** A key near the universe but (usually) outside it: a universe key with a byte added or cut. */
    private byte[] strayKey() {
        byte[] k = keys.get(random.nextInt(keys.size()));
        if (k.length > 0 && random.nextBoolean()) {
            return Arrays.copyOf(k, k.length - 1);
        }
        byte[] out = Arrays.copyOf(k, k.length + 1);
        out[k.length] = (byte) (random.nextBoolean() ? 0xFF : random.nextInt(256));
        return out;
    }

    private byte[] value() {
        int c = random.nextInt(1000);
        if (c < 40) {
            return new byte[0];
        }
        if (c < 860) {
            byte[] v = new byte[1 + random.nextInt(32)];
            random.nextBytes(v);
            return v;
        }
        // Longer values are patterns, so a printed reproduction names them in a few characters.
        if (c < 998 || maxValue <= 4096) {
            return Bytes.pattern(65 + random.nextInt(Math.min(4000, maxValue) - 64), nextTag++);
        }
        int length = random.nextBoolean() ? maxValue : 4097 + random.nextInt(maxValue - 4096);
        return Bytes.pattern(length, nextTag++);
    }

    /** [lower, upper], each possibly null; when both are set, lower < upper. */
    private byte[][] bounds(boolean allowNone) {
        byte[] lower = null;
        byte[] upper = null;
        int c = random.nextInt(allowNone ? 4 : 3);
        if (c == 0 || c == 2) {
            lower = readKey();
        }
        if (c == 1 || c == 2) {
            upper = readKey();
        }
        if (lower != null && upper != null) {
            int cmp = Bytes.compare(lower, upper);
            if (cmp == 0) {
                upper = Bytes.successor(upper);
            } else if (cmp > 0) {
                byte[] t = lower;
                lower = upper;
                upper = t;
            }
        }
        return new byte[][] {lower, upper};
    }

    private Op.Scan scan() {
        byte[][] b = bounds(true);
        byte[] lower = b[0];
        byte[] upper = b[1];
        int n = 1 + random.nextInt(random.nextInt(5) == 0 ? 60 : 12);
        List<Op.Step> steps = new ArrayList<>(n);
        steps.add(position(lower, upper));
        while (steps.size() < n) {
            int c = random.nextInt(10);
            steps.add(c < 4 ? new Op.Next() : c < 8 ? new Op.Prev() : position(lower, upper));
        }
        return new Op.Scan(pickSnapshot(), lower, upper, List.copyOf(steps));
    }

    /** A positioning step that RocksDB defines under these bounds. */
    private Op.Step position(byte[] lower, byte[] upper) {
        while (true) {
            switch (random.nextInt(4)) {
                case 0 -> {
                    if (lower == null) {
                        return new Op.SeekToFirst();
                    }
                }
                case 1 -> {
                    if (upper == null) {
                        return new Op.SeekToLast();
                    }
                }
                case 2 -> {
                    byte[] t = readKey();
                    if (lower != null && Bytes.compare(t, lower) <= 0) {
                        t = Bytes.successor(lower);
                    }
                    return new Op.Seek(t);
                }
                default -> {
                    byte[] t = readKey();
                    if (upper != null && Bytes.compare(t, upper) >= 0) {
                        // upper is non-empty (it is above lower or above some key): its prefix is below it.
                        t = upper.length == 0 ? null : Arrays.copyOf(upper, upper.length - 1);
                    }
                    if (t != null) {
                        return new Op.SeekForPrev(t);
                    }
                }
            }
        }
    }
}

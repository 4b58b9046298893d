package dev.everett.integration;

import static org.junit.jupiter.api.Assertions.fail;

import dev.everett.store.EverettDB;
import dev.everett.store.EverettIterator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;
import org.rocksdb.Snapshot;

/**
 * Iterators against RocksDB where the op-sequence equivalence runs do not reach: iterators that
 * stay open while the store is written, flushed and compacted (and while the key they stand on is
 * deleted and put again), several open at once, bounds set on the options and then changed after
 * the iterator was made, seeks and seekForPrevs outside the bounds, bounds that exclude every key,
 * and a key universe of the empty key, 0x00/0xFF runs, keys that are prefixes of each other
 * around the 0x7F/0x80 boundary, and keys of a few KB. Seeded: the seed is in the failure message;
 * {@code -Deverett.seed=} replays it.
 */
class IteratorCornersTest {
    @TempDir
    Path tempDir;

    static List<EverettKv.Config> configs() {
        return EverettKv.configs();
    }

    private static final HexFormat HEX = HexFormat.of();

    /** The keys: empty, 0x00 and 0xFF runs, prefixes of each other, the sign boundary, long keys. */
    static List<byte[]> universe() {
        List<byte[]> keys = new ArrayList<>();
        keys.add(new byte[0]);
        keys.add(new byte[] {0});
        keys.add(new byte[] {0, 0});
        keys.add(new byte[] {0, (byte) 0xFF});
        keys.add(new byte[] {1});
        keys.add("a".getBytes());
        keys.add(new byte[] {'a', 0});
        keys.add("ab".getBytes());
        keys.add("abc".getBytes());
        keys.add(new byte[] {'a', (byte) 0xFF});
        keys.add("b".getBytes());
        keys.add(new byte[] {0x7F});
        keys.add(new byte[] {0x7F, (byte) 0xFF});
        keys.add(new byte[] {(byte) 0x80});
        keys.add(new byte[] {(byte) 0x80, 0});
        keys.add(new byte[] {(byte) 0xFE, (byte) 0xFF});
        keys.add(new byte[] {(byte) 0xFF});
        keys.add(new byte[] {(byte) 0xFF, 0});
        keys.add(new byte[] {(byte) 0xFF, (byte) 0xFF});
        keys.add(new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF});
        byte[] longA = new byte[3000];
        Arrays.fill(longA, (byte) 'a');
        keys.add(longA);
        keys.add(Arrays.copyOf(longA, 3001)); // longA followed by 0x00
        byte[] longAz = Arrays.copyOf(longA, 3001);
        longAz[3000] = 'z';
        keys.add(longAz);
        byte[] longFF = new byte[2048];
        Arrays.fill(longFF, (byte) 0xFF);
        keys.add(longFF);
        return keys;
    }

    /** Targets and bounds: the keys and a few that are not keys. */
    static List<byte[]> probes(List<byte[]> keys) {
        List<byte[]> out = new ArrayList<>(keys);
        out.add(new byte[] {0, 0, 0});
        out.add("aa".getBytes());
        out.add("abd".getBytes());
        out.add(new byte[] {'a', (byte) 0xFF, (byte) 0xFF});
        out.add(new byte[] {0x7F, (byte) 0xFF, (byte) 0xFF});
        out.add(new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF});
        out.add("c".getBytes());
        return out;
    }

    /** One open iterator in each system, with what keeps RocksDB's alive. */
    private static final class Pair {
        final int id;
        final RocksIterator r;
        final ReadOptions ro;
        final List<AutoCloseable> owned = new ArrayList<>();
        final EverettIterator e;

        Pair(int id, RocksIterator r, ReadOptions ro, EverettIterator e) {
            this.id = id;
            this.r = r;
            this.ro = ro;
            this.e = e;
        }

        void close() throws Exception {
            r.close();
            e.close();
            ro.close();
            for (AutoCloseable c : owned) {
                c.close();
            }
        }
    }

    private record Snap(Snapshot r, dev.everett.store.Snapshot e) {}

    @ParameterizedTest
    @MethodSource("configs")
    void openIteratorsAgreeWithRocksdb(EverettKv.Config config) throws Exception {
        for (long seed : Systems.seeds(Math.max(1, Systems.soak()))) {
            run(config, seed, 2500);
        }
    }

    private void run(EverettKv.Config config, long seed, int ops) throws Exception {
        Path rdir = Files.createDirectories(tempDir.resolve("rocks-" + seed));
        Path edir = Files.createDirectories(tempDir.resolve("everett-" + seed));
        Random rnd = new Random(seed);
        List<byte[]> keys = universe();
        List<byte[]> probes = probes(keys);
        // A third of the keys are only put while absent and removed by SingleDelete (its contract).
        Set<Integer> sdKeys = new HashSet<>();
        for (int i = 0; i < keys.size(); i++) {
            if (rnd.nextInt(3) == 0) {
                sdKeys.add(i);
            }
        }
        Set<Integer> sdPresent = new HashSet<>();
        ArrayDeque<String> log = new ArrayDeque<>();
        List<Pair> its = new ArrayList<>();
        List<Snap> snaps = new ArrayList<>();
        int nextId = 0;
        try (RocksKv rocks = RocksKv.inMemory(rdir); EverettKv ev = new EverettKv(edir, config, new dev.everett.store.WriteOptions())) {
            RocksDB r = rocks.db();
            EverettDB e = ev.db();
            for (int step = 0; step < ops; step++) {
                int what = rnd.nextInt(100);
                String op;
                if (what < 30) {
                    int k = rnd.nextInt(keys.size());
                    byte[] key = keys.get(k);
                    if (sdKeys.contains(k)) {
                        if (sdPresent.remove(k)) {
                            op = "singleDelete " + hex(key);
                            r.singleDelete(key);
                            e.singleDelete(key);
                        } else {
                            sdPresent.add(k);
                            byte[] v = value(rnd);
                            op = "put " + hex(key) + " " + hex(v);
                            r.put(key, v);
                            e.put(key, v);
                        }
                    } else if (rnd.nextInt(4) == 0) {
                        op = "delete " + hex(key);
                        r.delete(key);
                        e.delete(key);
                    } else {
                        byte[] v = value(rnd);
                        op = "put " + hex(key) + " " + hex(v);
                        r.put(key, v);
                        e.put(key, v);
                    }
                } else if (what < 32) {
                    op = "flush";
                    rocks.flush();
                    e.flush();
                } else if (what < 33) {
                    op = "compactRange";
                    rocks.compactAll();
                    e.compactRange();
                } else if (what < 35) {
                    if (snaps.size() < 4) {
                        snaps.add(new Snap(r.getSnapshot(), e.getSnapshot()));
                        op = "snapshot s" + (snaps.size() - 1);
                    } else {
                        Snap s = snaps.remove(rnd.nextInt(snaps.size()));
                        r.releaseSnapshot(s.r);
                        e.releaseSnapshot(s.e);
                        op = "release a snapshot";
                    }
                } else if (what < 40 || its.isEmpty()) {
                    if (its.size() >= 5) {
                        Pair p = its.remove(rnd.nextInt(its.size()));
                        p.close();
                        op = "close it" + p.id;
                    } else {
                        ReadOptions ro = new ReadOptions();
                        dev.everett.store.ReadOptions eo = new dev.everett.store.ReadOptions();
                        StringBuilder sb = new StringBuilder("newIterator it" + nextId);
                        Snap snap = null;
                        if (!snaps.isEmpty() && rnd.nextInt(3) == 0) {
                            snap = snaps.get(rnd.nextInt(snaps.size()));
                            ro.setSnapshot(snap.r);
                            eo.setSnapshot(snap.e);
                            sb.append(" snapshot");
                        }
                        byte[] lo = rnd.nextInt(3) == 0 ? probes.get(rnd.nextInt(probes.size())) : null;
                        byte[] hi = rnd.nextInt(3) == 0 ? probes.get(rnd.nextInt(probes.size())) : null;
                        if (lo != null && hi != null && Arrays.compareUnsigned(lo, hi) >= 0) {
                            // lower >= upper is not defined by RocksDB (db_stress skips it): order them.
                            byte[] t = lo;
                            lo = hi;
                            hi = t;
                            if (Arrays.equals(lo, hi)) {
                                hi = null;
                            }
                        }
                        List<AutoCloseable> owned = new ArrayList<>();
                        if (lo != null) {
                            Slice s = new Slice(lo);
                            owned.add(s);
                            ro.setIterateLowerBound(s);
                            eo.setIterateLowerBound(lo);
                            sb.append(" lower=").append(hex(lo));
                        }
                        if (hi != null) {
                            Slice s = new Slice(hi);
                            owned.add(s);
                            ro.setIterateUpperBound(s);
                            eo.setIterateUpperBound(hi);
                            sb.append(" upper=").append(hex(hi));
                        }
                        Pair p = new Pair(nextId++, r.newIterator(ro), ro, e.newIterator(eo));
                        p.owned.addAll(owned);
                        // Bounds changed on the options after the iterator was made do not reach it.
                        if (rnd.nextBoolean()) {
                            byte[] nlo = probes.get(rnd.nextInt(probes.size()));
                            Slice s = new Slice(nlo);
                            p.owned.add(s);
                            ro.setIterateLowerBound(s);
                            eo.setIterateLowerBound(nlo);
                            byte[] nhi = probes.get(rnd.nextInt(probes.size()));
                            Slice t = new Slice(nhi);
                            p.owned.add(t);
                            ro.setIterateUpperBound(t);
                            eo.setIterateUpperBound(nhi);
                            sb.append(" (options' bounds then changed)");
                        }
                        its.add(p);
                        op = sb.toString();
                    }
                } else {
                    Pair p = its.get(rnd.nextInt(its.size()));
                    int m = rnd.nextInt(10);
                    boolean valid = p.r.isValid();
                    if (valid && m < 4) {
                        if (rnd.nextBoolean()) {
                            op = "it" + p.id + ".next";
                            p.r.next();
                            p.e.next();
                        } else {
                            op = "it" + p.id + ".prev";
                            p.r.prev();
                            p.e.prev();
                        }
                    } else if (m < 6) {
                        byte[] t = probes.get(rnd.nextInt(probes.size()));
                        if (rnd.nextBoolean()) {
                            op = "it" + p.id + ".seek " + hex(t);
                            p.r.seek(t);
                            p.e.seek(t);
                        } else {
                            op = "it" + p.id + ".seekForPrev " + hex(t);
                            p.r.seekForPrev(t);
                            p.e.seekForPrev(t);
                        }
                    } else if (m < 8) {
                        if (rnd.nextBoolean()) {
                            op = "it" + p.id + ".seekToFirst";
                            p.r.seekToFirst();
                            p.e.seekToFirst();
                        } else {
                            op = "it" + p.id + ".seekToLast";
                            p.r.seekToLast();
                            p.e.seekToLast();
                        }
                    } else {
                        op = "it" + p.id + ".(reread)";
                    }
                    log.addLast(op);
                    compare(seed, config, log, p);
                    continue;
                }
                log.addLast(op);
                if (log.size() > 60) {
                    log.removeFirst();
                }
                // After any write, flush or compaction, every open iterator still shows what it showed.
                for (Pair p : its) {
                    compare(seed, config, log, p);
                }
            }
            for (Pair p : its) {
                p.close();
            }
            for (Snap s : snaps) {
                r.releaseSnapshot(s.r);
                e.releaseSnapshot(s.e);
            }
        }
    }

    private static void compare(long seed, EverettKv.Config config, ArrayDeque<String> log, Pair p) throws Exception {
        boolean rv = p.r.isValid();
        if (!rv) {
            p.r.status();
        }
        boolean ev = p.e.isValid();
        boolean same = rv == ev && (!rv || Arrays.equals(p.r.key(), p.e.key()) && Arrays.equals(p.r.value(), p.e.value()));
        if (!same) {
            String rs = rv ? hex(p.r.key()) + " = " + hex(p.r.value()) : "invalid";
            String es = ev ? hex(p.e.key()) + " = " + hex(p.e.value()) : "invalid";
            fail(config.name() + " seed " + seed + " (" + Systems.replayHint(seed) + "): it" + p.id + " RocksDB " + rs
                    + ", EverettDB " + es + "\nlast ops:\n  " + String.join("\n  ", log));
        }
    }

    /**
     * Every ordered pair of bounds drawn from the probes (and none), each positioning op at every probe
     * (targets outside the bounds too: {@code seek} below the lower bound starts at it, {@code seekForPrev}
     * at or past the upper bound starts below it, as RocksDB's DBIter clamps them),
     * and a short walk that turns at the ends, in six states of the same data: memtable only;
     * flushed, memtable empty (the iterator reads the version's cursor directly); overwrites and
     * deletes above those segments; flushed again (segments alone, tombstones in the newer hiding
     * the older); compacted into one run; and that run with deletes above, read at a snapshot taken
     * before them and at the latest state. Bounds with lower ≥ upper are left out (RocksDB does not
     * define them; today the two agree there as well).
     */
    @org.junit.jupiter.api.Test
    void everyBoundsPairAndPositionAgreesWithRocksdb() throws Exception {
        List<byte[]> keys = universe();
        List<byte[]> probes = probes(keys);
        // Bounds: none, and a spread of keys and non-keys (every probe is still a seek target).
        List<byte[]> bounds = new ArrayList<>();
        bounds.add(null);
        for (int i = 0; i < probes.size(); i += 2) {
            bounds.add(probes.get(i));
        }
        List<EverettKv> evs = new ArrayList<>();
        try (RocksKv rocks = RocksKv.inMemory(Files.createDirectories(tempDir.resolve("rocks")))) {
            for (EverettKv.Config c : EverettKv.configs()) {
                evs.add(new EverettKv(Files.createDirectories(tempDir.resolve(c.name().replace('/', '_'))), c, new dev.everett.store.WriteOptions()));
            }
            Random rnd = new Random(7);
            for (int state = 0; state < 6; state++) {
                List<Object> snaps = new ArrayList<>();
                switch (state) {
                    case 0 -> {
                        for (int i = 0; i < keys.size(); i++) {
                            byte[] v = value(rnd);
                            rocks.put(keys.get(i), v);
                            for (EverettKv ev : evs) ev.put(keys.get(i), v);
                        }
                        for (int i = 0; i < keys.size(); i += 5) {
                            rocks.delete(keys.get(i));
                            for (EverettKv ev : evs) ev.delete(keys.get(i));
                        }
                    }
                    case 1, 3 -> {
                        rocks.flush();
                        for (EverettKv ev : evs) ev.flush();
                    }
                    case 2 -> {
                        for (int i = 1; i < keys.size(); i += 3) {
                            byte[] k = keys.get(i);
                            if (i % 2 == 0) {
                                rocks.delete(k);
                                for (EverettKv ev : evs) ev.delete(k);
                            } else {
                                byte[] v = value(rnd);
                                rocks.put(k, v);
                                for (EverettKv ev : evs) ev.put(k, v);
                            }
                        }
                        for (int i = 0; i < keys.size(); i += 5) {
                            byte[] v = value(rnd);
                            rocks.put(keys.get(i), v);
                            for (EverettKv ev : evs) ev.put(keys.get(i), v);
                        }
                    }
                    case 4 -> {
                        rocks.compactAll();
                        for (EverettKv ev : evs) ev.compactAll();
                    }
                    default -> {
                        snaps.add(rocks.snapshot());
                        for (EverettKv ev : evs) snaps.add(ev.snapshot());
                        for (int i = 2; i < keys.size(); i += 4) {
                            rocks.delete(keys.get(i));
                            for (EverettKv ev : evs) ev.delete(keys.get(i));
                        }
                    }
                }
                for (int at = 0; at <= (snaps.isEmpty() ? 0 : 1); at++) {
                    for (byte[] lo : bounds) {
                        for (byte[] hi : bounds) {
                            if (lo != null && hi != null && Arrays.compareUnsigned(lo, hi) >= 0) {
                                continue; // lower >= upper: not defined by RocksDB (db_stress skips it)
                            }
                            List<String> want = answers(rocks.cursor(at == 0 ? null : snaps.get(0), lo, hi), probes);
                            for (int i = 0; i < evs.size(); i++) {
                                EverettKv ev = evs.get(i);
                                List<String> got = answers(ev.cursor(at == 0 ? null : snaps.get(1 + i), lo, hi), probes);
                                if (!got.equals(want)) {
                                    int j = 0;
                                    while (j < want.size() && j < got.size() && want.get(j).equals(got.get(j))) j++;
                                    fail(ev.name() + " state " + state + (at == 1 ? " at snapshot" : "") + " lower " + (lo == null ? "none" : hex(lo))
                                            + " upper " + (hi == null ? "none" : hex(hi)) + ": RocksDB " + (j < want.size() ? want.get(j) : "(end)")
                                            + ", EverettDB " + (j < got.size() ? got.get(j) : "(end)"));
                                }
                            }
                        }
                    }
                }
                if (!snaps.isEmpty()) {
                    rocks.release(snaps.get(0));
                    for (int i = 0; i < evs.size(); i++) evs.get(i).release(snaps.get(1 + i));
                }
            }
        } finally {
            for (EverettKv ev : evs) ev.close();
        }
    }

    /** For each positioning op: where it lands, then a walk (next, next, prev, prev, prev, next) while valid. */
    private static List<String> answers(Kv.Cursor c, List<byte[]> probes) throws Exception {
        List<String> out = new ArrayList<>();
        try (c) {
            int n = 2 + 2 * probes.size();
            for (int p = 0; p < n; p++) {
                String name;
                if (p == 0) {
                    name = "seekToFirst";
                    c.seekToFirst();
                } else if (p == 1) {
                    name = "seekToLast";
                    c.seekToLast();
                } else if (p % 2 == 0) {
                    byte[] t = probes.get((p - 2) / 2);
                    name = "seek " + hex(t);
                    c.seek(t);
                } else {
                    byte[] t = probes.get((p - 2) / 2);
                    name = "seekForPrev " + hex(t);
                    c.seekForPrev(t);
                }
                StringBuilder sb = new StringBuilder(name).append(": ");
                String walk = "NNPPPN";
                for (int w = 0; ; w++) {
                    boolean valid = c.isValid();
                    sb.append(valid ? hex(c.key()) + "=" + Arrays.hashCode(c.value()) : "invalid");
                    if (!valid || w == walk.length()) {
                        break;
                    }
                    if (walk.charAt(w) == 'N') {
                        sb.append(" next ");
                        c.next();
                    } else {
                        sb.append(" prev ");
                        c.prev();
                    }
                }
                out.add(sb.toString());
            }
        }
        return out;
    }

    private static byte[] value(Random rnd) {
        int n = switch (rnd.nextInt(10)) {
            case 0 -> 0;
            case 1 -> 200 + rnd.nextInt(5000);
            default -> 1 + rnd.nextInt(12);
        };
        byte[] v = new byte[n];
        rnd.nextBytes(v);
        return v;
    }

    private static String hex(byte[] b) {
        String h = HEX.formatHex(b);
        return h.length() > 24 ? h.substring(0, 12) + "…(" + b.length + " bytes)…" + h.substring(h.length() - 6) : "'" + h + "'";
    }
}

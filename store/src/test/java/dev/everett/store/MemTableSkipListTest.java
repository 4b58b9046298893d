package dev.everett.store;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The memtable's skip list: keys in unsigned byte order whatever their length and however much of
 * the four bytes kept beside each link or the 16 bytes compared inside the node they share, and
 * readers that run while the one writer inserts see a consistent, ordered list and exactly the
 * versions published before they read.
 */
class MemTableSkipListTest {

    /** Four-byte heads that {@link #randomKey} keys share, so links' first key bytes often tie. */
    private static final byte[][] HEADS = {{0, 0, 0, 0}, {0x6b, 0x6b, 0x6b, 0x6b}, {(byte) 0xFF, 0, (byte) 0xFF, 0}};

    /**
     * Keys that stress the comparisons a search makes without the node (the first four key bytes
     * kept beside each link) and inside it (the 16-byte prefix): empty, short, zero-padded
     * lookalikes, shared four-byte heads with tails of any length, shared 16-byte prefixes, long.
     */
    private static byte[] randomKey(Random rnd) {
        int shape = rnd.nextInt(7);
        byte[] k = switch (shape) {
            case 0 -> new byte[rnd.nextInt(3)]; // the empty key and zeros, which the padding must not confuse
            case 1 -> new byte[1 + rnd.nextInt(9)];
            case 2 -> new byte[15 + rnd.nextInt(3)]; // around the 16-byte prefix boundary
            case 6 -> new byte[rnd.nextInt(21)]; // a shared head (or part of one), then anything
            default -> new byte[16 + rnd.nextInt(24)];
        };
        int from = 0;
        if (shape == 6) {
            from = Math.min(k.length, 4);
            System.arraycopy(HEADS[rnd.nextInt(HEADS.length)], 0, k, 0, from);
        } else if (shape >= 2) {
            from = Math.min(k.length, 14);
            Arrays.fill(k, 0, from, (byte) 0x6b); // a long shared prefix
        }
        for (int i = from; i < k.length; i++) {
            k[i] = (byte) (rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(4) == 0 ? 0xFF : rnd.nextInt(256));
        }
        return k;
    }

    /** Single-threaded: the list against a TreeMap in every direction and seek, keys of every shape. */
    @Test
    void ordersEveryKeyShapeAsUnsignedBytes() throws Exception {
        long seed = Seeds.seed();
        Seeds.run("MemTableSkipListTest.ordersEveryKeyShapeAsUnsignedBytes", seed, () -> {
            Random rnd = new Random(seed);
            MemTable mem = new MemTable(1);
            TreeMap<byte[], byte[]> model = new TreeMap<>(Arrays::compareUnsigned);
            long seq = 0;
            for (int i = 0; i < 4000; i++) {
                byte[] k = randomKey(rnd);
                byte[] v = {(byte) i, (byte) (i >>> 8)};
                MemTable.Chain existing = mem.add(k.clone(), ++seq, WriteBatch.PUT, v);
                assertEquals(model.containsKey(k), existing != null, "add reports whether the key was present");
                model.put(k, v);
            }
            assertEquals(model.size(), mem.keyCount());
            // Forward by links, backward by searches.
            List<byte[]> keys = new ArrayList<>(model.keySet());
            int i = 0;
            for (MemTable.Chain c = mem.first(); c != null; c = mem.next(c)) {
                assertArrayEquals(keys.get(i++), c.key);
            }
            assertEquals(keys.size(), i);
            MemTableCursor cursor = new MemTableCursor(mem, seq);
            cursor.seekToLast();
            for (int j = keys.size() - 1; j >= 0; j--) {
                assertTrue(cursor.valid());
                assertArrayEquals(keys.get(j), cursor.key());
                assertArrayEquals(model.get(keys.get(j)), cursor.value());
                cursor.prev();
            }
            assertTrue(!cursor.valid());
            for (int probe = 0; probe < 2000; probe++) {
                byte[] t = randomKey(rnd);
                check(model.ceilingKey(t), mem.ceiling(t, true), "ceiling");
                check(model.higherKey(t), mem.ceiling(t, false), "higher");
                check(model.floorKey(t), mem.floor(t, true), "floor");
                check(model.lowerKey(t), mem.floor(t, false), "lower");
                MemTable.Version got = mem.get(t, seq, true);
                if (model.containsKey(t)) {
                    assertNotNull(got);
                    assertArrayEquals(model.get(t), got.value);
                } else {
                    assertNull(got);
                }
            }
            check(model.lastKey(), mem.last(), "last");
        });
    }

    private static void check(byte[] expected, MemTable.Chain got, String what) {
        if (expected == null) {
            assertNull(got, what);
        } else {
            assertNotNull(got, what);
            assertArrayEquals(expected, got.key, what);
        }
    }

    /**
     * One writer inserting (new keys and new versions of old ones) while readers get, walk forward
     * and walk backward at the sequence number published when they started: every answer is the
     * newest version at or below it, walks are strictly ordered and see exactly the keys written
     * by then.
     */
    @Test
    void readersSeeConsistentViewsWhileTheWriterInserts() throws Exception {
        long seed = Seeds.seed();
        Seeds.run("MemTableSkipListTest.readersSeeConsistentViewsWhileTheWriterInserts", seed, () -> {
            Random rnd = new Random(seed);
            int ops = 40_000;
            // The writer's whole history, fixed in advance: operation s (sequence s + 1) writes keys[s].
            byte[][] opKeys = new byte[ops][];
            List<byte[]> distinct = new ArrayList<>();
            Map<String, Integer> keyIds = new HashMap<>();
            int[] keyOf = new int[ops];
            for (int s = 0; s < ops; s++) {
                byte[] k = distinct.isEmpty() || rnd.nextInt(3) > 0 ? randomKey(rnd) : distinct.get(rnd.nextInt(distinct.size()));
                Integer id = keyIds.get(Arrays.toString(k));
                if (id == null) {
                    id = distinct.size();
                    keyIds.put(Arrays.toString(k), id);
                    distinct.add(k);
                }
                opKeys[s] = k;
                keyOf[s] = id;
            }
            // For each key, the sequence numbers that wrote it, ascending; and each key's first.
            List<List<Long>> seqsOf = new ArrayList<>();
            for (int id = 0; id < distinct.size(); id++) {
                seqsOf.add(new ArrayList<>());
            }
            long[] firsts = new long[distinct.size()];
            for (int s = 0; s < ops; s++) {
                List<Long> l = seqsOf.get(keyOf[s]);
                if (l.isEmpty()) {
                    firsts[keyOf[s]] = s + 1;
                }
                l.add((long) s + 1);
            }
            long[] sortedFirsts = firsts.clone();
            Arrays.sort(sortedFirsts);

            MemTable mem = new MemTable(1);
            AtomicLong published = new AtomicLong();
            AtomicBoolean done = new AtomicBoolean();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            List<Thread> readers = new ArrayList<>();
            for (int r = 0; r < 3; r++) {
                long readerSeed = seed + r + 1;
                readers.add(Thread.ofPlatform().start(() -> {
                    Random rr = new Random(readerSeed);
                    try {
                        while (!done.get() && failure.get() == null) {
                            long at = published.get();
                            if (rr.nextBoolean()) {
                                for (int g = 0; g < 50 && at > 0; g++) {
                                    int s = rr.nextInt((int) at);
                                    MemTable.Version v = mem.get(opKeys[s], at, false);
                                    assertNotNull(v, "a published key is found");
                                    assertEquals(newestAtOrBelow(seqsOf.get(keyOf[s]), at), v.seq, "the newest version at the read point");
                                    assertEquals(v.seq, value(v.value), "the value written with that version");
                                }
                            } else {
                                walk(mem, at, rr.nextBoolean(), sortedFirsts);
                            }
                        }
                    } catch (Throwable t) {
                        failure.compareAndSet(null, t);
                    }
                }));
            }
            try {
                for (int s = 0; s < ops && failure.get() == null; s++) {
                    long seq = s + 1;
                    byte[] v = new byte[8];
                    for (int b = 0; b < 8; b++) {
                        v[b] = (byte) (seq >>> (8 * b));
                    }
                    mem.add(opKeys[s].clone(), seq, WriteBatch.PUT, v);
                    published.set(seq);
                }
            } finally {
                done.set(true);
                for (Thread t : readers) {
                    t.join();
                }
            }
            if (failure.get() != null) {
                throw new AssertionError("a reader failed: " + failure.get(), failure.get());
            }
            walk(mem, ops, true, sortedFirsts);
            walk(mem, ops, false, sortedFirsts);
            assertEquals(distinct.size(), mem.keyCount());
            assertEquals(ops, mem.versionCount());
        });
    }

    /**
     * A search ends where a link's successor is past the key; a reader that then read that link
     * again could meet a node the writer linked in meanwhile and miss a key it holds (a get saw
     * null, a ceiling a key before the target). The writer here inserts every key just before the
     * one the readers look for, so each insert lands in the link their searches end on.
     */
    @Test
    void readersFindAKeyWhileTheWriterInsertsJustBeforeIt() throws Exception {
        MemTable mem = new MemTable(1);
        byte[] target = {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 1};
        mem.add(target, 1, WriteBatch.PUT, new byte[] {1});
        int inserts = 300_000;
        AtomicBoolean done = new AtomicBoolean();
        AtomicReference<String> failure = new AtomicReference<>();
        List<Thread> readers = new ArrayList<>();
        for (int r = 0; r < Math.max(1, Runtime.getRuntime().availableProcessors() - 1); r++) {
            readers.add(Thread.ofPlatform().start(() -> {
                long reads = 0;
                while (!done.get() && failure.get() == null) {
                    reads++;
                    if (mem.get(target, 1, false) == null) {
                        failure.compareAndSet(null, "get missed the key after " + reads + " reads");
                    }
                    MemTable.Chain c = mem.ceiling(target, true);
                    if (c == null || !Arrays.equals(c.key, target)) {
                        failure.compareAndSet(null, "ceiling(target) gave " + (c == null ? "null" : Arrays.toString(c.key)) + " after " + reads + " reads");
                    }
                }
            }));
        }
        try {
            // Keys 0xFF FF FF FF 00 then ascending: each the new predecessor of the target, sharing its first four bytes.
            for (int i = 0; i < inserts && failure.get() == null; i++) {
                byte[] k = {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0, (byte) (i >>> 24), (byte) (i >>> 16), (byte) (i >>> 8), (byte) i};
                mem.add(k, 2 + i, WriteBatch.PUT, k);
            }
        } finally {
            done.set(true);
            for (Thread t : readers) {
                t.join();
            }
        }
        assertNull(failure.get());
    }

    private static long newestAtOrBelow(List<Long> seqs, long at) {
        long best = -1;
        for (long s : seqs) {
            if (s <= at) {
                best = s;
            }
        }
        return best;
    }

    private static long value(byte[] v) {
        long x = 0;
        for (int b = 7; b >= 0; b--) {
            x = (x << 8) | (v[b] & 0xFF);
        }
        return x;
    }

    /** A whole walk at {@code at}: strictly ordered, each value the version's own, as many keys as were first written by then. */
    private static void walk(MemTable mem, long at, boolean forward, long[] sortedFirsts) {
        MemTableCursor c = new MemTableCursor(mem, at);
        if (forward) {
            c.seekToFirst();
        } else {
            c.seekToLast();
        }
        byte[] previous = null;
        int n = 0;
        while (c.valid()) {
            byte[] k = c.key();
            if (previous != null) {
                int cmp = Arrays.compareUnsigned(previous, k);
                assertTrue(forward ? cmp < 0 : cmp > 0, "walk out of order");
            }
            assertTrue(value(c.value()) <= at, "a version newer than the read point");
            previous = k;
            n++;
            if (forward) {
                c.next();
            } else {
                c.prev();
            }
        }
        int expected = upperBound(sortedFirsts, at);
        assertEquals(expected, n, "keys visible at " + at);
    }

    /** How many of the sorted values are ≤ {@code at}. */
    private static int upperBound(long[] sorted, long at) {
        int lo = 0;
        int hi = sorted.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted[mid] <= at) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}

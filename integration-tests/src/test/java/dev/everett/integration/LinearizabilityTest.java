package dev.everett.integration;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.opentest4j.AssertionFailedError;

/**
 * Writer and reader threads at once, checked against a per-key linearizable model. Every key is
 * owned by one writer, which puts versions 1, 2, 3... of it (the value names the key and the
 * version) and records when each put was invoked and when it returned. Readers record when each
 * get was invoked and returned and which version it saw. Then, per key:
 * <ul>
 *   <li>a read sees a version whose put was invoked before the read returned, and not one whose
 *       successor's put had returned before the read was invoked (no stale read);</li>
 *   <li>a read invoked after another read returned sees at least that read's version (no
 *       new-then-old inversion);</li>
 *   <li>at the end every key holds its last version.</li>
 * </ul>
 * Snapshots and iterators are checked as one point in time: there must be an instant within the
 * getSnapshot (or newIterator) call at which every key it shows held exactly the version shown,
 * and reading the same snapshot again later, after more writes, must give the same versions.
 * RocksDB runs through the same checks, which shows they ask nothing it does not promise.
 */
class LinearizabilityTest {
    static final int WRITERS = 2;
    static final int READERS = 2;
    static final int KEYS_PER_WRITER = 40;
    static final int PUTS_PER_WRITER = 2_500;

    @TempDir
    Path tempDir;

    @org.junit.jupiter.api.AfterAll
    static void printFigures() {
        EquivalenceFigures.print();
    }

    static Stream<Equivalence.Factory> systems() {
        List<Equivalence.Factory> out = new ArrayList<>(List.of(Systems.ROCKSDB));
        out.addAll(EverettKv.configurations());
        return out.stream();
    }

    static byte[] key(int writer, int k) {
        return ("c" + writer + "/" + k).getBytes(StandardCharsets.US_ASCII);
    }

    static byte[] value(int keyId, long version) {
        return ByteBuffer.allocate(24).putInt(keyId).putLong(version).putLong(Fingerprint.mix(version)).putInt(keyId).array();
    }

    /** The version a value names (0 for absent); fails on a value no put wrote. */
    static long version(int keyId, byte[] value) {
        if (value == null) {
            return 0;
        }
        ByteBuffer b = ByteBuffer.wrap(value);
        if (value.length != 24 || b.getInt(0) != keyId || b.getInt(20) != keyId || b.getLong(12) != Fingerprint.mix(b.getLong(4))) {
            throw new AssertionFailedError("key " + keyId + " holds a value no put wrote: " + Bytes.show(value));
        }
        return b.getLong(4);
    }

    /** Growable invoke/return times of one key's puts, index = version. */
    static final class History {
        long[] start = new long[64];
        long[] end = new long[64];
        int versions;

        void record(int version, long s, long e) {
            if (version >= start.length) {
                start = Arrays.copyOf(start, start.length * 2);
                end = Arrays.copyOf(end, end.length * 2);
            }
            start[version] = s;
            end[version] = e;
            versions = version;
        }
    }

    record Read(int keyId, long version, long start, long end) {}

    @ParameterizedTest(name = "{0}")
    @MethodSource("systems")
    void perKeyLinearizableUnderConcurrentWritersAndReaders(Equivalence.Factory system) throws Exception {
        long seed = Systems.seeds(1)[0];
        int keys = WRITERS * KEYS_PER_WRITER;
        History[] history = new History[keys];
        for (int i = 0; i < keys; i++) {
            history[i] = new History();
        }
        ConcurrentLinkedQueue<Read> reads = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<String> snapshotViolations = new ConcurrentLinkedQueue<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Path dir = Files.createTempDirectory(tempDir, "db");
        try (Kv kv = system.open(dir)) {
            List<Thread> threads = new ArrayList<>();
            boolean[] writersDone = new boolean[1];
            for (int w = 0; w < WRITERS; w++) {
                int writer = w;
                threads.add(Thread.ofPlatform().unstarted(() -> {
                    Random r = new Random(seed + writer);
                    try {
                        for (int i = 0; i < PUTS_PER_WRITER; i++) {
                            int k = r.nextInt(KEYS_PER_WRITER);
                            int id = writer * KEYS_PER_WRITER + k;
                            int v = history[id].versions + 1;
                            long s = System.nanoTime();
                            kv.put(key(writer, k), value(id, v));
                            long e = System.nanoTime();
                            synchronized (history[id]) {
                                history[id].record(v, s, e);
                            }
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }));
            }
            for (int rd = 0; rd < READERS; rd++) {
                int reader = rd;
                threads.add(Thread.ofPlatform().unstarted(() -> {
                    Random r = new Random(seed ^ (0x9e37L + reader));
                    try {
                        for (int i = 0; !writersDone[0] || i < 200; i++) {
                            if (i % 150 == 149) {
                                snapshotCheck(kv, r, history, snapshotViolations);
                            } else {
                                int id = r.nextInt(keys);
                                long s = System.nanoTime();
                                byte[] v = kv.get(null, key(id / KEYS_PER_WRITER, id % KEYS_PER_WRITER));
                                long e = System.nanoTime();
                                reads.add(new Read(id, version(id, v), s, e));
                            }
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }));
            }
            threads.forEach(Thread::start);
            for (int w = 0; w < WRITERS; w++) {
                threads.get(w).join();
            }
            writersDone[0] = true;
            for (Thread t : threads) {
                t.join();
            }
            String where = system.name() + " seed " + seed + " (replay with " + Systems.replayHint(seed) + ")";
            if (failure.get() != null) {
                throw new AssertionFailedError(where + ": a thread failed", failure.get());
            }
            if (!snapshotViolations.isEmpty()) {
                throw new AssertionFailedError(where + ": " + snapshotViolations.size() + " snapshot violations, first: " + snapshotViolations.peek());
            }
            for (int id = 0; id < keys; id++) {
                long last = history[id].versions;
                long seen = version(id, kv.get(null, key(id / KEYS_PER_WRITER, id % KEYS_PER_WRITER)));
                if (seen != last) {
                    throw new AssertionFailedError(where + ": key " + id + " ends at version " + seen + ", its last put was " + last);
                }
            }
            checkReads(where, history, new ArrayList<>(reads));
            EquivalenceFigures.record("linearizability " + system.name(), reads.size() + " reads and " + WRITERS * PUTS_PER_WRITER + " puts checked");
        }
    }

    /** The per-key rules over all reads. */
    static void checkReads(String where, History[] history, List<Read> all) {
        List<List<Read>> byKey = new ArrayList<>();
        for (int i = 0; i < history.length; i++) {
            byKey.add(new ArrayList<>());
        }
        all.forEach(r -> byKey.get(r.keyId()).add(r));
        for (int id = 0; id < history.length; id++) {
            History h = history[id];
            List<Read> rs = byKey.get(id);
            for (Read r : rs) {
                if (r.version() > h.versions || (r.version() > 0 && h.start[(int) r.version()] > r.end())) {
                    throw new AssertionFailedError(where + ": key " + id + " read version " + r.version() + " before its put was invoked");
                }
                if (r.version() < h.versions && h.end[(int) r.version() + 1] < r.start()) {
                    throw new AssertionFailedError(where + ": key " + id + " stale read: version " + r.version()
                            + " after version " + (r.version() + 1) + "'s put had returned");
                }
            }
            List<Read> byStart = new ArrayList<>(rs);
            byStart.sort(Comparator.comparingLong(Read::start));
            List<Read> byEnd = new ArrayList<>(rs);
            byEnd.sort(Comparator.comparingLong(Read::end));
            long maxDone = 0;
            int j = 0;
            for (Read r : byStart) {
                while (j < byEnd.size() && byEnd.get(j).end() < r.start()) {
                    maxDone = Math.max(maxDone, byEnd.get(j).version());
                    j++;
                }
                if (r.version() < maxDone) {
                    throw new AssertionFailedError(where + ": key " + id + " read version " + r.version()
                            + " after an earlier, finished read had seen version " + maxDone);
                }
            }
        }
    }

    /**
     * A snapshot (or an iterator's implicit one) over one writer's keys: one instant in the
     * getSnapshot call must explain every version; a second read of the snapshot later agrees.
     */
    static void snapshotCheck(Kv kv, Random r, History[] history, ConcurrentLinkedQueue<String> violations) throws Exception {
        int writer = r.nextInt(WRITERS);
        long[] seen = new long[KEYS_PER_WRITER];
        long t0 = System.nanoTime();
        boolean iterator = r.nextBoolean();
        Object snap = null;
        Kv.Cursor cursor = null;
        if (iterator) {
            cursor = kv.cursor(null, null, null);
        } else {
            snap = kv.snapshot();
        }
        long t1 = System.nanoTime();
        try {
            if (iterator) {
                String prefix = "c" + writer + "/";
                for (cursor.seek(prefix.getBytes(StandardCharsets.US_ASCII)); cursor.isValid(); cursor.next()) {
                    String k = new String(cursor.key(), StandardCharsets.US_ASCII);
                    if (!k.startsWith(prefix)) {
                        break;
                    }
                    int kk = Integer.parseInt(k.substring(k.indexOf('/') + 1));
                    seen[kk] = version(writer * KEYS_PER_WRITER + kk, cursor.value());
                }
            } else {
                for (int k = 0; k < KEYS_PER_WRITER; k++) {
                    seen[k] = version(writer * KEYS_PER_WRITER + k, kv.get(snap, key(writer, k)));
                }
            }
            // Some instant T in [t0, t1] has, for every key, the seen version's put invoked before T
            // and the next version's put (if it had returned when we look) returned after T.
            long lo = t0;
            long hi = t1;
            for (int k = 0; k < KEYS_PER_WRITER; k++) {
                History h = history[writer * KEYS_PER_WRITER + k];
                synchronized (h) {
                    long v = seen[k];
                    if (v > 0 && v <= h.versions) {
                        lo = Math.max(lo, h.start[(int) v]);
                    }
                    if (v + 1 <= h.versions) {
                        hi = Math.min(hi, h.end[(int) v + 1]);
                    }
                }
            }
            if (lo > hi) {
                violations.add((iterator ? "iterator" : "snapshot") + " over writer " + writer + " shows versions " + Arrays.toString(seen)
                        + " that held at no single instant of the call");
            }
            if (!iterator) {
                Thread.onSpinWait();
                long[] again = new long[KEYS_PER_WRITER];
                for (int k = 0; k < KEYS_PER_WRITER; k++) {
                    again[k] = version(writer * KEYS_PER_WRITER + k, kv.get(snap, key(writer, k)));
                }
                assertArrayEquals(seen, again, "a snapshot read twice changed");
            }
        } finally {
            if (cursor != null) {
                cursor.close();
            }
            if (snap != null) {
                kv.release(snap);
            }
        }
    }
}

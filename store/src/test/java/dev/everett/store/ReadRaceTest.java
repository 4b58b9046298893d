package dev.everett.store;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Reads that race with the release of what they read at, each racing operation made to land in
 * the read's window on every round.
 */
class ReadRaceTest {

    @TempDir
    Path dir;

    /**
     * A get at a snapshot checks that the snapshot is live, then searches the memtables. A release
     * landing between the two unregisters the snapshot's read point and sweeps out the versions
     * only it needed; the get, a registered read (no stale check) whose read point is gone, then
     * answers from whatever is left: here nothing, the key's version at the snapshot is gone. Such
     * a get may fail as a use of a released snapshot, or answer as of the snapshot; never with a
     * state the snapshot never held. The key shares a long prefix with a neighbour, so the get's
     * search compares long arrays, and the release (its sweep included) is made to land inside it.
     */
    @Test
    void aGetAtASnapshotReleasedMeanwhileNeverAnswersAnotherState() throws Exception {
        DBOptions options = new DBOptions().setWriteBufferSize(1L << 40).setDisableAutoCompactions(true);
        WriteOptions noLog = new WriteOptions().setDisableWAL(true);
        int prefix = 1 << 20;
        byte[] decoy = new byte[prefix + 1];
        Arrays.fill(decoy, 0, prefix, (byte) 0x6b);
        byte[] target = decoy.clone();
        target[prefix] = 1;
        // Enough other keys with a version only the snapshot sees that releasing it sweeps.
        byte[][] others = new byte[20][];
        for (int i = 0; i < others.length; i++) {
            others[i] = new byte[] {'a', (byte) i};
        }
        try (EverettDB db = EverettDB.open(dir.resolve("db"), options)) {
            db.put(noLog, decoy, new byte[] {0});
            db.put(noLog, target, new byte[] {0});
            long getNanos = Long.MAX_VALUE; // how long a get of the target takes here, warmed up
            for (int i = 0; i < 200; i++) {
                long t = System.nanoTime();
                db.get(target);
                getNanos = Math.min(getNanos, System.nanoTime() - t);
            }
            AtomicReference<Snapshot> handed = new AtomicReference<>();
            AtomicInteger started = new AtomicInteger();
            AtomicReference<Object> answer = new AtomicReference<>();
            AtomicBoolean stop = new AtomicBoolean();
            Object threw = new Object();
            Thread reader = Thread.ofPlatform().start(() -> {
                for (int r = 1; ; r++) {
                    Snapshot s;
                    while ((s = handed.getAndSet(null)) == null) {
                        if (stop.get()) {
                            return;
                        }
                        Thread.onSpinWait();
                    }
                    ReadOptions at = new ReadOptions().setSnapshot(s);
                    started.set(r);
                    Object got;
                    try {
                        byte[] v = db.get(at, target);
                        got = v == null ? "null" : v;
                    } catch (IllegalArgumentException e) {
                        got = threw; // a use of a released snapshot: allowed
                    }
                    answer.set(got);
                }
            });
            String failure = null;
            long deadline = System.nanoTime() + 450_000_000L;
            try {
                for (int r = 1; failure == null && (r <= 10 || System.nanoTime() < deadline); r++) {
                    byte[] old = {(byte) r, 1};
                    for (byte[] k : others) {
                        db.put(noLog, k, old);
                    }
                    db.put(noLog, target, old);
                    Snapshot s = db.getSnapshot();
                    for (byte[] k : others) {
                        db.put(noLog, k, new byte[] {(byte) r, 2}); // pruning keeps the snapshot's version
                    }
                    db.put(noLog, target, new byte[] {(byte) r, 2});
                    answer.set(null);
                    handed.set(s);
                    while (started.get() != r) {
                        Thread.onSpinWait();
                    }
                    // The get has checked the snapshot (or is about to): release it a quarter of
                    // the way into the get's search.
                    long until = System.nanoTime() + getNanos / 4;
                    while (System.nanoTime() < until) {
                        Thread.onSpinWait();
                    }
                    db.releaseSnapshot(s);
                    Object got;
                    while ((got = answer.get()) == null) {
                        Thread.onSpinWait();
                    }
                    if (got != threw && !(got instanceof byte[] v && Arrays.equals(v, old))) {
                        failure = "round " + r + ": a get at the snapshot answered "
                                + (got instanceof byte[] v ? Arrays.toString(v) : got) + ", the snapshot holds " + Arrays.toString(old);
                    }
                }
            } finally {
                stop.set(true);
                reader.join();
            }
            assertNull(failure);
        }
    }
}

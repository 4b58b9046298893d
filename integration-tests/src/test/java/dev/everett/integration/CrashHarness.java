package dev.everett.integration;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.opentest4j.AssertionFailedError;

/**
 * Kills a {@link CrashChild} with SIGKILL at random moments, reopens its store in this JVM and
 * checks the recovered contents against the oracle. For each writer the contents must equal the
 * oracle's state after exactly {@code j} of its writes, for some {@code j} between a lower bound
 * and the number it had issued: the lower bound is every acknowledged write in the sync and
 * unsynced modes, and every write acknowledged before the last finished flush with the WAL off.
 * A state that is not the result of any such prefix (a torn batch, a lost acknowledged write, a
 * value from nowhere) fails. The next round starts the child from the recovered point.
 */
final class CrashHarness {
    private final String system;
    private final CrashMode mode;
    private final long seed;
    private final int writers;
    private final Path dir;
    private final Path log;
    private final long[] start;
    private final List<TreeMap<byte[], byte[]>> oracle = new ArrayList<>();
    private final Random random;
    int kills;
    long writesVerified;
    long writesAcknowledged;

    CrashHarness(String system, CrashMode mode, long seed, int writers, Path work) throws IOException {
        this.system = system;
        this.mode = mode;
        this.seed = seed;
        this.writers = writers;
        this.dir = Files.createDirectories(work.resolve("db"));
        this.log = work.resolve("child.log");
        this.start = new long[writers];
        this.random = new Random(seed);
        for (int t = 0; t < writers; t++) {
            oracle.add(new TreeMap<>(Bytes::compare));
        }
    }

    private String where() {
        return system + " " + mode + " seed " + seed + " (replay with " + Systems.replayHint(seed) + "), kill " + (kills + 1)
                + (aimingAt == null ? "" : " at " + aimingAt.label);
    }

    /** One run of the child, killed {@code millis} after its first acknowledged write; then the check. */
    void round(int millis) throws Exception {
        run(null, 0, millis);
    }

    /**
     * One run of the child, killed when it reaches {@code point} (after letting a random number
     * of matches pass, drawn from the harness's seed); then the check. Fails if the child does not
     * reach the point within 90 s, so every aimed kill is a kill at that point.
     */
    void aimedRound(KillPoint point) throws Exception {
        run(point, random.nextInt(point.maxSkip + 1), 0);
        aimed.merge(point.label, 1, Integer::sum);
    }

    /** Kills survived at each aimed point. */
    final Map<String, Integer> aimed = new TreeMap<>();

    private KillPoint aimingAt;

    private void run(KillPoint point, int skip, int millis) throws Exception {
        aimingAt = point;
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path")));
        if (point != null) {
            command.add("-D" + CrashChild.POINT_PROPERTY + "=" + point.label + ":" + skip);
        }
        command.addAll(List.of(CrashChild.class.getName(), system, dir.toString(), Long.toString(seed), mode.name()));
        for (long s : start) {
            command.add(Long.toString(s));
        }
        Process child = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        long[] issued = start.clone();
        long[] acked = start.clone();
        long[] durable = start.clone();
        String[] failure = new String[1];
        CountDownLatch ready = new CountDownLatch(1);
        CountDownLatch firstAck = new CountDownLatch(1);
        CountDownLatch atPoint = new CountDownLatch(1);
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.US_ASCII))) {
                for (String line; (line = in.readLine()) != null; ) {
                    if (line.equals("R")) {
                        ready.countDown();
                        continue;
                    }
                    if (point != null && line.equals("K " + point.label)) {
                        atPoint.countDown();
                        continue;
                    }
                    String[] f = line.split(" ", 3);
                    if (f.length < 3) {
                        continue; // a line cut by the kill
                    }
                    int t = Integer.parseInt(f[1]);
                    switch (f[0]) {
                        case "I" -> issued[t] = Math.max(issued[t], Long.parseLong(f[2]) + 1);
                        case "A" -> {
                            acked[t] = Math.max(acked[t], Long.parseLong(f[2]) + 1);
                            firstAck.countDown();
                        }
                        case "D" -> durable[t] = Math.max(durable[t], Long.parseLong(f[2]));
                        case "E" -> failure[0] = line;
                        default -> {}
                    }
                }
            } catch (IOException | NumberFormatException e) {
                failure[0] = "reading the child: " + e;
            }
        }, "crash-child-reader");
        reader.start();
        try {
            if (point != null) {
                // The point may come before the child is ready: the rollover is part of opening.
                if (!atPoint.await(90, TimeUnit.SECONDS)) {
                    throw new AssertionFailedError(where() + ": the child did not reach " + point.label + " (letting " + skip
                            + " matches pass) within 90 s" + (failure[0] == null ? "" : ": " + failure[0]) + " (stderr in " + log + ")");
                }
            } else {
                if (!ready.await(60, TimeUnit.SECONDS)) {
                    throw new AssertionFailedError(where() + ": the child did not open the store within 60 s (" + log + ")");
                }
                // The kill timer starts at the first acknowledged write, so every run tests something.
                firstAck.await(60, TimeUnit.SECONDS);
                Thread.sleep(millis);
            }
        } finally {
            // SIGKILL through the handle: Process.destroyForcibly would also close our end of the pipe.
            child.toHandle().destroyForcibly();
            child.waitFor(30, TimeUnit.SECONDS);
            reader.join(30_000);
        }
        if (failure[0] != null) {
            throw new AssertionFailedError(where() + ": the child failed before the kill: " + failure[0] + " (stderr in " + log + ")");
        }
        kills++;
        for (int t = 0; t < writers; t++) {
            writesAcknowledged += acked[t] - start[t];
        }
        TreeMap<byte[], byte[]> readOnly = readOnly();
        TreeMap<byte[], byte[]> contents;
        try (Kv kv = Systems.openDurable(system, dir, CrashMode.SYNC)) {
            contents = CrashWorkload.contents(kv);
        } catch (Exception e) {
            throw new AssertionFailedError(where() + ": reopening after the kill failed", e);
        }
        if (readOnly != null && !same(readOnly, contents)) {
            throw new AssertionFailedError(where() + ": the read-only open read other contents than the recovery: "
                    + firstDifference(contents, readOnly));
        }
        List<TreeMap<byte[], byte[]>> byWriter = new ArrayList<>();
        for (int t = 0; t < writers; t++) {
            byWriter.add(new TreeMap<>(Bytes::compare));
        }
        for (Map.Entry<byte[], byte[]> e : contents.entrySet()) {
            int t = CrashWorkload.owner(e.getKey());
            if (t < 0 || t >= writers) {
                throw new AssertionFailedError(where() + ": recovered a key no writer wrote: " + Bytes.show(e.getKey()));
            }
            byWriter.get(t).put(e.getKey(), e.getValue());
        }
        for (int t = 0; t < writers; t++) {
            long low = mode == CrashMode.NOWAL ? durable[t] : acked[t];
            long j = settle(t, low, issued[t], byWriter.get(t));
            writesVerified += j - start[t];
            start[t] = j;
        }
    }

    /**
     * For Everett: what a read-only open of the killed store reads (its logs replayed in memory),
     * checking that it changed no file; null for other systems. The read-write recovery that
     * follows must read the same.
     */
    private TreeMap<byte[], byte[]> readOnly() {
        EverettKv.Config config = EverettKv.config(system);
        if (config == null) {
            return null;
        }
        try {
            Map<String, byte[]> before = files(dir);
            TreeMap<byte[], byte[]> out = new TreeMap<>(Bytes::compare);
            try (dev.everett.store.EverettDB db = dev.everett.store.EverettDB.openReadOnly(dir, config.options());
                 dev.everett.store.EverettIterator it = db.newIterator()) {
                for (it.seekToFirst(); it.isValid(); it.next()) {
                    out.put(it.key(), it.value());
                }
            }
            Map<String, byte[]> after = files(dir);
            if (!before.keySet().equals(after.keySet())) {
                throw new AssertionFailedError(where() + ": the read-only open changed the store's paths: " + before.keySet() + " -> " + after.keySet());
            }
            for (Map.Entry<String, byte[]> e : before.entrySet()) {
                if (!Arrays.equals(e.getValue(), after.get(e.getKey()))) {
                    throw new AssertionFailedError(where() + ": the read-only open changed " + e.getKey());
                }
            }
            return out;
        } catch (IOException | RuntimeException e) {
            throw new AssertionFailedError(where() + ": the read-only open after the kill failed", e);
        }
    }

    /**
     * Every path under {@code root} (directories too) with each file's bytes. Reading LOCK opens a
     * channel on it, which is harmless here: nothing in this JVM holds the store at that point.
     */
    private static Map<String, byte[]> files(Path root) throws IOException {
        Map<String, byte[]> out = new TreeMap<>();
        try (java.util.stream.Stream<Path> s = Files.walk(root)) {
            for (Path p : s.toList()) {
                out.put(root.relativize(p).toString(), Files.isRegularFile(p) ? Files.readAllBytes(p) : new byte[0]);
            }
        }
        return out;
    }

    /** Advances writer t's oracle to the prefix in [low, high] the contents equal; fails if none does. */
    private long settle(int t, long low, long high, TreeMap<byte[], byte[]> contents) {
        TreeMap<byte[], byte[]> state = oracle.get(t);
        long j = start[t];
        for (; j < low; j++) {
            CrashWorkload.apply(state, CrashWorkload.write(seed, t, j));
        }
        while (true) {
            if (same(state, contents)) {
                return j;
            }
            if (j >= high) {
                break;
            }
            CrashWorkload.apply(state, CrashWorkload.write(seed, t, j));
            j++;
        }
        // Report against the lowest allowed state, the one an acknowledged-write loss departs from.
        TreeMap<byte[], byte[]> expected = new TreeMap<>(Bytes::compare);
        for (long i = 0; i < low; i++) {
            CrashWorkload.apply(expected, CrashWorkload.write(seed, t, i));
        }
        throw new AssertionFailedError(where() + ": writer " + t + " recovered a state that is no prefix of writes "
                + low + ".." + high + " (acknowledged or durable: " + low + ", issued: " + high + "); against the state after "
                + low + " writes: " + firstDifference(expected, contents));
    }

    private static boolean same(TreeMap<byte[], byte[]> a, TreeMap<byte[], byte[]> b) {
        if (a.size() != b.size()) {
            return false;
        }
        var ia = a.entrySet().iterator();
        var ib = b.entrySet().iterator();
        while (ia.hasNext()) {
            var x = ia.next();
            var y = ib.next();
            if (!Arrays.equals(x.getKey(), y.getKey()) || !Arrays.equals(x.getValue(), y.getValue())) {
                return false;
            }
        }
        return true;
    }

    static String firstDifference(TreeMap<byte[], byte[]> expected, TreeMap<byte[], byte[]> actual) {
        TreeMap<byte[], Boolean> keys = new TreeMap<>(Bytes::compare);
        expected.keySet().forEach(k -> keys.put(k, true));
        actual.keySet().forEach(k -> keys.put(k, true));
        for (byte[] k : keys.keySet()) {
            byte[] e = expected.get(k);
            byte[] a = actual.get(k);
            if (!Arrays.equals(e, a)) {
                return "key " + Bytes.show(k) + " expected " + Bytes.show(e) + ", recovered " + Bytes.show(a)
                        + " (" + expected.size() + " keys expected, " + actual.size() + " recovered)";
            }
        }
        return "no difference";
    }

    int nextDelay() {
        return 40 + random.nextInt(500);
    }
}

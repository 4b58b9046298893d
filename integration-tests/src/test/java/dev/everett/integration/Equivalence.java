package dev.everett.integration;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Applies one op sequence to two systems side by side and compares every answer: each point
 * read, each iterator step (valid, key, value), each compaction-invariance hash and each
 * fingerprint. The first disagreement stops the run and comes back as a {@link Divergence}.
 */
final class Equivalence {
    private Equivalence() {}

    /** Opens a system in an empty directory. */
    interface Factory {
        String name();

        Kv open(Path dir) throws Exception;
    }

    /** Where and how two systems first disagreed. */
    record Divergence(int opIndex, Op op, String what, String left, String right) {
        @Override
        public String toString() {
            return "op " + opIndex + " " + OpPrinter.java(op) + ": " + what + "\n  left:  " + left + "\n  right: " + right;
        }
    }

    /** What one run compared. */
    static final class Counts {
        long ops;
        long reads;
        long steps;
        long checks;

        void add(Counts o) {
            ops += o.ops;
            reads += o.reads;
            steps += o.steps;
            checks += o.checks;
        }

        @Override
        public String toString() {
            return ops + " ops, " + reads + " point reads, " + steps + " iterator steps, " + checks + " hash checks";
        }
    }

    /** Runs {@code ops} on fresh instances in subdirectories of {@code work}; null when they agree. */
    static Divergence run(List<Op> ops, Factory left, Factory right, Path work, Counts counts) throws Exception {
        Path l = Files.createTempDirectory(work, "left");
        Path r = Files.createTempDirectory(work, "right");
        try (Side a = new Side(left.open(l)); Side b = new Side(right.open(r))) {
            for (int i = 0; i < ops.size(); i++) {
                Op op = ops.get(i);
                String diff = apply(op, a, b, counts);
                counts.ops++;
                if (diff != null) {
                    String[] parts = diff.split("\u0000", 3);
                    return new Divergence(i, op, parts[0], parts[1], parts[2]);
                }
            }
            return null;
        } finally {
            deleteTree(l);
            deleteTree(r);
        }
    }

    /** One system with its named snapshots. */
    private static final class Side implements AutoCloseable {
        final Kv kv;
        final Map<Integer, Object> snapshots = new HashMap<>();

        Side(Kv kv) {
            this.kv = kv;
        }

        Object snapshot(int id) {
            if (id == Op.NO_SNAPSHOT) {
                return null;
            }
            Object s = snapshots.get(id);
            if (s == null) {
                throw new IllegalStateException("snapshot " + id + " is not live");
            }
            return s;
        }

        void releaseAll() throws Exception {
            for (Object s : snapshots.values()) {
                kv.release(s);
            }
            snapshots.clear();
        }

        @Override
        public void close() throws Exception {
            try {
                releaseAll();
            } finally {
                kv.close();
            }
        }
    }

    @FunctionalInterface
    private interface Action {
        String run(Side s) throws Exception;
    }

    /** The answer of one side, an exception being an answer too. */
    private static String answer(Side s, Action a) {
        try {
            return a.run(s);
        } catch (Exception | AssertionError e) {
            return "threw " + e;
        }
    }

    /** Both sides' answers; null when equal, else "what\0left\0right". */
    private static String compare(String what, Side a, Side b, Action action) {
        String x = answer(a, action);
        String y = answer(b, action);
        return x.equals(y) ? null : what + "\u0000" + x + "\u0000" + y;
    }

    private static String apply(Op op, Side a, Side b, Counts counts) {
        switch (op) {
            case Op.Put p -> {
                return compare("put", a, b, s -> { s.kv.put(p.key(), p.value()); return "ok"; });
            }
            case Op.Delete d -> {
                return compare("delete", a, b, s -> { s.kv.delete(d.key()); return "ok"; });
            }
            case Op.SingleDelete d -> {
                return compare("singleDelete", a, b, s -> { s.kv.singleDelete(d.key()); return "ok"; });
            }
            case Op.Batch batch -> {
                return compare("write batch", a, b, s -> { s.kv.write(batch.writes()); return "ok"; });
            }
            case Op.TakeSnapshot t -> {
                return compare("getSnapshot", a, b, s -> { s.snapshots.put(t.id(), s.kv.snapshot()); return "ok"; });
            }
            case Op.ReleaseSnapshot t -> {
                return compare("releaseSnapshot", a, b, s -> { s.kv.release(s.snapshots.remove(t.id())); return "ok"; });
            }
            case Op.Get g -> {
                counts.reads++;
                return compare("get", a, b, s -> Bytes.show(s.kv.get(s.snapshot(g.snapshot()), g.key())));
            }
            case Op.MultiGet g -> {
                counts.reads += g.keys().size();
                return compare("multiGetAsList", a, b, s -> {
                    StringBuilder answers = new StringBuilder("[");
                    for (byte[] v : s.kv.multiGet(s.snapshot(g.snapshot()), g.keys())) {
                        answers.append(answers.length() > 1 ? ", " : "").append(Bytes.show(v));
                    }
                    return answers.append(']').toString();
                });
            }
            case Op.Scan scan -> {
                return scan(scan, a, b, counts);
            }
            case Op.Flush f -> {
                return compare("flush", a, b, s -> { s.kv.flush(); return "ok"; });
            }
            case Op.CompactRange c -> {
                return compare("compactRange(begin, end)", a, b, s -> { s.kv.compactRange(c.lower(), c.upper()); return "ok"; });
            }
            case Op.CompactAll c -> {
                return compare("compactRange", a, b, s -> { s.kv.compactAll(); return "ok"; });
            }
            case Op.Reopen r -> {
                return compare("reopen", a, b, s -> { s.releaseAll(); s.kv.reopen(); return "ok"; });
            }
            case Op.CompactionInvariance ci -> {
                counts.checks++;
                return compare("range hash under a snapshot before / after full compaction", a, b, s -> {
                    Object snap = s.kv.snapshot();
                    try {
                        String before = rangeHash(s.kv, snap, ci.lower(), ci.upper());
                        s.kv.compactAll();
                        String after = rangeHash(s.kv, snap, ci.lower(), ci.upper());
                        return before.equals(after) ? before : "compaction changed it: " + before + " -> " + after;
                    } finally {
                        s.kv.release(snap);
                    }
                });
            }
            case Op.FingerprintCheck f -> {
                counts.checks++;
                return compare("fingerprint of the whole state", a, b, s -> rangeHash(s.kv, null, null, null));
            }
        }
    }

    private static String scan(Op.Scan scan, Side a, Side b, Counts counts) {
        Kv.Cursor[] ca = new Kv.Cursor[1];
        Kv.Cursor[] cb = new Kv.Cursor[1];
        String opened = compare("newIterator", a, b, s -> {
            Kv.Cursor c = s.kv.cursor(s.snapshot(scan.snapshot()), scan.lower(), scan.upper());
            (s == a ? ca : cb)[0] = c;
            return "ok";
        });
        try {
            if (opened != null) {
                return opened;
            }
            boolean valid = false;
            for (int i = 0; i < scan.steps().size(); i++) {
                Op.Step step = scan.steps().get(i);
                boolean move = step instanceof Op.Next || step instanceof Op.Prev;
                if (move && !valid) {
                    // RocksDB requires a valid iterator for Next/Prev; both are invalid here.
                    continue;
                }
                counts.steps++;
                String where = "iterator step " + i + " " + OpPrinter.java(step);
                String x = answer(a, s -> step(ca[0], step));
                String y = answer(b, s -> step(cb[0], step));
                if (!x.equals(y)) {
                    return where + "\u0000" + x + "\u0000" + y;
                }
                valid = x.startsWith("valid");
            }
            return null;
        } finally {
            closeQuietly(ca[0]);
            closeQuietly(cb[0]);
        }
    }

    private static void closeQuietly(Kv.Cursor c) {
        if (c != null) {
            try {
                c.close();
            } catch (Exception e) {
                throw new IllegalStateException("closing an iterator failed", e);
            }
        }
    }

    private static String step(Kv.Cursor c, Op.Step step) throws Exception {
        switch (step) {
            case Op.SeekToFirst s -> c.seekToFirst();
            case Op.SeekToLast s -> c.seekToLast();
            case Op.Seek s -> c.seek(s.target());
            case Op.SeekForPrev s -> c.seekForPrev(s.target());
            case Op.Next s -> c.next();
            case Op.Prev s -> c.prev();
        }
        return c.isValid() ? "valid " + Bytes.show(c.key()) + " = " + Bytes.show(c.value()) : "invalid";
    }

    /**
     * The fingerprint and count of {@code [lower, upper)} (null: unbounded) at the snapshot, read
     * by an unbounded iterator (seek to the lower key, stop at the upper one), which RocksDB defines
     * in every case.
     */
    static String rangeHash(Kv kv, Object snapshot, byte[] lower, byte[] upper) throws Exception {
        Fingerprint f = Fingerprint.start();
        try (Kv.Cursor c = kv.cursor(snapshot, null, null)) {
            if (lower == null) {
                c.seekToFirst();
            } else {
                c.seek(lower);
            }
            for (; c.isValid(); c.next()) {
                byte[] k = c.key();
                if (upper != null && Bytes.compare(k, upper) >= 0) {
                    break;
                }
                f.add(k, c.value());
            }
        }
        return "C=" + Long.toHexString(f.value()) + " over " + f.bindings() + " bindings";
    }

    static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Shrinking stops after this long, keeping what it has (a failure must not stall CI). */
    static final long SHRINK_BUDGET_NANOS = 90_000_000_000L;

    /** Removes chunks of {@code ops} while a divergence remains and the sequence stays valid. */
    static List<Op> shrink(List<Op> ops, Factory left, Factory right, Path work, int maxRuns) throws Exception {
        List<Op> current = new ArrayList<>(ops);
        int runs = 0;
        long deadline = System.nanoTime() + SHRINK_BUDGET_NANOS;
        for (int chunk = Math.max(1, current.size() / 2); chunk >= 1 && runs < maxRuns; chunk /= 2) {
            for (int i = 0; i < current.size() && runs < maxRuns && System.nanoTime() < deadline; ) {
                List<Op> removed = new ArrayList<>(current.subList(0, i));
                removed.addAll(current.subList(Math.min(current.size(), i + chunk), current.size()));
                List<Op> candidate = OpValidity.repair(removed);
                if (candidate.isEmpty() || OpValidity.check(candidate) != null) {
                    i += chunk;
                    continue;
                }
                runs++;
                Divergence d = run(candidate, left, right, work, new Counts());
                if (d != null) {
                    current = new ArrayList<>(candidate.subList(0, d.opIndex() + 1));
                } else {
                    i += chunk;
                }
            }
        }
        return current;
    }
}

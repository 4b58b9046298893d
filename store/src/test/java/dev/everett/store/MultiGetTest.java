package dev.everett.store;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link EverettDB#multiGetAsList}: answers in key order, at one read point. */
class MultiGetTest {

    @TempDir
    Path dir;

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void answersInTheKeysOrderWithNullsAndRepeats() {
        try (EverettDB db = EverettDB.open(dir.resolve("db"), new DBOptions().setWriteBufferSize(4096))) {
            db.put(b("a"), b("1"));
            db.put(b("c"), b("3"));
            db.flush();
            db.put(b("b"), b("2"));
            db.delete(b("c"));
            db.put(b(""), b("empty key"));
            List<byte[]> got = db.multiGetAsList(List.of(b("c"), b("a"), b("zz"), b("b"), b("a"), b("")));
            assertEquals(6, got.size());
            assertNull(got.get(0));
            assertArrayEquals(b("1"), got.get(1));
            assertNull(got.get(2));
            assertArrayEquals(b("2"), got.get(3));
            assertArrayEquals(b("1"), got.get(4));
            assertArrayEquals(b("empty key"), got.get(5));
            assertTrue(got.get(1) != got.get(4), "each answer is the caller's own copy");
            assertEquals(List.of(), db.multiGetAsList(List.of()));
        }
    }

    @Test
    void readsAtTheOptionsSnapshot() {
        try (EverettDB db = EverettDB.open(dir.resolve("db"))) {
            db.put(b("k1"), b("old"));
            Snapshot s = db.getSnapshot();
            db.put(b("k1"), b("new"));
            db.put(b("k2"), b("new"));
            try (ReadOptions at = new ReadOptions().setSnapshot(s)) {
                List<byte[]> got = db.multiGetAsList(at, List.of(b("k1"), b("k2")));
                assertArrayEquals(b("old"), got.get(0));
                assertNull(got.get(1));
            } finally {
                db.releaseSnapshot(s);
            }
        }
    }

    @Test
    void refusesMisuse() {
        EverettDB db = EverettDB.open(dir.resolve("db"));
        List<byte[]> withNull = new ArrayList<>(List.of(b("a")));
        withNull.add(null);
        NullPointerException e = assertThrows(NullPointerException.class, () -> db.multiGetAsList(withNull));
        assertTrue(e.getMessage().contains("keys[1]"), e.getMessage());
        assertThrows(NullPointerException.class, () -> db.multiGetAsList(null));
        assertThrows(NullPointerException.class, () -> db.multiGetAsList(null, List.of()));
        db.close();
        assertThrows(IllegalStateException.class, () -> db.multiGetAsList(List.of(b("a"))));
    }

    /**
     * A writer rewrites every key in one batch, each round with one new value; a multiGet of all
     * the keys must see one round whole, never keys of two rounds, while the memtable switches
     * and flushes under it. One get after another would see mixed rounds.
     */
    @Test
    void seesABatchWholeOrNotAtAll() throws Exception {
        int keys = 64;
        List<byte[]> names = new ArrayList<>();
        for (int i = 0; i < keys; i++) {
            names.add(b("key-" + i));
        }
        try (EverettDB db = EverettDB.open(dir.resolve("db"), new DBOptions().setWriteBufferSize(16 << 10))) {
            AtomicBoolean stop = new AtomicBoolean();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread writer = Thread.ofPlatform().start(() -> {
                try {
                    for (int round = 0; !stop.get(); round++) {
                        try (WriteBatch batch = new WriteBatch()) {
                            byte[] value = b("round-" + round);
                            for (byte[] k : names) {
                                batch.put(k, value);
                            }
                            db.write(new WriteOptions(), batch);
                        }
                    }
                } catch (Throwable t) {
                    failure.set(t);
                }
            });
            try {
                long deadline = System.nanoTime() + 1_000_000_000L;
                int reads = 0;
                while (System.nanoTime() < deadline || reads < 200) {
                    List<byte[]> got = db.multiGetAsList(names);
                    reads++;
                    byte[] first = got.get(0);
                    for (int i = 1; i < keys; i++) {
                        if (!Arrays.equals(first, got.get(i))) {
                            throw new AssertionError("read " + reads + " mixes batches: key 0 = "
                                    + (first == null ? null : new String(first, StandardCharsets.UTF_8)) + ", key " + i + " = "
                                    + (got.get(i) == null ? null : new String(got.get(i), StandardCharsets.UTF_8)));
                        }
                    }
                }
            } finally {
                stop.set(true);
                writer.join();
            }
            if (failure.get() != null) {
                throw new AssertionError("writer failed", failure.get());
            }
            assertTrue(db.stats().flushes.sum() > 0, "the memtable never switched under the reads");
        }
    }
}

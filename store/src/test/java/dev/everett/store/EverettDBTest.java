package dev.everett.store;

import dev.everett.api.Policy;
import dev.everett.api.PolicyMismatchException;
import dev.everett.api.ValueGrammar;
import dev.everett.api.ValueWidth;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The RocksJava-shaped surface: semantics of each call, misuse, options and lifecycle. */
class EverettDBTest {

    @TempDir
    Path dir;

    static byte[] b(String s) {
        return s.getBytes(UTF_8);
    }

    @Test
    void emptyKeyAndValueAreOrdinaryAndKeysOrderAsUnsignedBytes() {
        try (EverettDB db = EverettDB.open(dir.resolve("db"))) {
            db.put(new byte[0], new byte[0]);
            db.put(new byte[] {(byte) 0xFF}, b("high"));
            db.put(new byte[] {0x01}, b("low"));
            assertArrayEquals(new byte[0], db.get(new byte[0]));
            List<byte[]> keys = new ArrayList<>();
            try (EverettIterator it = db.newIterator()) {
                for (it.seekToFirst(); it.isValid(); it.next()) {
                    keys.add(it.key());
                }
            }
            assertEquals(3, keys.size());
            assertArrayEquals(new byte[0], keys.get(0));
            assertArrayEquals(new byte[] {0x01}, keys.get(1));
            assertArrayEquals(new byte[] {(byte) 0xFF}, keys.get(2), "0xFF sorts after 0x01 (unsigned)");
            db.delete(new byte[0]);
            assertNull(db.get(new byte[0]));
        }
    }

    @Test
    void returnedArraysAreCopies() {
        try (EverettDB db = EverettDB.open(dir.resolve("db"))) {
            byte[] v = b("value");
            db.put(b("k"), v);
            v[0] = 'X';
            byte[] got = db.get(b("k"));
            assertArrayEquals(b("value"), got, "the store copied the caller's array");
            got[0] = 'Y';
            assertArrayEquals(b("value"), db.get(b("k")), "the caller's copy does not reach the store");
        }
    }

    @Test
    void batchIsAtomicAndLaterOperationsWin() {
        try (EverettDB db = EverettDB.open(dir.resolve("db"))) {
            db.put(b("a"), b("1"));
            WriteBatch batch = new WriteBatch().put(b("b"), b("2")).delete(b("a")).put(b("b"), b("3")).singleDelete(b("c"));
            assertEquals(4, batch.count());
            assertTrue(batch.hasSingleDelete());
            Snapshot before = db.getSnapshot();
            db.write(new WriteOptions(), batch);
            assertNull(db.get(b("a")));
            assertArrayEquals(b("3"), db.get(b("b")));
            assertEquals(before.getSequenceNumber() + 4, db.getLatestSequenceNumber());
            ReadOptions at = new ReadOptions().setSnapshot(before);
            assertArrayEquals(b("1"), db.get(at, b("a")));
            assertNull(db.get(at, b("b")));
            batch.clear();
            assertEquals(0, batch.count());
            db.write(new WriteOptions(), batch); // an empty batch is a no-op
            assertEquals(before.getSequenceNumber() + 4, db.getLatestSequenceNumber());
            db.releaseSnapshot(before);
        }
    }

    @Test
    void snapshotSeesExactlyTheStateWhenTaken() {
        try (EverettDB db = EverettDB.open(dir.resolve("db"))) {
            db.put(b("k"), b("old"));
            try (Snapshot s = db.getSnapshot()) {
                db.put(b("k"), b("new"));
                db.put(b("other"), b("x"));
                ReadOptions ro = new ReadOptions().setSnapshot(s);
                assertArrayEquals(b("old"), db.get(ro, b("k")));
                assertNull(db.get(ro, b("other")));
                try (EverettIterator it = db.newIterator(ro)) {
                    it.seekToFirst();
                    assertArrayEquals(b("k"), it.key());
                    assertArrayEquals(b("old"), it.value());
                    it.next();
                    assertFalse(it.isValid());
                }
                s.close();
                assertThrows(IllegalArgumentException.class, () -> db.get(ro, b("k")), "a released snapshot is refused");
            }
        }
    }

    @Test
    void iteratorWithoutSnapshotReadsAnImplicitOneTakenAtCreation() {
        try (EverettDB db = EverettDB.open(dir.resolve("db"))) {
            db.put(b("a"), b("1"));
            try (EverettIterator it = db.newIterator()) {
                db.put(b("b"), b("2"));
                db.delete(b("a"));
                it.seekToFirst();
                assertArrayEquals(b("a"), it.key());
                it.next();
                assertFalse(it.isValid());
            }
        }
    }

    @Test
    void boundsClampSeeksAsRocksDbDoes() {
        try (EverettDB db = EverettDB.open(dir.resolve("db"))) {
            for (String k : new String[] {"a", "b", "c", "d", "e"}) {
                db.put(b(k), b(k));
            }
            ReadOptions ro = new ReadOptions().setIterateLowerBound(b("b")).setIterateUpperBound(b("d"));
            try (EverettIterator it = db.newIterator(ro)) {
                it.seek(b("a"));
                assertArrayEquals(b("b"), it.key(), "seek below the lower bound starts at it");
                it.seekForPrev(b("z"));
                assertArrayEquals(b("c"), it.key(), "seekForPrev past the upper bound lands below it");
                it.seekToLast();
                assertArrayEquals(b("c"), it.key());
                it.next();
                assertFalse(it.isValid(), "the upper bound is exclusive");
                it.seekToFirst();
                assertArrayEquals(b("b"), it.key());
                it.prev();
                assertFalse(it.isValid(), "nothing below the lower bound");
                it.seek(b("d"));
                assertFalse(it.isValid());
                it.seekForPrev(b("a"));
                assertFalse(it.isValid());
                assertThrows(IllegalStateException.class, it::key);
                assertThrows(IllegalStateException.class, it::next);
            }
        }
    }

    @Test
    void useAfterCloseThrowsIllegalState() {
        EverettDB db = EverettDB.open(dir.resolve("db"));
        EverettIterator it = db.newIterator();
        Snapshot s = db.getSnapshot();
        db.close();
        db.close(); // twice is fine
        assertThrows(IllegalStateException.class, () -> db.put(b("k"), b("v")));
        assertThrows(IllegalStateException.class, () -> db.get(b("k")));
        assertThrows(IllegalStateException.class, () -> db.delete(b("k")));
        assertThrows(IllegalStateException.class, db::newIterator);
        assertThrows(IllegalStateException.class, db::getSnapshot);
        assertThrows(IllegalStateException.class, db::flush);
        assertThrows(IllegalStateException.class, db::compactRange);
        assertThrows(IllegalStateException.class, () -> db.getProperty("everett.stats"));
        assertThrows(IllegalStateException.class, it::seekToFirst);
        s.close();
        it.close();
    }

    @Test
    void secondOpenOfTheSameStoreIsRefused() {
        try (EverettDB db = EverettDB.open(dir.resolve("db"))) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> EverettDB.open(dir.resolve("db")));
            assertTrue(e.getMessage().contains("LOCK"), e.getMessage());
        }
        EverettDB.open(dir.resolve("db")).close(); // the lock is released on close
    }

    @Test
    void badOptionsAreRefusedNamingTheOption() {
        Policy raw = Policy.defaultBytes().withGrammar(ValueGrammar.RAW);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> EverettDB.open(dir.resolve("db"), new DBOptions().setPolicy(raw)));
        assertTrue(e.getMessage().startsWith("policy:"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> EverettDB.open(dir.resolve("db"), new DBOptions().setPolicy(Policy.defaultBytes().withValueWidth(ValueWidth.fixed(8)))));
        assertTrue(e.getMessage().startsWith("policy:"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> EverettDB.open(dir.resolve("missing"), new DBOptions().setCreateIfMissing(false)));
        assertTrue(e.getMessage().startsWith("createIfMissing:"), e.getMessage());
        EverettDB.open(dir.resolve("db")).close();
        e = assertThrows(IllegalArgumentException.class,
                () -> EverettDB.open(dir.resolve("db"), new DBOptions().setErrorIfExists(true)));
        assertTrue(e.getMessage().startsWith("errorIfExists:"), e.getMessage());
    }

    @Test
    void reopenWithAnotherPolicyIsRefusedNamingFileAndPolicy() {
        EverettDB.open(dir.resolve("db")).close();
        PolicyMismatchException e = assertThrows(PolicyMismatchException.class,
                () -> EverettDB.open(dir.resolve("db"), new DBOptions().setPolicy(Policy.stringPolicy())));
        assertEquals(dir.resolve("db").resolve("STORE"), e.file());
        assertTrue(e.getMessage().contains("KV02 BYTE W=15 K=15"), e.getMessage());
        try (EverettDB db = EverettDB.open(dir.resolve("kv03"), new DBOptions().setPolicy(Policy.stringPolicy()))) {
            db.put(b("k"), b("v"));
        }
        try (EverettDB db = EverettDB.open(dir.resolve("kv03"), new DBOptions().setPolicy(Policy.stringPolicy()))) {
            assertArrayEquals(b("v"), db.get(b("k")));
        }
    }

    @Test
    void propertiesAnswerAndUnknownOnesAreRefused() {
        try (EverettDB db = EverettDB.open(dir.resolve("db"))) {
            db.put(b("a"), b("1"));
            db.put(b("b"), b("2"));
            assertEquals("2", db.getProperty("everett.estimate-num-keys"));
            assertEquals("0", db.getProperty("everett.num-files-at-level0"));
            assertTrue(db.getProperty("everett.stats").contains("sequence: 2"));
            Long.parseLong(db.getProperty("everett.total-segment-bytes"));
            assertThrows(IllegalArgumentException.class, () -> db.getProperty("everett.num-files-at-level99"));
            assertThrows(IllegalArgumentException.class, () -> db.getProperty("rocksdb.stats"));
        }
    }

    @Test
    void syncAndUnloggedWrites() {
        try (EverettDB db = EverettDB.open(dir.resolve("db"))) {
            db.put(new WriteOptions().setSync(true), b("synced"), b("1"));
            db.put(new WriteOptions().setDisableWAL(true), b("unlogged"), b("2"));
            assertArrayEquals(b("2"), db.get(b("unlogged")));
            // As RocksDB: a synced write without the log is refused (nothing would be forced), empty or not.
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> db.put(new WriteOptions().setSync(true).setDisableWAL(true), b("k"), b("v")));
            assertTrue(e.getMessage().contains("sync") && e.getMessage().contains("disableWAL"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> db.write(new WriteOptions().setSync(true).setDisableWAL(true), new WriteBatch()));
            assertNull(db.get(b("k")), "the refused write wrote nothing");
        }
        try (EverettDB db = EverettDB.open(dir.resolve("db"))) {
            assertArrayEquals(b("1"), db.get(b("synced")));
        }
    }

    @Test
    void nullArgumentsAreRefused() {
        try (EverettDB db = EverettDB.open(dir.resolve("db"))) {
            assertThrows(NullPointerException.class, () -> db.put(null, b("v")));
            assertThrows(NullPointerException.class, () -> db.put(b("k"), null));
            assertThrows(NullPointerException.class, () -> db.get(null));
            assertThrows(NullPointerException.class, () -> db.write(new WriteOptions(), null));
            try (EverettIterator it = db.newIterator()) {
                assertThrows(NullPointerException.class, () -> it.seek(null));
            }
        }
    }
}

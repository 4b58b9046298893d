package dev.everett.store;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.api.Policy;
import dev.everett.api.PolicyMismatchException;
import dev.everett.compaction.Layout;
import dev.everett.segment.testing.DirectoryContents;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link EverettDB#openReadOnly}: what the store held (segments and the logs' unflushed writes),
 * every write refused, not one byte, name or directory changed, and the LOCK file shared with
 * other read-only opens but not with a read-write one.
 */
class ReadOnlyTest {
    @TempDir(factory = MemoryTempDir.class)
    Path dir;

    static byte[] b(String s) {
        return s.getBytes(UTF_8);
    }

    private static DBOptions options(Layout layout) {
        return new DBOptions().setLevelLayout(layout).setBloomBitsPerKey(10).setWriteBufferSize(4096)
                .setLevel0FileNumCompactionTrigger(2);
    }

    private static Map<String, byte[]> files(Path root) throws IOException {
        return DirectoryContents.of(root);
    }

    private static void assertUnchanged(Map<String, byte[]> before, Path root) throws IOException {
        DirectoryContents.assertUnchanged(before, root, "the read-only open");
    }

    /**
     * A store of flushed segments (several, compacted on the way) and writes only its log holds,
     * with a model of what reads should see.
     */
    private static TreeMap<String, String> fill(Path db, Layout layout) {
        TreeMap<String, String> model = new TreeMap<>();
        try (EverettDB d = EverettDB.open(db, options(layout))) {
            for (int i = 0; i < 600; i++) {
                String k = String.format("k%04d", (i * 7) % 500);
                String v = "v" + i + "-".repeat(i % 13);
                d.put(b(k), b(v));
                model.put(k, v);
            }
            d.flush();
            for (int i = 0; i < 500; i += 9) {
                String k = String.format("k%04d", i);
                d.delete(b(k));
                model.remove(k);
            }
            d.put(b("logged-only"), b("in the log"));
            model.put("logged-only", "in the log");
        }
        return model;
    }

    private static void assertReads(EverettDB d, TreeMap<String, String> model) {
        for (Map.Entry<String, String> e : model.entrySet()) {
            assertArrayEquals(b(e.getValue()), d.get(b(e.getKey())), e.getKey());
        }
        assertNull(d.get(b("k0000")), "deleted");
        assertNull(d.get(b("absent")));
        List<String> forward = new ArrayList<>();
        List<String> backward = new ArrayList<>();
        try (EverettIterator it = d.newIterator()) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                forward.add(new String(it.key(), UTF_8));
                assertArrayEquals(b(model.get(forward.getLast())), it.value());
            }
            for (it.seekToLast(); it.isValid(); it.prev()) {
                backward.add(new String(it.key(), UTF_8));
            }
        }
        assertEquals(List.copyOf(model.keySet()), forward);
        assertEquals(List.copyOf(model.descendingKeySet()), backward);
    }

    @ParameterizedTest
    @EnumSource(Layout.class)
    void readsWhatTheStoreHeldAndWritesNothing(Layout layout) throws IOException {
        Path db = dir.resolve("db");
        TreeMap<String, String> model = fill(db, layout);
        Map<String, byte[]> before = files(db);
        try (EverettDB d = EverettDB.openReadOnly(db, options(layout))) {
            assertTrue(d.isReadOnly());
            assertReads(d, model);
            Snapshot s = d.getSnapshot();
            try (EverettIterator it = d.newIterator(new ReadOptions().setSnapshot(s))) {
                it.seek(b("logged-only"));
                assertArrayEquals(b("in the log"), it.value());
            }
            d.releaseSnapshot(s);
            String stats = d.getProperty("everett.stats");
            assertTrue(stats.contains("(read-only)") && stats.contains("recovered "), stats);
            assertEquals(0, d.runningCompactions());
            for (Runnable refused : List.<Runnable>of(
                    () -> d.put(b("k"), b("v")),
                    () -> d.delete(b("k0001")),
                    () -> d.singleDelete(b("k0001")),
                    () -> d.write(new WriteOptions(), new WriteBatch().put(b("a"), b("b"))),
                    d::flush,
                    d::compactRange,
                    () -> d.compactRange(b("a"), b("z")))) {
                UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, refused::run);
                assertTrue(e.getMessage().contains("read-only"), e.getMessage());
            }
            assertReads(d, model);
        }
        assertUnchanged(before, db);
        try (EverettDB d = EverettDB.open(db, options(layout))) {
            assertFalse(d.isReadOnly());
            assertReads(d, model);
        }
    }

    @Test
    void aTornLogTailIsDroppedInMemoryAndTheLogLeftAsItIs() throws IOException {
        Path db = dir.resolve("torn");
        Path log;
        try (EverettDB d = EverettDB.open(db)) {
            for (int i = 0; i < 10; i++) {
                d.put(b("k" + i), b("v" + i));
            }
        }
        try (Stream<Path> s = Files.list(db)) {
            log = s.filter(p -> WriteAheadLog.numberOf(p) >= 0).max(Path::compareTo).orElseThrow();
        }
        try (FileChannel ch = FileChannel.open(log, StandardOpenOption.WRITE)) {
            ch.truncate(ch.size() - 3);
        }
        Map<String, byte[]> before = files(db);
        try (EverettDB d = EverettDB.openReadOnly(db, new DBOptions())) {
            assertNull(d.get(b("k9")), "the torn last write is gone");
            assertArrayEquals(b("v8"), d.get(b("k8")));
            assertEquals(9, d.getLatestSequenceNumber());
            LogReplay.Result r = d.recovery().stream().filter(x -> x.file().equals(log)).findFirst().orElseThrow();
            assertTrue(d.getProperty("everett.stats").contains("torn tail of " + r.droppedBytes() + " bytes"), d.getProperty("everett.stats"));
        }
        assertUnchanged(before, db);
    }

    /** The mapped log as a crash leaves it (zeros after the last record): read as the read-write open recovers it. */
    @Test
    void aStoreCopiedWhileOpenReadsAsItsRecoveryWould() throws IOException {
        Path db = dir.resolve("live");
        Path copy = dir.resolve("copy");
        int n = 5_000;
        try (EverettDB d = EverettDB.open(db, new DBOptions().setAllowMmapWrites(true))) {
            for (int i = 0; i < n; i++) {
                d.put(b("k" + i), b("value " + i));
            }
            MappedAppendFileTest.copyTree(db, copy);
        }
        Map<String, byte[]> before = files(copy);
        try (EverettDB d = EverettDB.openReadOnly(copy, new DBOptions())) {
            for (int i = 0; i < n; i++) {
                assertArrayEquals(b("value " + i), d.get(b("k" + i)));
            }
            assertEquals(n, d.getLatestSequenceNumber());
            String stats = d.getProperty("everett.stats");
            assertTrue(stats.contains("bytes of zeros after the last record ignored from offset"), stats);
        }
        assertUnchanged(before, copy);
        try (EverettDB d = EverettDB.open(copy)) {
            assertEquals(n, d.getLatestSequenceNumber());
            assertArrayEquals(b("value " + (n - 1)), d.get(b("k" + (n - 1))));
        }
    }

    /**
     * A log the last flush covered but a crash left behind (its deletion comes after the edit):
     * a read-write open deletes it, a read-only one ignores it; replaying it would bring back an
     * overwritten value.
     */
    @Test
    void aLogTheLastFlushCoveredIsIgnored() throws IOException {
        Path db = dir.resolve("stale-log");
        Path saved = dir.resolve("saved.log");
        Path old;
        try (EverettDB d = EverettDB.open(db)) {
            d.put(b("k"), b("old"));
            try (Stream<Path> s = Files.list(db)) {
                old = s.filter(p -> WriteAheadLog.numberOf(p) >= 0).max(Path::compareTo).orElseThrow();
            }
            Files.copy(old, saved);
            d.flush();
            d.put(b("k"), b("new"));
            d.flush();
        }
        assertFalse(Files.exists(old), "deleted once a flush covered it");
        Files.copy(saved, old);
        Map<String, byte[]> before = files(db);
        try (EverettDB d = EverettDB.openReadOnly(db, new DBOptions())) {
            assertArrayEquals(b("new"), d.get(b("k")));
            assertEquals(2, d.getLatestSequenceNumber());
        }
        assertUnchanged(before, db);
        try (EverettDB d = EverettDB.open(db)) {
            assertArrayEquals(b("new"), d.get(b("k")));
        }
        assertFalse(Files.exists(old), "the read-write open deletes it");
    }

    /** A store whose first open was cut short after its descriptor (no tree, no log yet) reads as empty, as its recovery would. */
    @Test
    void aStoreCutShortInItsFirstOpenReadsAsEmpty() throws IOException {
        Path db = dir.resolve("first-open");
        EverettDB.open(db).close();
        try (Stream<Path> s = Files.walk(db.resolve(EverettDB.TREE_DIR))) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
        try (Stream<Path> s = Files.list(db)) {
            for (Path p : s.filter(p -> WriteAheadLog.numberOf(p) >= 0).toList()) {
                Files.delete(p);
            }
        }
        Map<String, byte[]> before = files(db);
        try (EverettDB d = EverettDB.openReadOnly(db, new DBOptions()); EverettIterator it = d.newIterator()) {
            it.seekToFirst();
            assertFalse(it.isValid());
            assertEquals(0, d.getLatestSequenceNumber());
        }
        assertUnchanged(before, db);
        try (EverettDB d = EverettDB.open(db)) {
            d.put(b("k"), b("v"));
        }
    }

    @Test
    void readOnlyOpensShareTheLockAndExcludeAWriter() throws IOException {
        Path db = dir.resolve("locked");
        try (EverettDB writer = EverettDB.open(db)) {
            writer.put(b("k"), b("v"));
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> EverettDB.openReadOnly(db, new DBOptions()));
            assertTrue(e.getMessage().contains("open for writing"), e.getMessage());
        }
        EverettDB first = EverettDB.openReadOnly(db, new DBOptions());
        try (EverettDB second = EverettDB.openReadOnly(db, new DBOptions());
             EverettDB third = EverettDB.openReadOnly(db.resolve("..").resolve("locked"), new DBOptions())) {
            assertArrayEquals(b("v"), second.get(b("k")));
            assertArrayEquals(b("v"), third.get(b("k")));
            assertThrows(IllegalStateException.class, () -> EverettDB.open(db));
            first.close();
            assertThrows(IllegalStateException.class, () -> EverettDB.open(db), "two read-only opens still hold the store");
            assertArrayEquals(b("v"), second.get(b("k")), "closing one read-only open leaves the others");
        }
        try (EverettDB writer = EverettDB.open(db)) {
            writer.put(b("k"), b("w"));
        }
    }

    /** The same exclusion between processes: the LOCK file's shared and exclusive locks are the operating system's. */
    @Test
    void readOnlyOpensInAnotherProcessExcludeAWriterHereAndTheOtherWayRound() throws Exception {
        Path db = dir.resolve("processes");
        try (EverettDB d = EverettDB.open(db)) {
            d.put(b("k"), b("v"));
        }
        Process reader = holder(db, "ro");
        try {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> EverettDB.open(db));
            assertTrue(e.getMessage().contains("already open"), e.getMessage());
            try (EverettDB here = EverettDB.openReadOnly(db, new DBOptions())) {
                assertArrayEquals(b("v"), here.get(b("k")), "read-only opens in two processes share the store");
            }
        } finally {
            release(reader);
        }
        Process writer = holder(db, "rw");
        try {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> EverettDB.openReadOnly(db, new DBOptions()));
            assertTrue(e.getMessage().contains("open for writing"), e.getMessage());
        } finally {
            release(writer);
        }
        try (EverettDB d = EverettDB.open(db)) {
            assertArrayEquals(b("v"), d.get(b("k")));
        }
    }

    /**
     * An open refused in this JVM must leave this JVM's hold intact for other processes: the
     * operating system drops every lock a process holds on a file when any of its channels on
     * that file closes, so a refused open must not open (and close) one.
     */
    @Test
    void anOpenRefusedHereLeavesTheHoldHereInForceForOtherProcesses() throws Exception {
        Path db = dir.resolve("refused");
        try (EverettDB writer = EverettDB.open(db)) {
            writer.put(b("k"), b("v"));
            assertThrows(IllegalStateException.class, () -> EverettDB.openReadOnly(db, new DBOptions()));
            assertThrows(IllegalStateException.class, () -> EverettDB.open(db));
            assertTrue(attempt(db, "try-rw").startsWith("REFUSED"), "a second writer in another process");
            assertTrue(attempt(db, "try-ro").startsWith("REFUSED"), "a reader in another process");
        }
        try (EverettDB reader = EverettDB.openReadOnly(db, new DBOptions())) {
            assertThrows(IllegalStateException.class, () -> EverettDB.open(db));
            assertTrue(attempt(db, "try-rw").startsWith("REFUSED"), "a writer in another process");
            assertEquals("OPENED", attempt(db, "try-ro"), "another reader");
            assertArrayEquals(b("v"), reader.get(b("k")));
        }
        assertEquals("OPENED", attempt(db, "try-rw"), "once every hold here is released");
    }

    /** What a child JVM's one attempt to open {@code db} ({@code try-rw} or {@code try-ro}) printed. */
    private static String attempt(Path db, String mode) throws Exception {
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), LockHolder.class.getName(), db.toString(), mode)
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String line;
        try (var in = new java.io.BufferedReader(new java.io.InputStreamReader(p.getInputStream(), UTF_8))) {
            line = in.readLine();
        }
        assertTrue(p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS), "the child ends");
        return String.valueOf(line);
    }

    /**
     * A LOCK file reached through another path (a hard link, as a copy made with links has) is the
     * same file: opens of the copy here are refused from the table of holds, without a channel on
     * the file (closing one, or its collection, would drop the writer's lock).
     */
    @Test
    void aCopyWhoseLockIsALinkIsRefusedAndTheWriterKeepsItsLock() throws Exception {
        Path db = dir.resolve("linked");
        Path copy = dir.resolve("linked-copy");
        try (EverettDB writer = EverettDB.open(db)) {
            writer.put(b("k"), b("v"));
            MappedAppendFileTest.copyTree(db, copy);
            Files.createLink(copy.resolve("LOCK"), db.resolve("LOCK"));
            for (int i = 0; i < 3; i++) {
                IllegalStateException e = assertThrows(IllegalStateException.class, () -> EverettDB.openReadOnly(copy, new DBOptions()));
                assertTrue(e.getMessage().contains("in this process"), e.getMessage());
                e = assertThrows(IllegalStateException.class, () -> EverettDB.open(copy));
                assertTrue(e.getMessage().contains("in this process"), e.getMessage());
            }
            System.gc();
            System.gc();
            assertTrue(attempt(db, "try-rw").startsWith("REFUSED"), "the writer's lock survived the refused opens and a collection");
        }
    }

    /** A store holding k = v, as copied without its LOCK file. */
    private Path locklessStore(String name) throws IOException {
        Path db = dir.resolve(name);
        try (EverettDB d = EverettDB.open(db)) {
            d.put(b("k"), b("v"));
        }
        Files.delete(db.resolve("LOCK"));
        return db;
    }

    /** A store without a LOCK file: its read-only opens still keep a writer of this process out. */
    @Test
    void aStoreWithoutALockFileIsHeldInThisProcess() throws IOException {
        Path db = locklessStore("lockless");
        try (EverettDB reader = EverettDB.openReadOnly(db, new DBOptions());
             EverettDB second = EverettDB.openReadOnly(db, new DBOptions())) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> EverettDB.open(db));
            assertTrue(e.getMessage().contains("read-only"), e.getMessage());
            assertArrayEquals(b("v"), second.get(b("k")));
            assertFalse(Files.exists(db.resolve("LOCK")), "a read-only open makes no LOCK file");
        }
        try (EverettDB d = EverettDB.open(db)) {
            assertArrayEquals(b("v"), d.get(b("k")));
        }
    }

    /**
     * A store without a LOCK file, held read-only here, opened for writing by another process
     * (which makes the file and locks it): a further read-only open here is refused while that
     * writer holds it, and shares the file's lock once it is gone.
     */
    @Test
    void aLockFileMadeByAnotherProcessIsRespectedByLaterOpensHere() throws Exception {
        Path db = locklessStore("lock-appears");
        try (EverettDB first = EverettDB.openReadOnly(db, new DBOptions())) {
            Process writer = holder(db, "rw");
            try {
                IllegalStateException e = assertThrows(IllegalStateException.class, () -> EverettDB.openReadOnly(db, new DBOptions()));
                assertTrue(e.getMessage().contains("in another process"), e.getMessage());
            } finally {
                release(writer);
            }
            try (EverettDB second = EverettDB.openReadOnly(db, new DBOptions())) {
                assertArrayEquals(b("v"), second.get(b("k")));
                assertTrue(attempt(db, "try-rw").startsWith("REFUSED"), "the shared lock taken for the hold keeps writers out now");
            }
            assertArrayEquals(b("v"), first.get(b("k")));
        }
        assertEquals("OPENED", attempt(db, "try-rw"));
    }

    /**
     * A lock-less store held here whose LOCK then appears as a hard link to another held store's
     * LOCK: refused from the table, without a channel on that file, so the other hold keeps its lock.
     */
    @Test
    void aLockLinkedToAnotherHeldStoresLockIsRefusedWithoutTouchingIt() throws Exception {
        Path a = locklessStore("linked-a");
        Path bDir = dir.resolve("linked-b");
        try (EverettDB d = EverettDB.open(bDir)) {
            d.put(b("k"), b("w"));
        }
        try (EverettDB readA = EverettDB.openReadOnly(a, new DBOptions()); EverettDB readB = EverettDB.openReadOnly(bDir, new DBOptions())) {
            Files.createLink(a.resolve("LOCK"), bDir.resolve("LOCK"));
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> EverettDB.openReadOnly(a, new DBOptions()));
            assertTrue(e.getMessage().contains("another store open in this process"), e.getMessage());
            System.gc();
            assertTrue(attempt(bDir, "try-rw").startsWith("REFUSED"), "the other store's shared lock is intact");
            assertArrayEquals(b("v"), readA.get(b("k")));
            assertArrayEquals(b("w"), readB.get(b("k")));
        }
    }

    /** A child JVM holding {@code db} open ({@link LockHolder}), returned once it says so. */
    private static Process holder(Path db, String mode) throws IOException {
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), LockHolder.class.getName(), db.toString(), mode)
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try (var in = new java.io.BufferedReader(new java.io.InputStreamReader(p.getInputStream(), UTF_8))) {
            String line = in.readLine();
            if (!"R".equals(line)) {
                p.destroyForcibly();
                throw new IllegalStateException("the child holding " + db + " (" + mode + ") did not open it: " + line);
            }
        }
        return p;
    }

    private static void release(Process p) throws Exception {
        p.getOutputStream().close();
        if (!p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("the child holding the store did not exit");
        }
        assertEquals(0, p.exitValue(), "the child closed the store cleanly");
    }

    @Test
    void aDirectoryWithoutAStoreIsRefusedAndNothingIsCreated() throws IOException {
        Path missing = dir.resolve("missing");
        assertThrows(IllegalArgumentException.class, () -> EverettDB.openReadOnly(missing, new DBOptions()));
        assertFalse(Files.exists(missing));
        Path empty = Files.createDirectories(dir.resolve("empty"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EverettDB.openReadOnly(empty, new DBOptions()));
        assertTrue(e.getMessage().contains("holds no store"), e.getMessage());
        try (Stream<Path> s = Files.list(empty)) {
            assertEquals(0, s.count(), "not even a LOCK file");
        }
    }

    @Test
    void anotherPolicyIsRefusedAndTheLockReleased() throws IOException {
        Path db = dir.resolve("policy");
        try (EverettDB d = EverettDB.open(db)) {
            d.put(b("k"), b("v"));
        }
        assertThrows(PolicyMismatchException.class, () -> EverettDB.openReadOnly(db, new DBOptions().setPolicy(Policy.stringPolicy())));
        assertThrows(PolicyMismatchException.class, () -> EverettDB.openReadOnly(db, new DBOptions().setLevelLayout(Layout.WHOLE_RUN)));
        try (EverettDB d = EverettDB.open(db)) {
            assertArrayEquals(b("v"), d.get(b("k")), "a refused read-only open left no lock behind");
        }
    }
}

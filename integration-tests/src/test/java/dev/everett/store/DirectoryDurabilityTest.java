package dev.everett.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.compaction.Layout;
import dev.everett.integration.FileKinds;
import dev.everett.integration.InterposedFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A directory the store creates (its own, a segment's, an object store's {@code ab/cd}) is a name
 * in its parent, durable only once the parent is forced; until then a machine crash may take it,
 * with every file published below it, although the manifest already names them. Killing the
 * process cannot show this (the page cache survives it), so the test watches the operations
 * instead: every directory a thread creates must have its parent forced before that thread next
 * forces a file (each publish forces its file first), so nothing it publishes below the
 * directory, and no manifest edit naming that, comes first. Background jobs run on other threads
 * meanwhile, so the order is checked per thread.
 */
class DirectoryDurabilityTest {
    @TempDir
    Path tempDir;

    private record Event(long thread, InterposedFiles.Op op, Path path) {
    }

    /** Every create, force and directory force, in order. */
    static final class Recorder implements InterposedFiles.Hooks {
        final List<Event> events = new ArrayList<>();

        @Override
        public synchronized void before(InterposedFiles.Op op, Path file) {
            if (op == InterposedFiles.Op.CREATE_DIRECTORY || op == InterposedFiles.Op.DIRECTORY_FORCE || op == InterposedFiles.Op.FORCE) {
                events.add(new Event(Thread.currentThread().threadId(), op, file.toAbsolutePath().normalize()));
            }
        }

        synchronized List<Event> events() {
            return List.copyOf(events);
        }
    }

    @ParameterizedTest
    @EnumSource(Layout.class)
    void everyDirectoryCreatedIsForcedIntoItsParentBeforeTheManifestCanNameIt(Layout layout) throws Exception {
        long seed = FaultInjectionTest.seed();
        Random r = new Random(seed);
        String where = layout + ", seed " + seed + " (replay with -Deverett.seed=" + seed + ")";
        Path real = Files.createDirectories(tempDir.resolve("parent"));
        Recorder recorder = new Recorder();
        Path dir = InterposedFiles.path(real, recorder).resolve("db");
        FaultInjectionTest.Model m = new FaultInjectionTest.Model();
        List<Throwable> errors = new ArrayList<>();
        try (EverettDB db = EverettDB.open(dir, FaultInjectionTest.options(null, layout))) {
            for (int i = 0; i < 600; i++) {
                FaultInjectionTest.write(db, m, r, false, errors);
                if (i % 200 == 199) {
                    db.flush();
                }
            }
            db.compactRange();
            FaultInjectionTest.checkReads(db, m, where, false);
        }
        assertEquals(List.of(), errors, where);
        // Per thread, the directories created and not yet forced into their parents.
        Map<Long, Set<Path>> pending = new HashMap<>();
        int created = 0;
        int manifestForces = 0;
        for (Event e : recorder.events()) {
            Set<Path> waiting = pending.computeIfAbsent(e.thread(), t -> new LinkedHashSet<>());
            switch (e.op()) {
                case CREATE_DIRECTORY -> {
                    waiting.add(e.path());
                    created++;
                }
                case DIRECTORY_FORCE -> waiting.removeIf(p -> e.path().equals(p.getParent()));
                case FORCE -> {
                    if (!waiting.isEmpty()) {
                        throw new AssertionError(where + ": " + tempDir.relativize(e.path()) + " was forced while "
                                + waiting.stream().map(p -> tempDir.relativize(p).toString()).toList()
                                + ", created on the same thread, were not yet forced into their parents");
                    }
                    if (FileKinds.of(e.path()).equals("manifest")) {
                        manifestForces++;
                    }
                }
                default -> { }
            }
        }
        pending.values().removeIf(Set::isEmpty);
        assertEquals(Map.of(), pending, where + ": directories created last on their threads, never forced into their parents");
        // The store made segment and object directories and committed edits: the check had work.
        assertTrue(created > 10 && manifestForces > 3, where + ": " + created + " directories created, " + manifestForces + " manifest forces");
    }
}

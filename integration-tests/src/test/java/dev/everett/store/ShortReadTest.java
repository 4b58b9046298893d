package dev.everett.store;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.compaction.Layout;
import dev.everett.integration.EquivalenceFigures;
import dev.everett.integration.FileKinds;
import dev.everett.integration.InterposedFiles;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Reads that return fewer bytes than asked, as a file system may: every relative read gets 1 to
 * 16 bytes (never 0, which a blocking channel may not return while bytes remain, and which
 * {@code Files.readAllBytes} would take for the end of the file), every positional read 0 to 16.
 * A store is opened on such a file system ({@link InterposedFiles}) over a log tail, a manifest,
 * {@code CURRENT}, its descriptor and segments, then written, flushed, compacted and reopened on
 * it: every answer must be the model's, with no exception, which holds only if every reader
 * loops until it has what it asked for. Segment files are mapped, so their reads do not pass here.
 */
class ShortReadTest {
    @TempDir
    Path tempDir;

    private static final Map<String, Integer> SHORT = new TreeMap<>();

    @AfterAll
    static void printFigures() {
        EquivalenceFigures.print();
    }

    /** Cuts every read short, counting the cuts by file kind. */
    static final class ShortReads implements InterposedFiles.Hooks {
        private final Random random;
        final Map<String, Integer> cut = new TreeMap<>();

        ShortReads(long seed) {
            this.random = new Random(seed);
        }

        @Override
        public synchronized int readable(Path file, int requested, boolean positional) {
            int n = positional ? random.nextInt(17) : 1 + random.nextInt(16);
            if (n < requested) {
                cut.merge(FileKinds.of(file), 1, Integer::sum);
                return n;
            }
            return requested;
        }
    }

    @ParameterizedTest
    @EnumSource(Layout.class)
    void shortReadsChangeNoAnswer(Layout layout) throws Exception {
        long seed = FaultInjectionTest.seed();
        Random r = new Random(seed);
        String where = "short reads (" + layout + ", seed " + seed + ", replay with -Deverett.seed=" + seed + ")";
        Path dir = Files.createDirectories(tempDir.resolve("db"));
        FaultInjectionTest.Model m = new FaultInjectionTest.Model();
        List<Throwable> errors = new ArrayList<>();
        // Segments in several levels, then a tail that lives only in the log.
        try (EverettDB db = EverettDB.open(dir, FaultInjectionTest.options(null, layout))) {
            for (int i = 0; i < 500; i++) {
                FaultInjectionTest.write(db, m, r, i >= 450, errors);
                if (i % 150 == 149) {
                    db.flush();
                }
            }
        }
        ShortReads reads = new ShortReads(seed);
        Path interposed = InterposedFiles.path(dir, reads);
        // The seam itself: one read of the descriptor returns less than the file, so a reader
        // that took one read for the whole file would be caught below.
        try (FileChannel ch = FileChannel.open(interposed.resolve(StoreDescriptor.FILE_NAME), StandardOpenOption.READ)) {
            ByteBuffer b = ByteBuffer.allocate((int) ch.size());
            assertTrue(ch.read(b) < b.capacity(), where + ": a read of the descriptor was not cut short");
        }
        for (int round = 0; round < 2; round++) {
            try (EverettDB db = EverettDB.open(interposed, FaultInjectionTest.options(null, layout))) {
                FaultInjectionTest.checkReads(db, m, where + ", opened (round " + round + ")", false);
                for (int i = 0; i < 200; i++) {
                    FaultInjectionTest.write(db, m, r, i % 4 == 0, errors);
                }
                db.flush();
                FaultInjectionTest.checkReads(db, m, where + ", after a flush (round " + round + ")", false);
                db.compactRange();
                FaultInjectionTest.checkReads(db, m, where + ", after a full compaction (round " + round + ")", false);
                for (int i = 0; i < 40; i++) {
                    FaultInjectionTest.write(db, m, r, true, errors);
                }
            }
        }
        assertTrue(errors.isEmpty(), where + ": a write failed: " + errors);
        for (String kind : List.of("log", "manifest", "current", "descriptor")) {
            assertTrue(reads.cut.getOrDefault(kind, 0) > 0, where + ": no read of a " + kind + " was cut short: " + reads.cut);
        }
        synchronized (SHORT) {
            reads.cut.forEach((k, n) -> SHORT.merge(k, n, Integer::sum));
            EquivalenceFigures.record("short reads", SHORT.values().stream().mapToInt(Integer::intValue).sum()
                    + " reads cut short " + SHORT + ", every answer the model's");
        }
    }
}

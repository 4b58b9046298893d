package dev.everett.integration;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGKILL at random moments (writes in flight in two writer threads, flushes, compactions),
 * then reopen and check against the oracle. RocksDB goes through the same harness first: it must
 * pass, which shows the harness asks nothing RocksDB does not promise.
 */
class CrashTest {
    @TempDir
    Path tempDir;

    private static void run(String system, CrashMode mode, int kills, Path work) throws Exception {
        long seed = Systems.seeds(1)[0];
        CrashHarness h = new CrashHarness(system, mode, seed, 2, work);
        for (int i = 0; i < kills; i++) {
            h.round(h.nextDelay());
        }
        assertTrue(h.writesVerified > 0, system + " " + mode + " seed " + seed + ": no write survived " + kills + " kills");
        CrashFigures.add(system + " " + mode, h.kills, h.writesVerified);
    }

    @Test
    void rocksdbSurvivesTheHarness() throws Exception {
        for (CrashMode mode : List.of(CrashMode.SYNC, CrashMode.NOWAL)) {
            run("rocksdb", mode, 2, Files.createDirectories(tempDir.resolve(mode.name())));
        }
    }
}

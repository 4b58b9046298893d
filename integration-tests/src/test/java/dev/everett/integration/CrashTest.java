package dev.everett.integration;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
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

    @org.junit.jupiter.api.AfterAll
    static void printFigures() {
        EquivalenceFigures.print();
    }

    private static void run(String system, CrashMode mode, int kills, Path work) throws Exception {
        long seed = Systems.seeds(1)[0];
        CrashHarness h = new CrashHarness(system, mode, seed, 2, work);
        for (int i = 0; i < kills; i++) {
            h.round(h.nextDelay());
        }
        // The child must have made progress, or the kills tested nothing; with the WAL off a kill
        // before the first flush legitimately leaves nothing.
        assertTrue(h.writesAcknowledged > 0, system + " " + mode + " seed " + seed + ": no write was acknowledged in " + kills + " runs");
        if (mode != CrashMode.NOWAL) {
            assertTrue(h.writesVerified > 0, system + " " + mode + " seed " + seed + ": no write survived " + kills + " kills");
        }
        CrashFigures.add(system + " " + mode, h.kills, h.writesVerified);
    }

    @Test
    void rocksdbSurvivesTheHarness() throws Exception {
        for (CrashMode mode : List.of(CrashMode.SYNC, CrashMode.NOWAL)) {
            run("rocksdb", mode, 2, Files.createDirectories(tempDir.resolve(mode.name())));
        }
    }

    /** Synced writes: every acknowledged write survives each kill. 3 kills per configuration. */
    @Test
    void everettWithSyncedWritesLosesNothingAcknowledged() throws Exception {
        everett(CrashMode.SYNC, 3);
    }

    /** WAL on, unsynced: a process kill (the OS survives) still loses nothing acknowledged, as RocksDB promises. */
    @Test
    void everettWithUnsyncedWritesLosesNothingAcknowledgedOnAProcessKill() throws Exception {
        everett(CrashMode.UNSYNCED, 1);
    }

    /** WAL off: what survives is a prefix of each writer's writes, at least what finished flushes covered. */
    @Test
    void everettWithTheWalDisabledRecoversAPrefix() throws Exception {
        Assumptions.assumeTrue(StoreFeatures.flushWritesSegments(tempDir),
                "EverettDB.flush() does not write the memtable to segments yet, so nothing written with the WAL disabled can survive a kill");
        everett(CrashMode.NOWAL, 1);
    }

    private void everett(CrashMode mode, int killsPerConfig) throws Exception {
        for (EverettKv.Config c : EverettKv.configs()) {
            run(c.name(), mode, killsPerConfig * Math.max(1, Systems.soak()),
                    Files.createDirectories(tempDir.resolve(c.name().replace('/', '-') + "-" + mode)));
        }
    }
}

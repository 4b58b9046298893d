package dev.everett.integration;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGKILL at random moments (writes in flight in two writer threads, flushes, compactions) and
 * at aimed ones ({@link KillPoint}), then reopen and check against the oracle. RocksDB goes through the same harness first: it must
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

    /**
     * Kills aimed at the moments the store is most exposed ({@link KillPoint}): with synced writes
     * every point in every configuration; unsynced and with the WAL off, one point per
     * configuration in turn (the log point only where there is a log). Each kill must happen at
     * its point, and the checks after it are the random kills' checks.
     */
    @Test
    void everettKilledAtAimedPointsLosesNothing() throws Exception {
        Map<String, Integer> byPoint = new TreeMap<>();
        List<KillPoint> walOff = List.of(KillPoint.FLUSH_SEGMENT_MID, KillPoint.FLUSH_BEFORE_MANIFEST,
                KillPoint.COMPACTION_OUTPUTS_WRITTEN, KillPoint.MANIFEST_ROLLOVER_MID);
        List<EverettKv.Config> configs = EverettKv.configs();
        for (int i = 0; i < configs.size(); i++) {
            EverettKv.Config c = configs.get(i);
            List<KillPoint> points = new ArrayList<>();
            for (int s = 0; s < Math.max(1, Systems.soak()); s++) {
                points.addAll(List.of(KillPoint.values()));
            }
            aimed(c, CrashMode.SYNC, points, byPoint);
            aimed(c, CrashMode.UNSYNCED, List.of(KillPoint.values()[i % KillPoint.values().length]), byPoint);
            aimed(c, CrashMode.NOWAL, List.of(walOff.get(i % walOff.size())), byPoint);
        }
        for (KillPoint p : KillPoint.values()) {
            assertTrue(byPoint.getOrDefault(p.label, 0) >= configs.size(), "aimed kills at " + p.label + ": " + byPoint);
        }
        EquivalenceFigures.record("crash aimed kills", byPoint.values().stream().mapToInt(Integer::intValue).sum()
                + " kills survived at their points " + byPoint);
    }

    private void aimed(EverettKv.Config c, CrashMode mode, List<KillPoint> points, Map<String, Integer> byPoint) throws Exception {
        long seed = Systems.seeds(1)[0];
        CrashHarness h = new CrashHarness(c.name(), mode, seed, 2,
                Files.createDirectories(tempDir.resolve(c.name().replace('/', '-') + "-" + mode + "-aimed")));
        for (KillPoint p : points) {
            h.aimedRound(p);
        }
        h.aimed.forEach((k, n) -> byPoint.merge(k, n, Integer::sum));
        CrashFigures.add(c.name() + " " + mode + " aimed", h.kills, h.writesVerified);
    }

    private void everett(CrashMode mode, int killsPerConfig) throws Exception {
        for (EverettKv.Config c : EverettKv.configs()) {
            run(c.name(), mode, killsPerConfig * Math.max(1, Systems.soak()),
                    Files.createDirectories(tempDir.resolve(c.name().replace('/', '-') + "-" + mode)));
        }
    }
}

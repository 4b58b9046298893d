package dev.everett.integration;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The harness itself, checked against RocksDB: the in-memory model (RocksDB's defined semantics)
 * must agree with RocksDB on every generated sequence (so the generator stays inside what RocksDB
 * defines and the runner compares what it should), and a system with a planted bug must be
 * caught and shrunk to a handful of ops.
 */
class EquivalenceTest {
    @TempDir
    Path tempDir;

    @org.junit.jupiter.api.AfterAll
    static void printFigures() {
        EquivalenceFigures.print();
    }

    @ParameterizedTest
    @EnumSource(OpGenerator.KeySpace.class)
    void theModelAgreesWithRocksdb(OpGenerator.KeySpace space) throws Exception {
        int ops = 6_000 * Math.max(1, Systems.soak());
        Equivalence.Counts counts = new Equivalence.Counts();
        for (long seed : Systems.seeds(2)) {
            List<Op> sequence = new OpGenerator(seed, space, OpGenerator.Mix.standard(), 1 << 20).generate(ops);
            assertNull(OpValidity.check(sequence), "the generator left RocksDB's defined behaviour");
            Replay.check("model " + space, seed, sequence, Systems.ROCKSDB, Systems.MODEL, tempDir, counts);
        }
        EquivalenceFigures.add("rocksdb vs model", counts);
    }

    /** A model that reads the latest value whatever the snapshot: the harness must catch it. */
    private static final Equivalence.Factory SNAPSHOT_BLIND = Systems.factory("snapshot-blind", dir -> new ModelKv() {
        @Override
        public byte[] get(Object snapshot, byte[] key) {
            return super.get(null, key);
        }
    });

    @Test
    void aPlantedSnapshotBugIsCaughtAndShrunk() throws Exception {
        long seed = Systems.seeds(1)[0];
        List<Op> sequence = new OpGenerator(seed, OpGenerator.KeySpace.DENSE, OpGenerator.Mix.standard(), 4096).generate(3_000);
        Equivalence.Divergence d = Equivalence.run(sequence, Systems.ROCKSDB, SNAPSHOT_BLIND, tempDir, new Equivalence.Counts());
        assertNotNull(d, "seed " + seed + ": a snapshot-blind get went unnoticed");
        List<Op> shrunk = Equivalence.shrink(sequence.subList(0, d.opIndex() + 1), Systems.ROCKSDB, SNAPSHOT_BLIND, tempDir, 400);
        assertNotNull(Equivalence.run(shrunk, Systems.ROCKSDB, SNAPSHOT_BLIND, tempDir, new Equivalence.Counts()), "the shrunk sequence no longer diverges");
        // Put, snapshot, overwrite or delete, read at the snapshot: four ops are enough.
        assertTrue(shrunk.size() <= 6, "seed " + seed + ": shrunk only to " + shrunk.size() + " ops:\n" + OpPrinter.test("t", "x", shrunk));
        assertNull(OpValidity.check(shrunk));
    }
}

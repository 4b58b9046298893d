package dev.everett.integration;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * EverettDB against RocksDB on the same seeded sequences, in every configuration the store offers
 * and every key space: 12,500 ops per case (two seeds of 6,250), 200,000 in all per CI run (4
 * configurations × 4 key spaces); {@code
 * -Deverett.soak=N} multiplies the ops per seed by N. A divergence fails with the seed, the op
 * index, both answers and the shrunk sequence as a test to paste into {@link ReproductionsTest}.
 */
class EverettEquivalenceTest {
    static final int OPS_PER_SEED = 6_250;

    @TempDir
    Path tempDir;

    @org.junit.jupiter.api.AfterAll
    static void printFigures() {
        EquivalenceFigures.print();
    }

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (Equivalence.Factory f : EverettKv.configurations()) {
            for (OpGenerator.KeySpace space : OpGenerator.KeySpace.values()) {
                out.add(Arguments.of(f, space));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void everettAnswersAsRocksdbDoes(Equivalence.Factory everett, OpGenerator.KeySpace space) throws Exception {
        int ops = OPS_PER_SEED * Math.max(1, Systems.soak());
        Equivalence.Counts counts = new Equivalence.Counts();
        for (long seed : Systems.seeds(2)) {
            List<Op> sequence = new OpGenerator(seed, space, OpGenerator.Mix.standard(), 1 << 20).generate(ops);
            Replay.check(everett.name() + " " + space, seed, sequence, Systems.ROCKSDB, everett, tempDir, counts);
        }
        EquivalenceFigures.add("rocksdb vs everett", counts);
    }
}

package dev.everett.integration;

import java.nio.file.Path;
import java.util.List;
import org.opentest4j.AssertionFailedError;

/** Runs a sequence on RocksDB and a named system; fails with the divergence, shrunk and printed as a test. */
final class Replay {
    private Replay() {}

    /** For pasted reproductions: RocksDB against {@code system}, failing on any divergence. */
    static void assertEquivalent(String system, List<Op> ops, Path work) throws Exception {
        String invalid = OpValidity.check(ops);
        if (invalid != null) {
            throw new IllegalArgumentException("the sequence leaves RocksDB's defined behaviour: " + invalid);
        }
        Equivalence.Divergence d = Equivalence.run(ops, Systems.ROCKSDB, Systems.named(system), work, new Equivalence.Counts());
        if (d != null) {
            throw new AssertionFailedError(system + " diverges from RocksDB at " + d);
        }
    }

    /**
     * Runs a generated sequence; on a divergence shrinks it and throws a failure carrying the seed,
     * the op index, both answers and the shrunk sequence as a ready-to-paste test.
     */
    static void check(String label, long seed, List<Op> ops, Equivalence.Factory left, Equivalence.Factory right,
                      Path work, Equivalence.Counts counts) throws Exception {
        Equivalence.Divergence d = Equivalence.run(ops, left, right, work, counts);
        if (d == null) {
            return;
        }
        List<Op> shrunk = Equivalence.shrink(ops.subList(0, d.opIndex() + 1), left, right, work, 400);
        Equivalence.Divergence again = Equivalence.run(shrunk, left, right, work, new Equivalence.Counts());
        String name = "divergence" + Long.toUnsignedString(seed, 36);
        throw new AssertionFailedError(right.name() + " diverges from " + left.name() + " (" + label + ", seed " + seed
                + ", replay with " + Systems.replayHint(seed) + ")\nat " + d
                + "\nshrunk to " + shrunk.size() + " ops" + (again != null ? ", diverging at " + again : "")
                + "; as a test (paste into ReproductionsTest):\n" + OpPrinter.test(name, right.name(), shrunk));
    }
}

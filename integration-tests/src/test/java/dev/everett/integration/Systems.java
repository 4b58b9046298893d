package dev.everett.integration;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/** The systems the harnesses compare, by name, and the seeds they run with. */
final class Systems {
    private Systems() {}

    static final Equivalence.Factory ROCKSDB = factory("rocksdb", RocksKv::inMemory);
    static final Equivalence.Factory MODEL = factory("model", dir -> new ModelKv());

    interface Opener {
        Kv open(Path dir) throws Exception;
    }

    static Equivalence.Factory factory(String name, Opener opener) {
        return new Equivalence.Factory() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public Kv open(Path dir) throws Exception {
                return opener.open(dir);
            }

            @Override
            public String toString() {
                return name;
            }
        };
    }

    /** Every system by name: "rocksdb", "model", and one per EverettDB configuration. */
    static Equivalence.Factory named(String name) {
        for (Equivalence.Factory f : all()) {
            if (f.name().equals(name)) {
                return f;
            }
        }
        throw new IllegalArgumentException("no system named \"" + name + "\"; known: " + all().stream().map(Equivalence.Factory::name).toList());
    }

    static List<Equivalence.Factory> all() {
        List<Equivalence.Factory> out = new ArrayList<>(List.of(ROCKSDB, MODEL));
        out.addAll(EverettKv.configurations());
        return out;
    }

    /** Opens {@code system} ("rocksdb" or an EverettDB configuration) with the write options of {@code mode}. */
    static Kv openDurable(String system, Path dir, CrashMode mode) throws Exception {
        if (system.equals("rocksdb")) {
            return RocksKv.open(dir, mode.sync, mode.disableWal);
        }
        EverettKv.Config config = EverettKv.config(system);
        if (config != null) {
            return new EverettKv(dir, config, new dev.everett.store.WriteOptions().setSync(mode.sync).setDisableWAL(mode.disableWal));
        }
        throw new IllegalArgumentException("no durable system named \"" + system + "\"");
    }

    static final String SEED_PROPERTY = "everett.seed";
    static final String SOAK_PROPERTY = "everett.soak";

    /**
     * {@code n} seeds: the one in {@code -Deverett.seed} (then {@code n} is 1, to replay exactly),
     * else fresh ones.
     */
    static long[] seeds(int n) {
        String fixed = System.getProperty(SEED_PROPERTY, "").strip();
        if (!fixed.isEmpty()) {
            try {
                return new long[] {Long.parseLong(fixed)};
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("-D" + SEED_PROPERTY + " must be a decimal long, got \"" + fixed + "\"", e);
            }
        }
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            out[i] = ThreadLocalRandom.current().nextLong();
        }
        return out;
    }

    /** The soak multiplier from {@code -Deverett.soak=N} (0 when unset: the CI run). */
    static int soak() {
        String s = System.getProperty(SOAK_PROPERTY, "").strip();
        if (s.isEmpty()) {
            return 0;
        }
        try {
            int n = Integer.parseInt(s);
            if (n < 1) {
                throw new IllegalArgumentException("-D" + SOAK_PROPERTY + " must be a positive multiplier, got " + n);
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("-D" + SOAK_PROPERTY + " must be a positive integer, got \"" + s + "\"", e);
        }
    }

    static String replayHint(long seed) {
        return "-D" + SEED_PROPERTY + "=" + seed;
    }
}

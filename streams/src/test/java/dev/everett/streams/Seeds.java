package dev.everett.streams;

import java.util.concurrent.ThreadLocalRandom;

/** Seeds for model tests: {@code -Deverett.seed=N} replays one; otherwise a fresh one is drawn. */
final class Seeds {
    private Seeds() {
    }

    static long seed() {
        String fixed = System.getProperty("everett.seed", "");
        return fixed.isBlank() ? ThreadLocalRandom.current().nextLong() : Long.parseLong(fixed.trim());
    }

    static String replay(long seed) {
        return "seed " + seed + " (replay with -Deverett.seed=" + seed + ")";
    }
}

package dev.everett.store;

/** The seed of a seeded test: {@code -Deverett.seed=N} replays one, otherwise a fresh one is drawn. */
final class Seeds {

    private Seeds() {
    }

    static long seed() {
        String s = System.getProperty("everett.seed", "");
        return s.isBlank() ? System.nanoTime() ^ Thread.currentThread().threadId() * 0x9E3779B97F4A7C15L : Long.parseLong(s.trim());
    }

    /** Runs {@code body}; a failure is rethrown naming the seed and how to replay it. */
    static void run(String test, long seed, ThrowingRunnable body) throws Exception {
        try {
            body.run();
        } catch (Throwable t) {
            AssertionError e = new AssertionError(test + " failed with seed " + seed + " (replay with -Deverett.seed=" + seed + "): " + t, t);
            throw e;
        }
    }

    interface ThrowingRunnable {
        void run() throws Exception;
    }
}

package dev.everett.cli;

/** The seed of a seeded test: {@code -Deverett.seed=} replays one, else a fresh one is drawn. */
final class Seeds {
    private Seeds() {
    }

    static long seed() {
        String s = System.getProperty("everett.seed", "");
        return s.isBlank() ? System.nanoTime() : Long.parseLong(s.trim());
    }
}

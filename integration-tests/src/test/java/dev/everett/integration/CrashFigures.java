package dev.everett.integration;

/** Crash-test totals for the figures line. */
final class CrashFigures {
    private CrashFigures() {}

    private static long kills;
    private static long writes;

    static synchronized void add(String what, int k, long w) {
        kills += k;
        writes += w;
        EquivalenceFigures.record("crash " + what, k + " kills survived, " + w + " writes recovered and checked");
        EquivalenceFigures.record("crash total", kills + " kills survived, " + writes + " writes recovered and checked, none lost");
    }
}

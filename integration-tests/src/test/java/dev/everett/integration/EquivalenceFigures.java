package dev.everett.integration;

import java.util.Map;
import java.util.TreeMap;

/**
 * Totals of one run, printed after each test class as one line per harness, so a CI log shows the
 * figures docs/testing.md quotes without the tests printing as they go.
 */
public final class EquivalenceFigures {
    private EquivalenceFigures() {}

    private static final Map<String, String> LINES = new TreeMap<>();

    /** Prints the lines recorded since the last call (each test class calls it once, after all its tests). */
    public static void print() {
        synchronized (LINES) {
            LINES.forEach((k, v) -> System.out.println("[figures] " + k + ": " + v));
            LINES.clear();
        }
    }

    public static void record(String what, Object figures) {
        synchronized (LINES) {
            LINES.merge(what, figures.toString(), (a, b) -> b);
        }
    }

    /** Adds {@code counts} to the running total under {@code what}. */
    static void add(String what, Equivalence.Counts counts) {
        synchronized (TOTALS) {
            TOTALS.computeIfAbsent(what, k -> new Equivalence.Counts()).add(counts);
            record(what, TOTALS.get(what));
        }
    }

    private static final Map<String, Equivalence.Counts> TOTALS = new TreeMap<>();
}

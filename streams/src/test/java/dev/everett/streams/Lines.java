package dev.everett.streams;

import java.util.List;
import org.opentest4j.AssertionFailedError;

/** Compares long lists of lines and reports the first difference only (not both lists). */
final class Lines {
    private Lines() {
    }

    static void assertSameLines(List<String> expected, List<String> actual, String what) {
        int common = Math.min(expected.size(), actual.size());
        for (int i = 0; i < common; i++) {
            if (!expected.get(i).equals(actual.get(i))) {
                throw new AssertionFailedError(what + ": line " + i + " differs: expected <" + clip(expected.get(i))
                        + "> but was <" + clip(actual.get(i)) + ">");
            }
        }
        if (expected.size() != actual.size()) {
            throw new AssertionFailedError(what + ": expected " + expected.size() + " lines but got " + actual.size()
                    + (expected.size() > common ? "; first missing <" + clip(expected.get(common)) + ">"
                            : "; first extra <" + clip(actual.get(common)) + ">"));
        }
    }

    private static String clip(String line) {
        return line.length() <= 300 ? line : line.substring(0, 300) + "...(" + line.length() + " chars)";
    }
}

package dev.everett.api;

import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

/**
 * How a file being written is named until it is published under its final name (temporary file,
 * force, atomic rename): {@code .<final name>.tmp-<random hex>}, beside the target. A process that
 * dies mid-write leaves such a file behind and nothing ever publishes it, so a host sweeping its
 * directories after a crash recognises the leftovers by this name alone. The segment engine names
 * every file it writes this way; this is the one place that decides the name.
 */
public final class TemporaryFiles {
    /** Between the final name and the random part. */
    private static final String MARK = ".tmp-";

    private TemporaryFiles() {
    }

    /** A fresh temporary name beside {@code target} (in its directory). */
    public static Path beside(Path target) {
        return target.resolveSibling("." + target.getFileName() + MARK + Long.toHexString(ThreadLocalRandom.current().nextLong()));
    }

    /** True if {@code file}'s name is one {@link #beside} gives for {@code target}. */
    public static boolean isTemporaryOf(Path file, Path target) {
        Path name = file.getFileName();
        return name != null && name.toString().startsWith("." + target.getFileName() + MARK) && isTemporary(file);
    }

    /** True if {@code file}'s name is one {@link #beside} gives. */
    public static boolean isTemporary(Path file) {
        Path name = file.getFileName();
        if (name == null) {
            return false;
        }
        String n = name.toString();
        int mark = n.lastIndexOf(MARK);
        return n.startsWith(".") && mark > 1 && mark + MARK.length() < n.length()
                && n.substring(mark + MARK.length()).chars().allMatch(c -> Character.digit(c, 16) >= 0);
    }
}

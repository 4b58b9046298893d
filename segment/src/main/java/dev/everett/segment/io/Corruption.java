package dev.everett.segment.io;

import dev.everett.api.CorruptSegmentException;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * Raises {@link CorruptSegmentException} for one file; readers keep one per open file. A rule
 * whose text names values found in the file is passed as a {@link Supplier}, so that the text is
 * built only when the check fails: an open runs dozens of checks per file (envelope, directory,
 * catalog bindings), and building their messages, hexadecimal identities and all, took about 4% of
 * what a 4 MiB compaction's finish spends, in code that runs once per output and so stays cold
 * (docs/benchmarks/compaction.md, "Per-output work").
 */
public record Corruption(Path file) {
    public CorruptSegmentException at(long offset, String rule) {
        return new CorruptSegmentException(file, offset, rule);
    }

    public void require(boolean ok, long offset, String rule) {
        if (!ok) {
            throw at(offset, rule);
        }
    }

    /** As {@link #require(boolean, long, String)}, the rule's text made only if {@code ok} is false. */
    public void require(boolean ok, long offset, Supplier<String> rule) {
        if (!ok) {
            throw at(offset, rule.get());
        }
    }
}

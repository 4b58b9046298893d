package dev.everett.segment.io;

import dev.everett.api.CorruptSegmentException;
import java.nio.file.Path;

/** Raises {@link CorruptSegmentException} for one file; readers keep one per open file. */
public record Corruption(Path file) {
    public CorruptSegmentException at(long offset, String rule) {
        return new CorruptSegmentException(file, offset, rule);
    }

    public void require(boolean ok, long offset, String rule) {
        if (!ok) {
            throw at(offset, rule);
        }
    }
}

package dev.everett.segment;

import dev.everett.api.CorruptSegmentException;
import java.nio.file.Path;

/** Raises {@link CorruptSegmentException} for one file; readers keep one per open file. */
record Corruption(Path file) {
    CorruptSegmentException at(long offset, String rule) {
        return new CorruptSegmentException(file, offset, rule);
    }

    void require(boolean ok, long offset, String rule) {
        if (!ok) {
            throw at(offset, rule);
        }
    }
}

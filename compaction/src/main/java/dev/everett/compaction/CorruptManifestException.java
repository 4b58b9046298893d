package dev.everett.compaction;

import dev.everett.api.CorruptSegmentException;
import java.nio.file.Path;

/**
 * A manifest record is damaged (checksum, framing, an edit that cannot apply), so the tree cannot
 * be opened. The message names the manifest file, the byte offset of the record and the rule
 * broken. A torn tail (an incomplete last record after a crash) is not an error: replay stops at
 * the last complete edit.
 */
public class CorruptManifestException extends CorruptSegmentException {
    private static final long serialVersionUID = 1L;

    public CorruptManifestException(Path file, long offset, String rule) {
        super(file, offset, rule);
    }
}

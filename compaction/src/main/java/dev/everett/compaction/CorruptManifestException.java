package dev.everett.compaction;

import dev.everett.api.CorruptSegmentException;
import java.nio.file.Path;

/**
 * A manifest record is damaged (checksum or framing with an intact record after it, an edit that
 * cannot apply), or {@code CURRENT} is (its checksum, its form, the manifest it names missing), so
 * the tree cannot be opened. The message names the file, the byte offset and the rule broken. A
 * torn tail (a last record failing its check with nothing intact after it, the append in flight
 * at a crash) is not an error: replay stops at the last complete edit and reports the drop.
 */
public class CorruptManifestException extends CorruptSegmentException {
    private static final long serialVersionUID = 1L;

    public CorruptManifestException(Path file, long offset, String rule) {
        super(file, offset, rule);
    }
}

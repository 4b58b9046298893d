package dev.everett.compaction;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A host's check of the state a manifest replay recovered, run by
 * {@link LsmTree#open(Path, TreeOptions, RecoveryCheck)} before the tree writes anything (the
 * rollover to a fresh manifest, deleting what no edit names). A host that can tell the recovered
 * state lost edits (its own files, such as logs, show that later edits were made and acted on)
 * throws, and then every file of the tree stays as it was.
 */
@FunctionalInterface
public interface RecoveryCheck {
    /** Accepts everything. */
    RecoveryCheck NONE = (manifest, hostState, tornTail) -> { };

    /**
     * @param manifest  the manifest replayed ({@code CURRENT} of the tree if there was none yet)
     * @param hostState the host state of the last edit replayed (empty if none recorded one)
     * @param tornTail  whether replay dropped an incomplete or unverifiable last record
     * @throws IOException (or an unchecked exception) to refuse the tree
     */
    void check(Path manifest, byte[] hostState, boolean tornTail) throws IOException;
}

package dev.everett.api;

/**
 * What a merge does with tombstones.
 *
 * <ul>
 *   <li>{@link #KEEP} (the default, as Everett does): a tombstone is an ordinary record and is
 *       written out, so it keeps hiding older values in runs below the output.</li>
 *   <li>{@link #DROP}: the host asserts that no older data for these keys exists below the
 *       output (a bottommost output, or no older overlapping run). A key whose merged record is
 *       a tombstone is left out entirely, together with every value it hides.</li>
 * </ul>
 */
public enum TombstonePolicy {
    KEEP,
    DROP
}

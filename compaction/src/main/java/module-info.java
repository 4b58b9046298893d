/**
 * The flush and compaction pipeline a host LSM store hands its memtables and runs to: flushes
 * and compactions split into Everett segments with metadata, level layouts (partitioned and
 * whole-run) with replaceable pickers, immutable versions kept in a checksummed manifest, and
 * reads over a version. Coded against {@code dev.everett.api} alone; the segment and merge
 * engines are found at run time through {@link java.util.ServiceLoader}.
 */
module dev.everett.compaction {
    requires transitive dev.everett.api;

    exports dev.everett.compaction;
}

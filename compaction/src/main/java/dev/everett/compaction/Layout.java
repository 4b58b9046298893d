package dev.everett.compaction;

/** How a tree arranges its segments into levels. */
public enum Layout {
    /**
     * RocksDB-style levels. Level 0 holds flushed segments, newest first, whose key ranges may
     * overlap; every level below is a list of key-disjoint segments in key order, each of about
     * the target file size. A point lookup asks every level-0 segment whose range holds the key,
     * then the one candidate segment of each level below (found by key range), each through its
     * own index. A compaction merges a segment with the segments it overlaps one level down.
     */
    PARTITIONED,
    /**
     * Everett's own shape: each level is a single run (one segment), newest on top, and all runs
     * together form one IX03 cascade, so a point lookup is one descent across every level. A
     * flush pushes a new run on top; a compaction merges adjacent runs into one. When a merge
     * replaces runs, the indexes of the runs above them are rebuilt over the new run, since each
     * index samples the catalog below it (a cost of about one pass over the keys of every run
     * above plus a K-th of everything below each: see docs/spi.md).
     */
    WHOLE_RUN
}

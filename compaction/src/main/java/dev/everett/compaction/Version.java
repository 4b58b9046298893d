package dev.everett.compaction;

import dev.everett.api.KeyRange;
import dev.everett.api.Lookup;
import java.util.List;

/**
 * An immutable set of segments arranged in levels, as one manifest edit left it. A version
 * obtained from {@link LsmTree#current()} or {@link #retain()} is a reference: its segments'
 * files are not deleted until it (and every cursor opened from it) is closed. Lookups are safe
 * from several threads; cursors are for one thread each.
 *
 * <p>Levels: for {@link Layout#PARTITIONED}, level 0 lists flushed segments newest first and
 * every level below lists key-disjoint segments in key order; for {@link Layout#WHOLE_RUN},
 * level {@code i} is the {@code i}-th run from the top (level 0 the newest), one segment each.
 */
public interface Version extends AutoCloseable {
    /** The manifest edit number that produced this version (increasing). */
    long number();

    Layout layout();

    /**
     * Levels down to the deepest one that holds a segment (partitioned levels above it may be
     * empty); {@link #level} of any level at or beyond this count is empty.
     */
    int levelCount();

    /** The segments of {@code level}, in the order described above. */
    List<SegmentMeta> level(int level);

    /** Bytes of every file of every segment at {@code level}. */
    long levelBytes(int level);

    /** The host's opaque state as the latest edit that carried one set it (empty if none did). */
    byte[] hostState();

    /**
     * The newest record for {@code key} across every level: a value, a tombstone (which hides
     * everything older) or absent. A value is a view of a mapped file, valid while this version
     * is held.
     */
    Lookup get(byte[] key);

    /** A merged cursor over the keys in {@code range}; it holds this version until closed. */
    TreeCursor cursor(KeyRange range);

    /** A merged cursor over every key. */
    default TreeCursor cursor() {
        return cursor(KeyRange.all());
    }

    /** Another reference to this version, to be closed on its own. */
    Version retain();

    /** Releases this reference; closing twice does nothing. */
    @Override
    void close();
}

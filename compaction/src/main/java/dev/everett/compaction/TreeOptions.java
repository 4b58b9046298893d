package dev.everett.compaction;

import dev.everett.api.FilterPolicy;
import dev.everett.api.ObjectStoreOptions;
import dev.everett.api.Policy;
import dev.everett.api.ValueMerger;
import java.util.List;
import java.util.Objects;

/**
 * How a {@link LsmTree} is laid out and compacted. Build from {@link #partitioned()} or
 * {@link #wholeRun()} and adjust with the {@code with} methods.
 *
 * @param policy          the segment policy every file is written and read under (fixed for a tree)
 * @param layout          partitioned levels or whole-run levels
 * @param picker          chooses compactions; its layout must be {@code layout}
 * @param targetFileBytes partitioned trees split flush and compaction outputs at key boundaries
 *                        once a segment holds about this many bytes (whole-run trees never split)
 * @param store           how segments are read: key filters per segment ({@link FilterPolicy}; lookups
 *                        skip every segment whose filter rules the key out) and the routing cache
 * @param levelFilters    partitioned trees: the key filters of each level's segments, level 0 first,
 *                        the last entry for every level below it; empty (the default) for
 *                        {@code store}'s filters at every level. Whole-run trees take none (a run
 *                        moves down a level at every flush above it): use {@link #withFilters}.
 * @param values          how a compaction combines the values of one key, older first
 * @param files           the file-system seam for the manifest, directories and deletions
 */
public record TreeOptions(Policy policy, Layout layout, CompactionPicker picker, long targetFileBytes,
                          ObjectStoreOptions store, List<FilterPolicy> levelFilters, ValueMerger values, StorageFiles files) {
    public TreeOptions {
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(layout, "layout");
        Objects.requireNonNull(picker, "picker");
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(values, "values");
        Objects.requireNonNull(files, "files");
        levelFilters = List.copyOf(levelFilters);
        if (layout == Layout.WHOLE_RUN && !levelFilters.isEmpty()) {
            throw new IllegalArgumentException("a whole-run tree's runs change level at every flush, so its filters cannot be chosen per level:"
                    + " use withFilters for every run");
        }
        if (picker.layout() != layout) {
            throw new IllegalArgumentException("picker plans " + picker.layout() + " trees but the layout is " + layout);
        }
        if (targetFileBytes < 1) {
            throw new IllegalArgumentException("target file bytes must be at least 1, got " + targetFileBytes);
        }
    }

    /** Partitioned levels under Everett's default byte policy, RocksDB's leveled defaults, 64 MiB files, no filters. */
    public static TreeOptions partitioned() {
        return new TreeOptions(Policy.defaultBytes(), Layout.PARTITIONED, LeveledPicker.defaults(), 64L << 20,
                ObjectStoreOptions.defaults(), List.of(), ValueMerger.NEWER_WINS, StorageFiles.system());
    }

    /** Whole-run levels under Everett's default byte policy, a geometric picker of ratio 4, no filters. */
    public static TreeOptions wholeRun() {
        return new TreeOptions(Policy.defaultBytes(), Layout.WHOLE_RUN, new GeometricPicker(4), Long.MAX_VALUE,
                ObjectStoreOptions.defaults(), List.of(), ValueMerger.NEWER_WINS, StorageFiles.system());
    }

    public TreeOptions withPolicy(Policy p) {
        return new TreeOptions(p, layout, picker, targetFileBytes, store, levelFilters, values, files);
    }

    public TreeOptions withPicker(CompactionPicker p) {
        return new TreeOptions(policy, layout, p, targetFileBytes, store, levelFilters, values, files);
    }

    public TreeOptions withTargetFileBytes(long bytes) {
        return new TreeOptions(policy, layout, picker, bytes, store, levelFilters, values, files);
    }

    public TreeOptions withStore(ObjectStoreOptions o) {
        return new TreeOptions(policy, layout, picker, targetFileBytes, o, levelFilters, values, files);
    }

    /** Key filters on every segment ({@code FilterPolicy.bloom(10)} is about 1% false positives). */
    public TreeOptions withFilters(FilterPolicy f) {
        return withStore(store.withFilters(f));
    }

    /**
     * Partitioned trees: key filters chosen per level, level 0 first, the last for every level
     * below. Filters help lookups that miss; at the bottom level, which holds most of the keys,
     * a lookup that reaches it usually finds its key, so leaving that level unfiltered (as
     * RocksDB's {@code optimize_filters_for_hits}) saves most of the filter memory and bytes:
     * with a leveled picker of 7 levels, {@code withLevelFilters(bloom(10), bloom(10), bloom(10),
     * bloom(10), bloom(10), bloom(10), none())}. No arguments: {@link #store}'s filters everywhere.
     */
    public TreeOptions withLevelFilters(FilterPolicy... perLevel) {
        return new TreeOptions(policy, layout, picker, targetFileBytes, store, List.of(perLevel), values, files);
    }

    /** The key filters written (and read) for segments at {@code level}. */
    public FilterPolicy filtersAt(int level) {
        if (level < 0) {
            throw new IllegalArgumentException("level must be 0 or more, got " + level);
        }
        return levelFilters.isEmpty() ? store.filters() : levelFilters.get(Math.min(level, levelFilters.size() - 1));
    }

    public TreeOptions withValues(ValueMerger v) {
        return new TreeOptions(policy, layout, picker, targetFileBytes, store, levelFilters, v, files);
    }

    public TreeOptions withFiles(StorageFiles f) {
        return new TreeOptions(policy, layout, picker, targetFileBytes, store, levelFilters, values, f);
    }
}

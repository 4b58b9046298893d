package dev.everett.compaction;

import dev.everett.api.FilterPolicy;
import dev.everett.api.ObjectStoreOptions;
import dev.everett.api.Policy;
import dev.everett.api.ValueMerger;
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
 * @param values          how a compaction combines the values of one key, older first
 * @param files           the file-system seam for the manifest, directories and deletions
 */
public record TreeOptions(Policy policy, Layout layout, CompactionPicker picker, long targetFileBytes,
                          ObjectStoreOptions store, ValueMerger values, StorageFiles files) {
    public TreeOptions {
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(layout, "layout");
        Objects.requireNonNull(picker, "picker");
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(values, "values");
        Objects.requireNonNull(files, "files");
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
                ObjectStoreOptions.defaults(), ValueMerger.NEWER_WINS, StorageFiles.system());
    }

    /** Whole-run levels under Everett's default byte policy, a geometric picker of ratio 4, no filters. */
    public static TreeOptions wholeRun() {
        return new TreeOptions(Policy.defaultBytes(), Layout.WHOLE_RUN, new GeometricPicker(4), Long.MAX_VALUE,
                ObjectStoreOptions.defaults(), ValueMerger.NEWER_WINS, StorageFiles.system());
    }

    public TreeOptions withPolicy(Policy p) {
        return new TreeOptions(p, layout, picker, targetFileBytes, store, values, files);
    }

    public TreeOptions withPicker(CompactionPicker p) {
        return new TreeOptions(policy, layout, p, targetFileBytes, store, values, files);
    }

    public TreeOptions withTargetFileBytes(long bytes) {
        return new TreeOptions(policy, layout, picker, bytes, store, values, files);
    }

    public TreeOptions withStore(ObjectStoreOptions o) {
        return new TreeOptions(policy, layout, picker, targetFileBytes, o, values, files);
    }

    /** Key filters on every segment ({@code FilterPolicy.bloom(10)} is about 1% false positives). */
    public TreeOptions withFilters(FilterPolicy f) {
        return withStore(store.withFilters(f));
    }

    public TreeOptions withValues(ValueMerger v) {
        return new TreeOptions(policy, layout, picker, targetFileBytes, store, v, files);
    }

    public TreeOptions withFiles(StorageFiles f) {
        return new TreeOptions(policy, layout, picker, targetFileBytes, store, values, f);
    }
}

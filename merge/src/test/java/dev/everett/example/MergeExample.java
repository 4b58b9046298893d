package dev.everett.example;

import dev.everett.api.CommonWidthRule;
import dev.everett.api.Lookup;
import dev.everett.api.MergeEngine;
import dev.everett.api.MergeJob;
import dev.everett.api.ObjectId;
import dev.everett.api.ObjectStore;
import dev.everett.api.Policy;
import dev.everett.api.SegmentEngine;
import dev.everett.api.SegmentReader;
import dev.everett.api.SegmentWriter;
import dev.everett.api.IndexedSegment;
import dev.everett.api.TombstonePolicy;
import dev.everett.api.ValueMerger;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The merge example of docs/spi.md ("Compaction: merging runs"), compiled and run by
 * MergeExampleTest: a host writes three runs into a store, opens them as readers and merges them
 * through the SPI alone ({@link MergeEngine#load()}), then indexes and reads the result.
 */
public final class MergeExample {
    private MergeExample() {
    }

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static ObjectId run(ObjectStore store, String... kv) throws IOException {
        ObjectId id = ObjectId.random();
        try (SegmentWriter w = store.newSegment(id, CommonWidthRule.policy())) {
            for (int i = 0; i < kv.length; i += 2) {
                if (kv[i + 1] == null) {
                    w.delete(b(kv[i]));
                } else {
                    w.put(b(kv[i]), b(kv[i + 1]));
                }
            }
            w.finish();
        }
        return id;
    }

    /** Returns what the example printed. */
    public static String run(Path root) throws IOException {
        StringBuilder out = new StringBuilder();
        Policy policy = Policy.defaultBytes();
        try (ObjectStore store = SegmentEngine.load().openObjectStore(root, policy)) {
            ObjectId first = run(store, "apple", "red", "banana", "yellow", "cherry", "dark red");
            ObjectId second = run(store, "banana", "green", "cherry", null);
            ObjectId third = run(store, "cherry", "black", "durian", "spiky");
            // The inputs are readers of the store's natives, oldest first.
            SegmentReader oldest = store.openNative(first);
            SegmentReader older = store.openNative(second);
            SegmentReader newest = store.openNative(third);
            ObjectId merged = ObjectId.random();
            try (MergeJob job = MergeEngine.load().merge(List.of(oldest, older, newest))  // readers, oldest first
                    .into(store.nativePath(merged))
                    .values(ValueMerger.NEWER_WINS)                                // or (older, newer) -> ...
                    .tombstones(TombstonePolicy.KEEP)                              // DROP only for a bottommost output
                    .start()) {
                while (!job.done()) {
                    job.step(4096);                                                // bounded work; pause between steps
                }
                out.append("merged ").append(job.finish().recordCount()).append(" records\n");  // publishes atomically
            }
            IndexedSegment segment = store.indexSegment(merged);
            for (String k : new String[] {"apple", "banana", "cherry", "durian"}) {
                Lookup r = segment.get(b(k));
                out.append(k).append(" -> ").append(r.status())
                        .append(r.found() ? " " + new String(r.valueBytes(), StandardCharsets.UTF_8) : "").append('\n');
            }
        }
        return out.toString();
    }

    public static void main(String[] args) throws IOException {
        Path root = args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("everett-merge-example");
        System.out.print(run(root));
    }
}

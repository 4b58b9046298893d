package dev.everett.example;

import dev.everett.api.FilterPolicy;
import dev.everett.api.KeyRange;
import dev.everett.api.Lookup;
import dev.everett.compaction.CompactionJob;
import dev.everett.compaction.CompactionPlan;
import dev.everett.compaction.LeveledPicker;
import dev.everett.compaction.LsmTree;
import dev.everett.compaction.SortedEntries;
import dev.everett.compaction.TreeCursor;
import dev.everett.compaction.TreeOptions;
import dev.everett.compaction.Version;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The minimal host of docs/spi.md ("A host's levels: everett-compaction"): two memtable flushes,
 * the compaction the picker asks for, then reads of the new version, through
 * {@code dev.everett.compaction} and {@code dev.everett.api} only.
 */
public final class CompactionHost {
    private CompactionHost() {
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String s(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    /** Runs the example in {@code dir} and returns what it prints. */
    public static String run(Path dir) throws IOException {
        StringBuilder out = new StringBuilder();
        TreeOptions options = TreeOptions.partitioned()
                .withPicker(new LeveledPicker(4, 2, 64L << 20, 10))   // compact level 0 at 2 segments
                .withTargetFileBytes(64L << 20)                       // split outputs at 64 MiB
                .withFilters(FilterPolicy.bloom(10));                 // a key filter per segment
        try (LsmTree tree = LsmTree.open(dir, options)) {
            // 1. Flush two memtables (sorted maps; a null value is a delete), each with the host's
            //    own position (here a write-ahead log number) recorded in the same manifest edit.
            TreeMap<byte[], byte[]> memtable = new TreeMap<>(Arrays::compareUnsigned);
            memtable.put(b("apple"), b("red"));
            memtable.put(b("banana"), b("yellow"));
            memtable.put(b("cherry"), b("dark red"));
            tree.flush(SortedEntries.of(memtable.entrySet().iterator()), b("wal-1"));
            memtable.clear();
            memtable.put(b("banana"), b("green"));
            memtable.put(b("cherry"), null);
            tree.flush(SortedEntries.of(memtable.entrySet().iterator()), b("wal-2"));

            // 2. Compact what the picker chooses, in bounded steps; finish() installs the edit.
            Optional<CompactionPlan> plan = tree.pickCompaction();
            out.append("plan: ").append(plan.map(CompactionPlan::reason).orElse("none")).append('\n');
            try (CompactionJob job = tree.compact(plan.orElseThrow())) {
                while (!job.done()) {
                    job.step(4096);
                }
                out.append("outputs: ").append(job.finish().size()).append('\n');
            }

            // 3. Read the current version: point gets and a merged cursor (tombstones hidden).
            try (Version v = tree.current()) {
                out.append("levels: L0=").append(v.level(0).size()).append(" L1=").append(v.level(1).size())
                        .append(" host state ").append(s(v.hostState())).append('\n');
                for (String k : new String[] {"apple", "banana", "cherry", "durian"}) {
                    Lookup hit = v.get(b(k));
                    out.append(k).append(" -> ").append(hit.status()).append(hit.found() ? " " + s(hit.valueBytes()) : "").append('\n');
                }
                try (TreeCursor c = v.cursor(new KeyRange(b("b"), null))) {
                    for (c.seekToFirst(); c.valid(); c.next()) {
                        out.append("scan ").append(s(c.keyBytes())).append('\n');
                    }
                    c.seekForPrev(b("c"));
                    out.append("seekForPrev(c) ").append(s(c.keyBytes())).append('\n');
                }
            }
        }
        return out.toString();
    }
}

package dev.everett.example;

import dev.everett.api.CatalogRef;
import dev.everett.api.Chain;
import dev.everett.api.CommonWidthRule;
import dev.everett.api.IndexedSegment;
import dev.everett.api.KeyRange;
import dev.everett.api.Lookup;
import dev.everett.api.ObjectId;
import dev.everett.api.Policy;
import dev.everett.api.SeekCursor;
import dev.everett.api.SegmentEngine;
import dev.everett.api.ObjectStore;
import dev.everett.api.SegmentWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The example of docs/spi.md, compiled and run by SpiExampleTest: a host writes two sorted runs,
 * indexes them into one cascade (the newer run on top), and reads through it.
 */
public final class SpiExample {
    private SpiExample() {
    }

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Returns what the example printed. */
    public static String run(Path root) throws IOException {
        StringBuilder out = new StringBuilder();
        Policy policy = Policy.defaultBytes();                       // byte unit, K = W = 15, optional values
        SegmentEngine engine = SegmentEngine.load();                 // found through ServiceLoader
        try (ObjectStore store = engine.openObjectStore(root, policy)) {
            // 1. Flush: the older run, written as one native segment (keys strictly increasing).
            ObjectId older = ObjectId.random();
            try (SegmentWriter w = store.newSegment(older, CommonWidthRule.policy())) {
                w.put(b("apple"), b("red"));
                w.put(b("banana"), b("yellow"));
                w.put(b("cherry"), b("dark red"));
                w.finish();                                          // temp file, fsync, link in (never over an object), fsync dir
            }
            // 2. A newer run that overwrites one key and deletes another.
            ObjectId newer = ObjectId.random();
            try (SegmentWriter w = store.newSegment(newer, CommonWidthRule.policy())) {
                w.put(b("banana"), b("green"));
                w.delete(b("cherry"));                               // a tombstone
                w.finish();
            }
            // 3. Index the runs into one cascade: each index samples the catalog below it.
            CatalogRef bottom = store.index(older, null, null);
            CatalogRef top = store.index(newer, bottom, null);
            CatalogRef head = store.prepareHead(top, null);          // routing catalogs until the head holds <= K
            Chain chain = store.openChain(head);
            for (String k : new String[] {"apple", "banana", "cherry", "durian"}) {
                Lookup r = chain.get(b(k));
                out.append(k).append(" -> ").append(r.status())
                        .append(r.found() ? " " + new String(r.valueBytes(), StandardCharsets.UTF_8) : "").append('\n');
            }
            chain.verify();                                          // full check of every object in the chain
            // 4. One segment on its own supports seeks and iteration in both directions.
            IndexedSegment segment = store.indexSegment(older);
            try (SeekCursor c = segment.cursor(new KeyRange(b("b"), null))) {
                for (c.seekToFirst(); c.valid(); c.next()) {
                    out.append("scan ").append(new String(c.keyBytes(), StandardCharsets.UTF_8)).append('\n');
                }
                c.seekForPrev(b("c"));
                out.append("seekForPrev(c) ").append(new String(c.keyBytes(), StandardCharsets.UTF_8)).append('\n');
            }
        }
        return out.toString();
    }

    public static void main(String[] args) throws IOException {
        Path root = args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("everett-example");
        System.out.print(run(root));
    }
}

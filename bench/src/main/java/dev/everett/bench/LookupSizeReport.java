package dev.everett.bench;

import dev.everett.api.CatalogRef;
import dev.everett.api.FilterPolicy;
import dev.everett.api.IndexedSegment;
import dev.everett.api.ObjectId;
import dev.everett.api.SegmentEngine;
import dev.everett.api.ObjectStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.rocksdb.LiveFileMetaData;
import org.rocksdb.RocksDBException;
import org.rocksdb.TableProperties;

/**
 * Whole-file sizes of the "IX03 lookups" fixtures ({@link LookupData}) on both sides, for
 * N ∈ {8,192, 131,072} × {struct16, hash128}: every {@code .kv} and {@code .index} of Everett's
 * chain (with its role) in both profiles (byte: KV02 + IX03, bit: KV03 + IX03), and every file of the RocksDB database (the SSTs with their levels and
 * table properties; the other files — MANIFEST, OPTIONS, LOG, CURRENT, IDENTITY, LOCK, WAL —
 * listed apart). Also the single-segment fixture of {@link SingleSegmentBench}.
 *
 * <p>Before measuring, it checks both sides completely: every record's key gives its value and
 * every key between two records ({@code key(2i + 1)}) is absent.
 *
 * <pre>java -cp bench/target/benchmarks.jar dev.everett.bench.LookupSizeReport [--dir DIR] [--json FILE]</pre>
 */
public final class LookupSizeReport {
    /** Key filter bits per key of the filtered byte chain (LookupBench.EverettFilteredState's default). */
    static final int FILTER_BITS_PER_KEY = 10;

    private LookupSizeReport() {
    }

    /**
     * Everett's published whole-fixture totals in {@code profile}, or for the byte profile at
     * N = 8,192 Everett's per-file size model where Everett published none; null where neither exists.
     */
    static Long published(int n, LookupData.KeyShape shape, LookupData.Profile profile) {
        boolean struct = shape == LookupData.KeyShape.STRUCT16;
        if (n == 131_072) {
            if (profile == LookupData.Profile.BIT) {
                return struct ? 6_422_208L : 30_651_952L;
            }
            return struct ? 6_762_352L : 30_321_360L;
        }
        if (n == 8_192 && struct && profile == LookupData.Profile.BYTE) {
            return 427_096L;
        }
        return null;
    }

    static String publishedSource(int n) {
        return n == 131_072 ? "Everett byte_lookup_compare (published totals)"
                : "Everett's per-file size model (pinned by LookupFixtureSizesTest)";
    }

    private static String q(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private static String fileJson(LookupData.FileSize f, String role) {
        return String.format(Locale.ROOT, "{\"name\": %s, \"kind\": %s, \"role\": %s, \"bytes\": %d}",
                q(f.name()), q(f.kind()), q(role), f.bytes());
    }

    private static Map<String, String> roles(Path root, LookupData.EverettFixture fx) {
        Map<String, String> roles = new HashMap<>();
        String[] kv = {"kv stride 1 (run1)", "kv stride 4 (run4)", "kv stride 16 (run16)", "kv stride 64 (run64)"};
        String[] ix = {"index terminal over run1", "index run4, main = previous", "index run16, main = previous, secondary = run128",
                "index run64, main = previous"};
        for (int i = 0; i < fx.catalogs().size(); i++) {
            CatalogRef c = fx.catalogs().get(i);
            roles.put(root.relativize(c.nativeId().path(root, ".kv")).toString(), kv[i]);
            roles.put(root.relativize(c.indexId().path(root, ".index")).toString(), ix[i]);
        }
        roles.put(root.relativize(fx.secondary().path(root, ".kv")).toString(), "kv stride 128 (secondary)");
        roles.put(root.relativize(fx.head().nativeId().path(root, ".kv")).toString(), "kv empty (routing, shared)");
        roles.put(root.relativize(fx.head().indexId().path(root, ".index")).toString(), "index routing (head)");
        return roles;
    }

    /**
     * Builds, checks and measures Everett's chain in one profile; returns its JSON object and
     * adds its total to {@code totals}.
     */
    private static String everett(Path work, LookupData.Records r, LookupData.Profile profile, Map<LookupData.Profile, Long> totals)
            throws IOException {
        int n = r.n();
        LookupData.KeyShape shape = r.shape();
        Path root = work.resolve("everett-" + profile.label + "-" + n + "-" + shape.name().toLowerCase(Locale.ROOT));
        List<String> ev = new ArrayList<>();
        long kvBytes = 0;
        long indexBytes = 0;
        long otherBytes = 0;
        long filterBytes = 0;
        // The byte chain is built with key filters (10 bits per key, as LookupBench.everettFiltered):
        // the .kv and .index files are the same bytes either way, and the .filter files are counted apart.
        FilterPolicy filters = profile == LookupData.Profile.BYTE ? FilterPolicy.bloom(FILTER_BITS_PER_KEY) : FilterPolicy.none();
        try (LookupData.EverettFixture fx = LookupData.buildEverett(root, r, profile, filters)) {
            LookupData.verifyEverett(fx.chain(), r);
            LookupData.checkEverett(fx.chain(), LookupData.queries(n, shape, LookupData.QueryKind.MIXED));
            fx.chain().verify();
            Map<String, String> roles = roles(root, fx);
            for (LookupData.FileSize f : LookupData.everettFiles(root)) {
                String role = f.kind().equals("filter")
                        ? "filter of " + roles.getOrDefault(f.name().replaceAll("\\.filter$", ".kv"), "?")
                        : roles.getOrDefault(f.name(), f.kind().equals("index") ? "index routing, main = previous" : "other");
                ev.add(fileJson(f, role));
                switch (f.kind()) {
                    case "kv" -> kvBytes += f.bytes();
                    case "index" -> indexBytes += f.bytes();
                    case "filter" -> filterBytes += f.bytes();
                    default -> otherBytes += f.bytes();
                }
                System.out.printf(Locale.ROOT, "Everett %-4s %-52s %-6s %,12d  %s%n", profile.label, role, f.kind(), f.bytes(), f.name());
            }
        }
        LookupData.deleteTree(root);
        long total = kvBytes + indexBytes;
        totals.put(profile, total);
        Long pub = published(n, shape, profile);
        System.out.printf(Locale.ROOT, "Everett %s total .kv + .index %,d bytes (.kv %,d, .index %,d; .filter %,d; other %,d)%s%n",
                profile.label, total, kvBytes, indexBytes, filterBytes, otherBytes, pub == null ? "" : String.format(Locale.ROOT, "; published %,d (%s)", pub,
                        pub == total ? "equal" : String.format(Locale.ROOT, "DIFFERENT by %+,d", total - pub)));
        return String.format(Locale.ROOT,
                "{\"profile\": %s, \"total\": %d, \"kvBytes\": %d, \"indexBytes\": %d, \"filterBytes\": %d, \"filterBitsPerKey\": %d, "
                        + "\"otherBytes\": %d, \"published\": %s, "
                        + "\"publishedSource\": %s,%n       \"files\": [%n        %s]}",
                q(profile.label), total, kvBytes, indexBytes, filterBytes, filters.bitsPerKey(), otherBytes, pub == null ? "null" : pub.toString(),
                pub == null ? "null" : q(publishedSource(n)), String.join(",\n        ", ev));
    }

    private static String fixture(Path work, int n, LookupData.KeyShape shape) throws IOException, RocksDBException {
        String label = shape.name().toLowerCase(Locale.ROOT);
        LookupData.Records r = LookupData.records(n, shape);
        Path rocksDir = work.resolve("rocks-" + n + "-" + label);
        System.out.printf(Locale.ROOT, "%n== N = %,d, %s ==%n", n, label);
        Map<LookupData.Profile, Long> totals = new EnumMap<>(LookupData.Profile.class);
        String byteJson = everett(work, r, LookupData.Profile.BYTE, totals);
        String bitJson = everett(work, r, LookupData.Profile.BIT, totals);
        long evTotal = totals.get(LookupData.Profile.BYTE);
        System.out.printf(Locale.ROOT, "Everett bit / byte bytes: %.4f (%+.2f %%)%n", (double) totals.get(LookupData.Profile.BIT) / evTotal,
                100.0 * (totals.get(LookupData.Profile.BIT) - evTotal) / evTotal);

        List<String> sst = new ArrayList<>();
        List<String> other = new ArrayList<>();
        long sstBytes = 0;
        long otherRocks = 0;
        long data = 0;
        long index = 0;
        long filter = 0;
        long entries = 0;
        String filterName = "";
        try (LookupData.RocksFixture f = LookupData.buildRocks(rocksDir, r)) {
            LookupData.warmRocks(f, r);
            LookupData.verifyRocks(f, r);
            Map<String, Integer> levels = new HashMap<>();
            for (LiveFileMetaData m : f.sstFiles()) {
                levels.put(Path.of(m.fileName()).getFileName().toString(), m.level());
            }
            for (Map.Entry<String, TableProperties> e : f.db.getPropertiesOfAllTables().entrySet()) {
                TableProperties p = e.getValue();
                data += p.getDataSize();
                index += p.getIndexSize();
                filter += p.getFilterSize();
                entries += p.getNumEntries();
                filterName = p.getFilterPolicyName();
            }
            for (LookupData.FileSize fs : LookupData.rocksFiles(f.dir)) {
                if (fs.kind().equals("sst")) {
                    int level = levels.getOrDefault(fs.name(), -1);
                    sst.add(String.format(Locale.ROOT, "{\"name\": %s, \"level\": %d, \"bytes\": %d}", q(fs.name()), level, fs.bytes()));
                    sstBytes += fs.bytes();
                    System.out.printf(Locale.ROOT, "RocksDB SST L%d %-46s %,12d%n", level, fs.name(), fs.bytes());
                } else {
                    other.add(fileJson(fs, "other"));
                    otherRocks += fs.bytes();
                }
            }
            System.out.printf(Locale.ROOT, "RocksDB SST total %,d bytes (data %,d, index %,d, filter %,d; %,d entries, filter %s); "
                    + "other files %,d bytes in %d files; block cache after a full scan %,d bytes%n",
                    sstBytes, data, index, filter, entries, filterName, otherRocks, other.size(), f.blockCacheUsage());
        }
        System.out.printf(Locale.ROOT, "Everett byte / RocksDB SST bytes: %.4f%n", (double) evTotal / sstBytes);
        LookupData.deleteTree(rocksDir);
        return String.format(Locale.ROOT,
                "{\"n\": %d, \"keys\": %s, \"keyBytes\": %d, \"verified\": true,%n"
                        + "     \"everett\": %s,%n"
                        + "     \"everettBit\": %s,%n"
                        + "     \"rocks\": {\"sstTotal\": %d, \"dataSize\": %d, \"indexSize\": %d, \"filterSize\": %d, \"entries\": %d, "
                        + "\"filterPolicy\": %s, \"otherTotal\": %d,%n       \"sst\": [%n        %s],%n       \"other\": [%n        %s]}}",
                n, q(label), shape.width, byteJson, bitJson, sstBytes, data, index, filter, entries,
                q(filterName), otherRocks, String.join(",\n        ", sst), String.join(",\n        ", other));
    }

    private static String segment(Path work) throws IOException {
        Path root = work.resolve("segment");
        List<String> files = new ArrayList<>();
        long total = 0;
        System.out.printf(Locale.ROOT, "%n== single segment, %,d records ==%n", SingleSegmentBench.RECORDS);
        try (ObjectStore store = SegmentEngine.load().openObjectStore(root, LookupData.policy())) {
            IndexedSegment s = SingleSegmentBench.build(store);
            for (LookupData.FileSize f : LookupData.everettFiles(root)) {
                files.add(fileJson(f, f.kind()));
                total += f.bytes();
                System.out.printf(Locale.ROOT, "Everett %-6s %,12d  %s%n", f.kind(), f.bytes(), f.name());
            }
            if (s.natives().recordCount() != SingleSegmentBench.RECORDS) {
                throw new IllegalStateException("segment has " + s.natives().recordCount() + " records");
            }
            System.out.printf(Locale.ROOT, "Everett total %,d bytes (native %,d)%n", total, s.natives().fileBytes());
        }
        LookupData.deleteTree(root);
        return String.format(Locale.ROOT, "{\"records\": %d, \"total\": %d, \"files\": [%n    %s]}", SingleSegmentBench.RECORDS, total,
                String.join(",\n    ", files));
    }

    public static void main(String[] args) throws IOException, RocksDBException {
        String dir = "auto";
        Path json = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--dir" -> dir = args[++i];
                case "--json" -> json = Path.of(args[++i]);
                default -> throw new IllegalArgumentException("usage: LookupSizeReport [--dir DIR] [--json FILE]; unknown " + args[i]);
            }
        }
        Path work = LookupData.workDir(dir, "everett-lookup-size-");
        try {
            List<String> fixtures = new ArrayList<>();
            for (int n : new int[] {8_192, 131_072}) {
                for (LookupData.KeyShape shape : LookupData.KeyShape.values()) {
                    fixtures.add(fixture(work, n, shape));
                }
            }
            String seg = segment(work);
            if (json != null) {
                String text = String.format(Locale.ROOT, "{%n  \"blockCacheBytes\": %d,%n  \"fixtures\": [%n    %s%n  ],%n  \"segment\": %s%n}%n",
                        LookupData.BLOCK_CACHE_BYTES, String.join(",\n    ", fixtures), seg);
                Path parent = json.toAbsolutePath().getParent();
                if (parent != null) {
                    Files.createDirectories(parent);
                }
                Files.writeString(json, text);
                System.out.println("wrote " + json);
            }
        } finally {
            LookupData.deleteTree(work);
        }
    }
}

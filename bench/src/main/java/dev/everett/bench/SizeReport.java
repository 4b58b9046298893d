package dev.everett.bench;

import dev.everett.api.CommonWidthRule;
import dev.everett.api.Policy;
import dev.everett.api.SegmentEngine;
import dev.everett.api.SegmentInfo;
import dev.everett.api.ValueWidth;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.rocksdb.EnvOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDBException;
import org.rocksdb.SstFileReader;
import org.rocksdb.TableProperties;

/**
 * Writes the "KV02 foundation" data set once as KV02 and once as an SST and reports the whole-file
 * sizes. The measured policy ({@link Kv02Data#policy()}) is the headline; two variants are listed
 * for context. With {@code --json FILE} it also writes the figures as JSON for {@code summarize.py}.
 *
 * <pre>java -cp bench/target/benchmarks.jar dev.everett.bench.SizeReport [--dir DIR] [--json FILE]</pre>
 */
public final class SizeReport {
    private SizeReport() {
    }

    private record Variant(String name, Policy policy, CommonWidthRule rule, boolean headline) {
    }

    public static void main(String[] args) throws IOException, RocksDBException {
        String dir = "auto";
        Path json = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--dir" -> dir = args[++i];
                case "--json" -> json = Path.of(args[++i]);
                default -> throw new IllegalArgumentException("usage: SizeReport [--dir DIR] [--json FILE]; unknown " + args[i]);
            }
        }
        SegmentEngine engine = SegmentEngine.load();
        Path work = Kv02Data.workDir(dir, "everett-size-");
        try {
            List<Variant> variants = List.of(
                    new Variant("RAW, variable width, CommonWidthRule.policy() (measured)", Kv02Data.policy(), Kv02Data.widthRule(), true),
                    new Variant("defaultBytes() (OPTIONAL, variable width), CommonWidthRule.policy()", Policy.defaultBytes(), CommonWidthRule.policy(), false),
                    new Variant("RAW, fixed(32), CommonWidthRule.policy()", Kv02Data.policy().withValueWidth(ValueWidth.fixed(Kv02Data.VALUE_BYTES)), CommonWidthRule.policy(), false),
                    new Variant("KV03: stringPolicy() RAW, CommonWidthRule.policy() (bitWalk/bitWrite kv03)", Kv02Data.bitPolicy("kv03"), Kv02Data.widthRule(), false),
                    new Variant("KV02 bit: stringPolicy() as KV02, RAW, CommonWidthRule.policy() (bitWalk/bitWrite kv02bit)", Kv02Data.bitPolicy("kv02bit"), Kv02Data.widthRule(), false));
            List<String> rows = new ArrayList<>();
            long headline = -1;
            int n = 0;
            for (Variant v : variants) {
                Path f = work.resolve("v" + n++ + ".kv02");
                SegmentInfo info = Kv02Data.writeEverett(engine, f, v.policy(), v.rule());
                long size = Files.size(f);
                if (size != info.fileBytes()) {
                    throw new IllegalStateException("SegmentInfo says " + info.fileBytes() + " bytes, file has " + size);
                }
                if (v.headline()) {
                    headline = size;
                }
                rows.add(String.format(Locale.ROOT, "{\"name\": \"%s\", \"format\": \"%s\", \"unit\": \"%s\", \"bytes\": %d, "
                                + "\"headline\": %b, \"commonWidth\": %d}",
                        v.name(), v.policy().format(), v.policy().unit(), size, v.headline(), info.commonWidth()));
                System.out.printf(Locale.ROOT, "%-4s %-72s %,12d bytes  %.3f B/record  common width %d%n",
                        v.policy().format(), v.name(), size, (double) size / Kv02Data.RECORDS, info.commonWidth());
                Files.delete(f);
            }
            Path sst = work.resolve("data.sst");
            long sstBytes;
            String props;
            try (Options options = Kv02Data.rocksOptions(); EnvOptions env = new EnvOptions()) {
                sstBytes = Kv02Data.writeSstArrays(env, options, sst);
                if (sstBytes != Files.size(sst)) {
                    throw new IllegalStateException("SstFileWriter says " + sstBytes + " bytes, file has " + Files.size(sst));
                }
                try (SstFileReader r = new SstFileReader(options)) {
                    r.open(sst.toString());
                    TableProperties p = r.getTableProperties();
                    props = String.format(Locale.ROOT,
                            "{\"entries\": %d, \"dataBlocks\": %d, \"dataSize\": %d, \"indexSize\": %d, \"filterSize\": %d, "
                                    + "\"rawKeySize\": %d, \"rawValueSize\": %d, \"compression\": \"%s\", \"formatVersion\": %d}",
                            p.getNumEntries(), p.getNumDataBlocks(), p.getDataSize(), p.getIndexSize(), p.getFilterSize(),
                            p.getRawKeySize(), p.getRawValueSize(), p.getCompressionName(), p.getFormatVersion());
                    System.out.printf(Locale.ROOT, "SST  %-72s %,12d bytes  %.3f B/record%n", "NO_COMPRESSION, default BlockBasedTableConfig",
                            sstBytes, (double) sstBytes / Kv02Data.RECORDS);
                    System.out.println("     table properties: " + props);
                }
            }
            System.out.printf(Locale.ROOT, "file size ratio KV02/SST (measured policy): %.4f%n", (double) headline / sstBytes);
            if (json != null) {
                String text = String.format(Locale.ROOT,
                        "{%n  \"records\": %d,%n  \"inputBytes\": %d,%n  \"kv02Bytes\": %d,%n  \"sstBytes\": %d,%n"
                                + "  \"kv02Variants\": [%n    %s%n  ],%n  \"sstProperties\": %s%n}%n",
                        Kv02Data.RECORDS, Kv02Data.INPUT_BYTES, headline, sstBytes, String.join(",\n    ", rows), props);
                Path parent = json.toAbsolutePath().getParent();
                if (parent != null) {
                    Files.createDirectories(parent);
                }
                Files.writeString(json, text);
                System.out.println("wrote " + json);
            }
        } finally {
            Kv02Data.deleteTree(work);
        }
    }
}

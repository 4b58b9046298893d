package dev.everett.segment.testing;

import dev.everett.api.BackspaceCode;
import dev.everett.api.CommonWidthRule;
import dev.everett.api.Policy;
import dev.everett.api.SegmentFormat;
import dev.everett.api.Unit;
import dev.everett.api.ValueGrammar;
import dev.everett.api.ValueWidth;
import dev.everett.segment.natives.GoldenFilesTest;
import dev.everett.segment.natives.NativeDirectory;
import dev.everett.segment.natives.NativeReader;
import dev.everett.segment.natives.WorkedExampleTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The committed golden files under {@code src/test/resources/golden/}: how they are generated,
 * and how their record lists and the manifest are read back.
 *
 * <p>Each golden file is a pair {@code NAME.kv} (the segment) and {@code NAME.jsonl} (its records
 * in key order, one JSON object a line: {@code {"key":"<hex>","value":"<hex>"}}, or
 * {@code "value":null} for a tombstone; under the OPTIONAL grammar the hex is the value without
 * its {@code 01} presence tag, under RAW the raw value). {@code manifest.jsonl} holds one line per
 * golden file with the policy and common-width rule it was written under, plus what the file
 * records (count, size, common width, sparse Elias–Fano words), so the tests need nothing but
 * the committed files. The record generators below only matter when the files are regenerated
 * (see {@link GoldenFilesTest}); they are deterministic ({@link Random} with fixed seeds, whose
 * algorithm the JDK specifies), so regenerating reproduces the committed bytes.
 */
public final class GoldenFiles {
    /** System property that makes {@link GoldenFilesTest} rewrite the committed files first. */
    public static final String REGENERATE = "everett.golden.regenerate";
    public static final String MANIFEST = "manifest.jsonl";
    private static final HexFormat HEX = HexFormat.of();

    private GoldenFiles() {
    }

    /** One manifest line: the file's name, how it was written, and what it holds. */
    public record Golden(String name, Policy policy, CommonWidthRule rule, long records, long bytes, long commonWidth,
                  long efSparseWords, String about) {
        public Path kv(Path dir) {
            return dir.resolve(name + ".kv");
        }

        public Path jsonl(Path dir) {
            return dir.resolve(name + ".jsonl");
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** A golden file to generate: name, policy, rule, a line of prose and the records. */
    private record Spec(String name, Policy policy, CommonWidthRule rule, String about, Supplier<List<Rec>> records) {
    }

    /** The committed directory, in the module's sources (Surefire sets {@code basedir}). */
    public static Path dir() {
        Path base = Path.of(System.getProperty("basedir", System.getProperty("user.dir")));
        return base.resolve("src/test/resources/golden");
    }

    // ---------------------------------------------------------------------------------------
    // The table of golden files. Add a line here, then regenerate.

    private static final Policy BYTES = Policy.defaultBytes();

    private static List<Spec> specs() {
        Policy raw = BYTES.withGrammar(ValueGrammar.RAW);
        return List.of(
                new Spec("empty", BYTES, CommonWidthRule.policy(),
                        "no records: one Elias–Fano entry r0 = 0, no common width", List::of),
                new Spec("empty-infer", BYTES, CommonWidthRule.infer(),
                        "no records under the infer rule: common width present and 0", List::of),
                new Spec("single-empty-key", BYTES, CommonWidthRule.policy(),
                        "one record whose key is empty", () -> List.of(new Rec(new byte[0], Rec.bytes("only")))),
                new Spec("worked-example", BYTES, CommonWidthRule.policy(),
                        "the four records of the worked examples (docs/format.md)", () -> WorkedExampleTest.RECORDS),
                new Spec("tombstones", BYTES, CommonWidthRule.policy(),
                        "values and tombstones mixed, tombstones first, last and at block starts", GoldenFiles::tombstones),
                new Spec("empty-values", BYTES, CommonWidthRule.policy(),
                        "present empty values (encoded 01), keys that are prefixes of their successors", GoldenFiles::emptyValues),
                new Spec("w1", BYTES.withBlockWidth(1), CommonWidthRule.policy(),
                        "W = 1: every record starts a block and stores ABS", () -> mixed(13, 11)),
                new Spec("w2", BYTES.withBlockWidth(2), CommonWidthRule.policy(),
                        "W = 2 with an odd count, so the last block holds one record", () -> mixed(13, 12)),
                new Spec("k7", BYTES.withBlockWidth(7).withGroupSize(7), CommonWidthRule.policy(),
                        "K = W = 7", () -> mixed(30, 13)),
                new Spec("long-varints", BYTES.withBlockWidth(2), CommonWidthRule.policy(),
                        "keys and values over 127 bytes: multi-byte ABS, BACK, SUF and VLEN", GoldenFiles::longVarints),
                new Spec("raw-variable", raw, CommonWidthRule.policy(),
                        "RAW grammar, variable values including empty ones", GoldenFiles::rawVariable),
                new Spec("fixed-width", raw.withValueWidth(ValueWidth.fixed(8)), CommonWidthRule.policy(),
                        "RAW grammar, policy-fixed 8-byte values: flags 3, widths 8, no VLEN", GoldenFiles::fixedWidth),
                new Spec("inferred-common-width", BYTES, CommonWidthRule.infer(),
                        "OPTIONAL, every value 4 bytes (encoded 5): the infer rule records common width 5", GoldenFiles::inferred),
                new Spec("promised-width", raw, CommonWidthRule.promised(3),
                        "RAW, variable policy, promised width 3: flag bit 1 only", GoldenFiles::promised),
                new Spec("shared-prefix-10k", BYTES, CommonWidthRule.policy(),
                        "10,000 records whose keys share a 64-byte prefix", GoldenFiles::sharedPrefix10k),
                new Spec("sparse-ef", BYTES.withBlockWidth(1), CommonWidthRule.policy(),
                        "W = 1 and one 70,000-byte value: an Elias–Fano group is sparse", GoldenFiles::sparseEf),
                // KV03: Everett's string policy (bit unit, sort code 0, EG0 counts, self-delimiting values).
                new Spec("kv03-empty", KV03, CommonWidthRule.policy(),
                        "KV03, no records: empty dictionary, offsets [0], one Elias–Fano entry; common width present and 0 (KV03 always discovers it)", List::of),
                new Spec("kv03-empty-infer", KV03, CommonWidthRule.infer(),
                        "KV03, no records under the infer rule: common width present and 0", List::of),
                new Spec("kv03-single-empty-key", KV03, CommonWidthRule.policy(),
                        "KV03, one record whose key is empty: the logical key is the sort code alone",
                        () -> List.of(new Rec(new byte[0], Rec.bytes("only")))),
                new Spec("kv03-worked-example", KV03, CommonWidthRule.policy(),
                        "the four records of the worked examples, as KV03 (docs/format.md)", () -> WorkedExampleTest.RECORDS),
                new Spec("kv03-tombstones", KV03, CommonWidthRule.policy(),
                        "KV03, values and tombstones (presence bit 0) mixed, at block starts too", GoldenFiles::tombstones),
                new Spec("kv03-empty-values", KV03, CommonWidthRule.policy(),
                        "KV03, present empty values (11), keys that are prefixes of their successors", GoldenFiles::emptyValues),
                new Spec("kv03-w1", KV03.withBlockWidth(1), CommonWidthRule.policy(),
                        "KV03, W = 1: every record starts a block and stores EG0(retained)", () -> mixed(13, 11)),
                new Spec("kv03-w2", KV03.withBlockWidth(2), CommonWidthRule.policy(),
                        "KV03, W = 2 with an odd count", () -> mixed(13, 12)),
                new Spec("kv03-egk3", KV03.withBackspace(BackspaceCode.expGolomb(3)).withBlockWidth(7).withGroupSize(7), CommonWidthRule.policy(),
                        "KV03, backspaces in exponential-Golomb order 3, K = W = 7", () -> mixed(30, 13)),
                new Spec("kv03-golomb5", KV03.withBackspace(BackspaceCode.golomb(5)), CommonWidthRule.policy(),
                        "KV03, backspaces in Golomb with modulus 5 (truncated-binary remainders)", GoldenFiles::tombstones),
                new Spec("kv03-golomb1", KV03.withBackspace(BackspaceCode.golomb(1)).withBlockWidth(4), CommonWidthRule.policy(),
                        "KV03, Golomb modulus 1: unary backspaces", () -> mixed(20, 14)),
                new Spec("kv03-raw", KV03.withGrammar(ValueGrammar.RAW), CommonWidthRule.policy(),
                        "KV03, RAW grammar: string_value<EG0> without a presence bit", GoldenFiles::rawVariable),
                new Spec("kv03-fixed-width", KV03.withGrammar(ValueGrammar.RAW), CommonWidthRule.policy(),
                        "KV03, RAW, every value 8 bytes (EG0(8) and 8 bytes = 71 bits) under a variable policy: KV03 cannot declare a fixed width, "
                                + "so flag bit 0 is clear and the file records the discovered common width 71 (flag bit 1, byte 40), a stride in the residuals",
                        GoldenFiles::fixedWidth),
                new Spec("kv03-inferred-common-width", KV03, CommonWidthRule.infer(),
                        "KV03, every value 4 bytes (1 + 5 + 32 = 38 bits): common width 38 (recorded under any rule in KV03)", GoldenFiles::inferred),
                new Spec("kv03-long-counts", KV03.withBlockWidth(2), CommonWidthRule.policy(),
                        "KV03, keys and values over 127 bytes: long EG0 counts and backspaces", GoldenFiles::longVarints),
                new Spec("kv03-shared-prefix-10k", KV03, CommonWidthRule.policy(),
                        "KV03, 10,000 records whose keys share a 64-byte prefix", GoldenFiles::sharedPrefix10k),
                // KV02 with bit units: host byte keys, exact bit LCPs, EG0 counts, value lengths in bits.
                new Spec("kv02bit-empty", KV02_BITS, CommonWidthRule.policy(),
                        "KV02 bit, no records", List::of),
                new Spec("kv02bit-worked-example", KV02_BITS, CommonWidthRule.policy(),
                        "the four records of the worked examples as KV02 with bit units (docs/format.md)", () -> WorkedExampleTest.RECORDS),
                new Spec("kv02bit-tombstones", KV02_BITS, CommonWidthRule.policy(),
                        "KV02 bit, values and tombstones mixed", GoldenFiles::tombstones),
                new Spec("kv02bit-w1", KV02_BITS.withBlockWidth(1), CommonWidthRule.policy(),
                        "KV02 bit, W = 1", () -> mixed(13, 11)),
                new Spec("kv02bit-w2", KV02_BITS.withBlockWidth(2), CommonWidthRule.policy(),
                        "KV02 bit, W = 2 with an odd count", () -> mixed(13, 12)),
                new Spec("kv02bit-egk2", KV02_BITS.withBackspace(BackspaceCode.expGolomb(2)).withBlockWidth(7).withGroupSize(7), CommonWidthRule.policy(),
                        "KV02 bit, backspaces in exponential-Golomb order 2, K = W = 7", () -> mixed(30, 13)),
                new Spec("kv02bit-golomb3", KV02_BITS.withBackspace(BackspaceCode.golomb(3)), CommonWidthRule.policy(),
                        "KV02 bit, backspaces in Golomb with modulus 3", GoldenFiles::emptyValues),
                new Spec("kv02bit-raw-variable", KV02_BITS.withGrammar(ValueGrammar.RAW), CommonWidthRule.policy(),
                        "KV02 bit, RAW grammar: values are their bytes, VLEN a multiple of 8", GoldenFiles::rawVariable),
                new Spec("kv02bit-fixed-width", KV02_BITS.withGrammar(ValueGrammar.RAW).withValueWidth(ValueWidth.fixed(64)), CommonWidthRule.policy(),
                        "KV02 bit, RAW, policy-fixed 64 bits: flags 3, no VLEN", GoldenFiles::fixedWidth),
                new Spec("kv02bit-inferred-common-width", KV02_BITS, CommonWidthRule.infer(),
                        "KV02 bit, every value 4 bytes (38 bits): the infer rule drops VLEN, common width 38", GoldenFiles::inferred),
                new Spec("kv02bit-promised-width", KV02_BITS.withGrammar(ValueGrammar.RAW), CommonWidthRule.promised(24),
                        "KV02 bit, RAW, promised width 24 bits", GoldenFiles::promised),
                new Spec("kv02bit-long-counts", KV02_BITS.withBlockWidth(2), CommonWidthRule.policy(),
                        "KV02 bit, keys and values over 127 bytes", GoldenFiles::longVarints),
                new Spec("kv02bit-shared-prefix-10k", KV02_BITS, CommonWidthRule.policy(),
                        "KV02 bit, 10,000 records whose keys share a 64-byte prefix", GoldenFiles::sharedPrefix10k),
                new Spec("kv02bit-sparse-ef", KV02_BITS.withBlockWidth(1), CommonWidthRule.policy(),
                        "KV02 bit, W = 1 and one 70,000-byte value: an Elias–Fano group is sparse", GoldenFiles::sparseEf));
    }

    private static final Policy KV03 = Policy.stringPolicy();
    private static final Policy KV02_BITS = Policy.stringPolicy().withFormat(SegmentFormat.KV02);

    // ---------------------------------------------------------------------------------------
    // Record generators.

    private static List<Rec> tombstones() {
        TreeSet<byte[]> keys = keySet();
        keys.add(Rec.bytes("user"));
        keys.add(Rec.bytes("user:"));
        for (int i = 0; i < 38; i++) {
            keys.add(Rec.bytes(String.format("user:%03d", i * 7)));
        }
        List<Rec> out = new ArrayList<>();
        int i = 0;
        for (byte[] k : keys) {
            // Multiples of 3 include the block starts 0, 15 and 30 (W = 15).
            boolean dead = i % 3 == 0 || i == keys.size() - 1;
            out.add(new Rec(k, dead ? null : Rec.bytes("v".repeat(i % 4) + i)));
            i++;
        }
        return out;
    }

    private static List<Rec> emptyValues() {
        TreeSet<byte[]> keys = keySet();
        for (String k : List.of("a", "aa", "aaa", "aab", "ab", "b", "ba", "bab", "babe", "c")) {
            keys.add(Rec.bytes(k));
        }
        for (int i = 0; i < 10; i++) {
            keys.add(Rec.bytes("d" + i));
        }
        return keys.stream().map(k -> new Rec(k, new byte[0])).toList();
    }

    /** {@code n} records with short keys drawn from a small alphabet (so prefixes are shared), some tombstones. */
    private static List<Rec> mixed(int n, long seed) {
        Random r = new Random(seed);
        TreeSet<byte[]> keys = keySet();
        while (keys.size() < n) {
            byte[] k = new byte[1 + r.nextInt(4)];
            for (int i = 0; i < k.length; i++) {
                k[i] = (byte) ("abc".charAt(r.nextInt(3)));
            }
            keys.add(k);
        }
        List<Rec> out = new ArrayList<>();
        for (byte[] k : keys) {
            out.add(new Rec(k, r.nextInt(4) == 0 ? null : randomBytes(r, r.nextInt(4))));
        }
        return out;
    }

    private static List<Rec> longVarints() {
        byte[] base = new byte[300];
        for (int i = 0; i < base.length; i++) {
            base[i] = (byte) ('A' + i % 26);
        }
        List<Rec> out = new ArrayList<>();
        int[] lengths = {130, 140, 141, 200, 290, 300};
        for (int i = 0; i < lengths.length; i++) {
            byte[] k = Arrays.copyOf(base, lengths[i]);
            byte[] v = new byte[i * 130];
            Arrays.fill(v, (byte) i);
            out.add(new Rec(k, i == 3 ? null : v));
        }
        // A key that shares 140 bytes with its predecessor but differs after: BACK of 160.
        byte[] k = Arrays.copyOf(base, 141);
        k[140] = (byte) 0xF0;
        out.add(new Rec(k, new byte[129]));
        return out;
    }

    private static List<Rec> rawVariable() {
        Random r = new Random(5);
        List<Rec> out = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            out.add(new Rec(Rec.bytes(String.format("raw/%02d", i * 3)), randomBytes(r, i % 6)));
        }
        return out;
    }

    private static List<Rec> fixedWidth() {
        List<Rec> out = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            out.add(new Rec(bigEndian(i * 37L, 4), bigEndian(0x0102030405060708L * i, 8)));
        }
        return out;
    }

    private static List<Rec> inferred() {
        List<Rec> out = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            out.add(new Rec(Rec.bytes("item-" + (1000 + i * 13)), bigEndian(i * 1_000_003L, 4)));
        }
        return out;
    }

    private static List<Rec> promised() {
        List<Rec> out = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            out.add(new Rec(Rec.bytes(String.format("p%03d", i * 11)), bigEndian(i, 3)));
        }
        return out;
    }

    public static final int SHARED_PREFIX = 64;

    /** A 64-byte ASCII prefix, then 1–6 random bytes (all 256 values); values of 0–2 bytes, one in ten a tombstone. */
    private static List<Rec> sharedPrefix10k() {
        Random r = new Random(10_000);
        byte[] prefix = Rec.bytes("everett/golden/shared-prefix/".repeat(3).substring(0, SHARED_PREFIX));
        TreeSet<byte[]> suffixes = keySet();
        while (suffixes.size() < 10_000) {
            suffixes.add(randomBytes(r, 1 + r.nextInt(6)));
        }
        List<Rec> out = new ArrayList<>();
        for (byte[] s : suffixes) {
            byte[] k = Arrays.copyOf(prefix, SHARED_PREFIX + s.length);
            System.arraycopy(s, 0, k, SHARED_PREFIX, s.length);
            out.add(new Rec(k, r.nextInt(10) == 0 ? null : randomBytes(r, r.nextInt(3))));
        }
        return out;
    }

    /**
     * 4,200 small one-record blocks and one 70,000-byte value in the middle of an Elias–Fano
     * group: U / n gives w = 4, so the jump alone moves the high bits by 70,000 >> 4 > 4096 and
     * that group's 256 entries span more than the dense limit.
     */
    private static List<Rec> sparseEf() {
        List<Rec> out = new ArrayList<>();
        for (int i = 0; i < 4_200; i++) {
            byte[] v = i == 2_100 ? new byte[70_000] : new byte[i % 5 == 0 ? 0 : 1];
            if (i == 2_100) {
                for (int j = 0; j < v.length; j++) {
                    v[j] = (byte) (j * 31);
                }
            }
            out.add(new Rec(bigEndian(i, 2), i % 7 == 3 ? null : v));
        }
        return out;
    }

    private static TreeSet<byte[]> keySet() {
        return new TreeSet<>(Arrays::compareUnsigned);
    }

    private static byte[] randomBytes(Random r, int n) {
        byte[] b = new byte[n];
        r.nextBytes(b);
        return b;
    }

    private static byte[] bigEndian(long v, int bytes) {
        byte[] b = new byte[bytes];
        for (int i = 0; i < bytes; i++) {
            b[i] = (byte) (v >>> (8 * (bytes - 1 - i)));
        }
        return b;
    }

    // ---------------------------------------------------------------------------------------
    // Regeneration.

    /** Records the generator table produces for {@code name}, or null if it has no such file. */
    public static List<Rec> generate(String name) {
        return specs().stream().filter(s -> s.name.equals(name)).findFirst().map(s -> s.records.get()).orElse(null);
    }

    /** Rewrites every golden file, the manifest, and removes golden files the table no longer names. */
    public static void regenerate(Path dir) throws IOException {
        Files.createDirectories(dir);
        List<String> manifest = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (Spec s : specs()) {
            List<Rec> records = s.records.get();
            Path kv = dir.resolve(s.name + ".kv");
            var info = SegmentFixtures.write(kv, s.policy, s.rule, records);
            Files.writeString(dir.resolve(s.name + ".jsonl"), toJsonLines(records));
            long sparseWords;
            try (NativeReader r = SegmentFixtures.open(kv, s.policy)) {
                sparseWords = r.typed().directory().lengths()[NativeDirectory.SPARSE] / 8;
            }
            manifest.add(manifestLine(new Golden(s.name, s.policy, s.rule, info.recordCount(), info.fileBytes(),
                    info.commonWidth(), sparseWords, s.about)));
            names.add(s.name);
        }
        Files.writeString(dir.resolve(MANIFEST), String.join("\n", manifest) + "\n");
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : files.toList()) {
                String f = p.getFileName().toString();
                String stem = f.replaceFirst("\\.(kv|jsonl)$", "");
                if (!stem.equals(f) && !f.equals(MANIFEST) && !names.contains(stem)) {
                    Files.delete(p);
                }
            }
        }
    }

    // ---------------------------------------------------------------------------------------
    // JSON lines: writing, and a tiny parser for flat objects of strings, integers and null.

    public static String toJsonLines(List<Rec> records) {
        StringBuilder sb = new StringBuilder();
        for (Rec r : records) {
            sb.append("{\"key\":\"").append(HEX.formatHex(r.key())).append("\",\"value\":");
            sb.append(r.tombstone() ? "null" : "\"" + HEX.formatHex(r.value()) + "\"").append("}\n");
        }
        return sb.toString();
    }

    public static List<Rec> readRecords(Path jsonl) throws IOException {
        List<Rec> out = new ArrayList<>();
        for (String line : Files.readAllLines(jsonl, StandardCharsets.UTF_8)) {
            if (line.isBlank()) {
                continue;
            }
            Map<String, Object> o = parseObject(line);
            String value = (String) o.get("value");
            out.add(new Rec(HEX.parseHex((String) o.get("key")), value == null ? null : HEX.parseHex(value)));
        }
        return out;
    }

    public static List<Golden> manifest(Path dir) {
        try {
            List<Golden> out = new ArrayList<>();
            for (String line : Files.readAllLines(dir.resolve(MANIFEST), StandardCharsets.UTF_8)) {
                if (!line.isBlank()) {
                    out.add(golden(parseObject(line)));
                }
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String manifestLine(Golden g) {
        CommonWidthRule rule = g.rule();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", g.name());
        putPolicy(m, g.policy());
        m.put("widthRule", rule.kind().name().toLowerCase());
        m.put("promisedWidth", rule.kind() == CommonWidthRule.Kind.PROMISED ? rule.width() : null);
        m.put("records", g.records());
        m.put("bytes", g.bytes());
        m.put("commonWidth", g.commonWidth() < 0 ? null : g.commonWidth());
        m.put("efSparseWords", g.efSparseWords());
        m.put("about", g.about());
        return line(m);
    }

    /**
     * The policy's fields of a manifest line (here and in golden-ix03's manifest): unit, format,
     * backspace code and parameter, W, K, fixed width, grammar.
     */
    public static void putPolicy(Map<String, Object> m, Policy p) {
        m.put("unit", p.unit() == Unit.BYTE ? "byte" : "bit");
        m.put("format", p.format() == SegmentFormat.KV03 ? "kv03" : "kv02");
        m.put("backspace", p.unit() == Unit.BYTE ? "varint"
                : p.backspace().code() == BackspaceCode.GOLOMB ? "golomb" : "exp-golomb");
        m.put("backspaceParameter", p.backspace().parameter());
        m.put("blockWidth", (long) p.blockWidth());
        m.put("groupSize", p.groupSize());
        m.put("fixedWidth", p.valueWidth().isFixed() ? p.valueWidth().units() : null);
        m.put("grammar", p.grammar() == ValueGrammar.RAW ? "raw" : "optional");
    }

    /** The policy {@link #putPolicy} wrote into a manifest line. */
    public static Policy policy(Map<String, Object> m) {
        Unit unit = switch ((String) m.get("unit")) {
            case "byte" -> Unit.BYTE;
            case "bit" -> Unit.BIT;
            default -> throw new IllegalArgumentException("unknown unit in " + m);
        };
        BackspaceCode backspace = switch ((String) m.get("backspace")) {
            case "varint" -> BackspaceCode.VARINT;
            case "exp-golomb" -> BackspaceCode.expGolomb(Math.toIntExact((Long) m.get("backspaceParameter")));
            case "golomb" -> BackspaceCode.golomb((Long) m.get("backspaceParameter"));
            default -> throw new IllegalArgumentException("unknown backspace in " + m);
        };
        SegmentFormat format = "kv03".equals(m.get("format")) ? SegmentFormat.KV03 : SegmentFormat.KV02;
        return new Policy(unit, Math.toIntExact((Long) m.get("blockWidth")), (Long) m.get("groupSize"),
                m.get("fixedWidth") == null ? ValueWidth.variable() : ValueWidth.fixed((Long) m.get("fixedWidth")),
                backspace, "raw".equals(m.get("grammar")) ? ValueGrammar.RAW : ValueGrammar.OPTIONAL, format);
    }

    /** One flat JSON object on one line, in the map's order (strings, numbers, booleans, null). */
    public static String line(Map<String, Object> m) {
        StringBuilder sb = new StringBuilder("{");
        for (var e : m.entrySet()) {
            if (sb.length() > 1) {
                sb.append(',');
            }
            sb.append('"').append(e.getKey()).append("\":");
            Object v = e.getValue();
            sb.append(v instanceof String s ? "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"" : String.valueOf(v));
        }
        return sb.append('}').toString();
    }

    private static Golden golden(Map<String, Object> m) {
        Policy p = policy(m);
        CommonWidthRule rule = switch ((String) m.get("widthRule")) {
            case "policy" -> CommonWidthRule.policy();
            case "infer" -> CommonWidthRule.infer();
            case "promised" -> CommonWidthRule.promised((Long) m.get("promisedWidth"));
            default -> throw new IllegalArgumentException("unknown widthRule in " + m);
        };
        Object cw = m.get("commonWidth");
        return new Golden((String) m.get("name"), p, rule, (Long) m.get("records"), (Long) m.get("bytes"),
                cw == null ? -1 : (Long) cw, (Long) m.get("efSparseWords"), (String) m.get("about"));
    }

    /** Parses one flat JSON object whose values are strings, integers, booleans or null. */
    public static Map<String, Object> parseObject(String line) {
        return new FlatJson(line).object();
    }

    private static final class FlatJson {
        private final String s;
        private int i;

        FlatJson(String s) {
            this.s = s;
        }

        Map<String, Object> object() {
            Map<String, Object> m = new LinkedHashMap<>();
            expect('{');
            if (peek() != '}') {
                do {
                    String key = string();
                    expect(':');
                    if (m.containsKey(key)) {
                        throw error("duplicate key " + key);
                    }
                    m.put(key, value());
                } while (take(','));
            }
            expect('}');
            if (peek() != 0) {
                throw error("text after the object");
            }
            return m;
        }

        private Object value() {
            char c = peek();
            if (c == '"') {
                return string();
            }
            if (c == '-' || (c >= '0' && c <= '9')) {
                int start = i;
                i++;
                while (i < s.length() && Character.isDigit(s.charAt(i))) {
                    i++;
                }
                return Long.parseLong(s.substring(start, i));
            }
            for (String word : List.of("null", "true", "false")) {
                if (s.startsWith(word, i)) {
                    i += word.length();
                    return word.equals("null") ? null : Boolean.valueOf(word);
                }
            }
            throw error("expected a string, an integer, true, false or null");
        }

        private String string() {
            expect('"');
            StringBuilder sb = new StringBuilder();
            while (true) {
                if (i >= s.length()) {
                    throw error("unterminated string");
                }
                char c = s.charAt(i++);
                if (c == '"') {
                    return sb.toString();
                }
                if (c == '\\') {
                    char e = s.charAt(i++);
                    switch (e) {
                        case '"', '\\', '/' -> sb.append(e);
                        case 'n' -> sb.append('\n');
                        case 't' -> sb.append('\t');
                        case 'u' -> {
                            sb.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                            i += 4;
                        }
                        default -> throw error("unsupported escape \\" + e);
                    }
                } else {
                    sb.append(c);
                }
            }
        }

        private char peek() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
            return i < s.length() ? s.charAt(i) : 0;
        }

        private boolean take(char c) {
            if (peek() == c) {
                i++;
                return true;
            }
            return false;
        }

        private void expect(char c) {
            if (!take(c)) {
                throw error("expected '" + c + "'");
            }
        }

        private IllegalArgumentException error(String what) {
            return new IllegalArgumentException(what + " at column " + i + " of: " + s);
        }
    }
}

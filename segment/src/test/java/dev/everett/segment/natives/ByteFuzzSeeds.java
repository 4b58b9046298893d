package dev.everett.segment.natives;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.api.BackspaceCode;
import dev.everett.api.CommonWidthRule;
import dev.everett.api.Policy;
import dev.everett.api.Unit;
import dev.everett.api.ValueGrammar;
import dev.everett.api.ValueWidth;
import dev.everett.segment.bits.EliasFano;
import dev.everett.segment.io.Envelope;
import dev.everett.segment.io.LittleEndian;
import dev.everett.segment.testing.Rec;
import dev.everett.segment.testing.SegmentFixtures;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;
import java.util.zip.CRC32C;

/**
 * The byte-unit seeds of {@link NativeFuzzCorpusTest}: valid files written by
 * {@link NativeWriter} under a handful of policies, one valid but non-canonical file, and
 * targeted mutations of valid files (most with both checksums recomputed so they reach the
 * decoder behind them).
 */
final class ByteFuzzSeeds {
    private ByteFuzzSeeds() {
    }

    // ---------------------------------------------------------------------------------------

    /** Target method name → file name → bytes. */
    static Map<String, Map<String, byte[]>> corpus(Path scratch) throws IOException {
        Map<String, byte[]> valid = validFiles(scratch);
        Map<String, byte[]> mutants = mutants(valid);

        Map<String, byte[]> raw = new LinkedHashMap<>();
        valid.forEach((name, bytes) -> {
            if (!name.startsWith("sparse")) {
                raw.put("valid-" + name + ".kv", bytes);
            }
        });
        mutants.forEach((name, bytes) -> raw.put("mut-" + name + ".kv", bytes));
        rawOnlyMutants(valid).forEach((name, bytes) -> raw.put("mut-" + name + ".kv", bytes));

        Map<String, byte[]> repaired = new LinkedHashMap<>();
        valid.forEach((name, bytes) -> repaired.put("valid-" + name + ".kv", bytes));
        mutants.forEach((name, bytes) -> repaired.put("mut-" + name + ".kv", bytes));

        Map<String, Map<String, byte[]>> out = new LinkedHashMap<>();
        out.put("rawBytes", raw);
        out.put("crcRepaired", repaired);
        return out;
    }

    private static Policy policy(int w, long k, ValueWidth width, ValueGrammar grammar) {
        return new Policy(Unit.BYTE, w, k, width, BackspaceCode.VARINT, grammar);
    }

    /** Files our writer produces (plus one hand-encoded non-canonical file). */
    static Map<String, byte[]> validFiles(Path scratch) throws IOException {
        Map<String, byte[]> out = new LinkedHashMap<>();
        Policy opt15 = Policy.defaultBytes();
        Policy raw15 = opt15.withGrammar(ValueGrammar.RAW);

        out.put("empty-w15-optional", write(scratch, opt15, CommonWidthRule.policy(), List.of()));
        out.put("empty-w15-raw-common0", write(scratch, raw15, CommonWidthRule.infer(), List.of()));
        out.put("empty-w2-raw-fixed4", write(scratch, policy(2, 15, ValueWidth.fixed(4), ValueGrammar.RAW), CommonWidthRule.policy(), List.of()));
        out.put("example-w15-optional", write(scratch, opt15, CommonWidthRule.policy(), WorkedExampleTest.RECORDS));
        out.put("example-w2-optional", write(scratch, opt15.withBlockWidth(2), CommonWidthRule.policy(), WorkedExampleTest.RECORDS));
        out.put("example-w1-k3-optional", write(scratch, policy(1, 3, ValueWidth.variable(), ValueGrammar.OPTIONAL), CommonWidthRule.policy(), WorkedExampleTest.RECORDS));
        out.put("mixed-w1-optional", write(scratch, opt15.withBlockWidth(1), CommonWidthRule.policy(), mixed(40, true)));
        out.put("mixed-w2-optional", write(scratch, opt15.withBlockWidth(2), CommonWidthRule.policy(), mixed(40, true)));
        out.put("mixed-w15-optional", write(scratch, opt15, CommonWidthRule.policy(), mixed(40, true)));
        out.put("mixed-w2-raw", write(scratch, raw15.withBlockWidth(2), CommonWidthRule.policy(), mixed(40, false)));
        out.put("mixed-w7-k7-raw", write(scratch, policy(7, 7, ValueWidth.variable(), ValueGrammar.RAW), CommonWidthRule.policy(), mixed(30, false)));
        out.put("uniform-w15-raw-inferred3", write(scratch, raw15, CommonWidthRule.infer(), uniform(30, 3, false)));
        out.put("uniform-w2-optional-promised5", write(scratch, opt15.withBlockWidth(2), CommonWidthRule.promised(5), uniform(20, 4, false)));
        out.put("fixed4-w2-raw", write(scratch, policy(2, 15, ValueWidth.fixed(4), ValueGrammar.RAW), CommonWidthRule.policy(), uniform(25, 4, false)));
        out.put("fixed3-w15-optional", write(scratch, policy(15, 15, ValueWidth.fixed(3), ValueGrammar.OPTIONAL), CommonWidthRule.policy(), uniform(25, 2, false)));
        out.put("fixed0-w1-raw", write(scratch, policy(1, 15, ValueWidth.fixed(0), ValueGrammar.RAW), CommonWidthRule.policy(), uniform(20, 0, false)));
        out.put("tombstones-w2-optional-promised1", write(scratch, opt15.withBlockWidth(2), CommonWidthRule.promised(1), uniform(12, 0, true)));
        out.put("long-w2-optional", write(scratch, opt15.withBlockWidth(2), CommonWidthRule.policy(), longRecords()));
        out.put("many-w1-raw", write(scratch, raw15.withBlockWidth(1), CommonWidthRule.policy(), counter(300, 1)));

        // Valid but not canonical: record 3 keeps no prefix although it shares one.
        byte[] conservative = HandEncoder.encode(opt15.withBlockWidth(2), -1, mixed(12, true), 3);
        out.put("conservative-w2-optional", conservative);

        // A sparse Elias–Fano group: thousands of small blocks, then one large jump.
        List<Rec> sparse = counter(4200, 0);
        List<Rec> withJump = new ArrayList<>(sparse);
        Rec big = withJump.get(3000);
        withJump.set(3000, new Rec(big.key(), new byte[15_000]));
        out.put("sparse-w1-raw", write(scratch, raw15.withBlockWidth(1), CommonWidthRule.policy(), withJump));
        return out;
    }

    private static byte[] write(Path scratch, Policy policy, CommonWidthRule rule, List<Rec> records) throws IOException {
        Path file = scratch.resolve("seed.kv");
        Files.deleteIfExists(file);
        SegmentFixtures.write(file, policy, rule, records);
        byte[] bytes = Files.readAllBytes(file);
        if (rule.kind() != CommonWidthRule.Kind.INFER) {
            // The hand encoder and the writer agree on canonical files; the mutants below rely on the offsets.
            long width = policy.valueWidth().isFixed() ? policy.valueWidth().units()
                    : rule.kind() == CommonWidthRule.Kind.PROMISED ? rule.width() : -1;
            assertArrayEquals(bytes, HandEncoder.encode(policy, width, records, -1), "hand encoder vs writer");
        }
        return bytes;
    }

    /** Keys with shared prefixes of every length, tombstones (if optional), empty and long values. */
    static List<Rec> mixed(int n, boolean optional) {
        Random rnd = new Random(20_250_101L + n);
        List<byte[]> keys = new ArrayList<>();
        String[] stems = {"", "a", "ab", "abc", "apple", "apricot", "b", "band", "banana", "z\u00ff", "\u0000"};
        for (String stem : stems) {
            keys.add(Rec.bytes(stem));
            for (int i = 0; i < 3; i++) {
                keys.add(Rec.bytes(stem + (char) ('a' + rnd.nextInt(4)) + (char) rnd.nextInt(256)));
            }
        }
        keys.sort(Arrays::compareUnsigned);
        List<Rec> out = new ArrayList<>();
        byte[] prev = null;
        for (byte[] k : keys) {
            if (prev != null && Arrays.equals(prev, k)) {
                continue;
            }
            prev = k;
            int kind = out.size() % 5;
            byte[] value = switch (kind) {
                case 0 -> optional ? null : new byte[0];
                case 1 -> new byte[0];
                case 2 -> new byte[] {(byte) rnd.nextInt(256)};
                case 3 -> Rec.bytes("value-" + out.size());
                default -> new byte[130 + rnd.nextInt(10)];
            };
            out.add(new Rec(k, value));
            if (out.size() == n) {
                break;
            }
        }
        return out;
    }

    /** Keys 0001, 0002, … (big-endian) with every encoded value the same width. */
    static List<Rec> uniform(int n, int valueBytes, boolean tombstones) {
        List<Rec> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            byte[] key = {(byte) (i >> 8), (byte) i, (byte) (i * 7)};
            byte[] value = new byte[valueBytes];
            Arrays.fill(value, (byte) i);
            out.add(new Rec(key, tombstones ? null : value));
        }
        return out;
    }

    /** {@code n} two-byte counter keys with values of {@code valueBytes}. */
    static List<Rec> counter(int n, int valueBytes) {
        List<Rec> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new Rec(new byte[] {(byte) (i >> 8), (byte) i}, new byte[valueBytes]));
        }
        return out;
    }

    /** Keys and values long enough for two-byte varints. */
    static List<Rec> longRecords() {
        byte[] k = new byte[300];
        Arrays.fill(k, (byte) 'k');
        byte[] k2 = Arrays.copyOf(k, 450);
        k2[299] = 'l';
        byte[] k3 = Arrays.copyOf(k2, 451);
        byte[] v = new byte[200];
        Arrays.fill(v, (byte) 'v');
        return List.of(new Rec(new byte[] {'a'}, v), new Rec(k, new byte[0]), new Rec(k2, null), new Rec(k3, v));
    }

    // ---------------------------------------------------------------------------------------
    // Mutations

    /** Byte offsets in a KV02 file: the body (directory) starts at 96, the FC stream at 224. */
    private static final int DIR = 96;
    private static final int FC = 96 + 128;

    /** Targeted corruptions of valid files, both checksums recomputed afterwards. */
    static Map<String, byte[]> mutants(Map<String, byte[]> valid) {
        Map<String, byte[]> out = new LinkedHashMap<>();
        byte[] m = valid.get("mixed-w2-optional");
        byte[] fixed = valid.get("fixed4-w2-raw");
        byte[] empty = valid.get("empty-w15-optional");
        byte[] many = valid.get("many-w1-raw");
        byte[] example = valid.get("example-w15-optional");

        // Envelope.
        out.put("env-magic-diet", mutate(m, b -> b[0] = 'D'));
        out.put("env-magic-index", mutate(m, b -> { b[5] = 'I'; b[6] = 'X'; }));
        out.put("env-version2", mutate(m, b -> b[8] = 2));
        out.put("env-header-length95", mutate(m, b -> b[10] = 95));
        out.put("env-flag-bit2", mutate(m, b -> b[12] = 4));
        out.put("env-common-flag-on-variable", mutate(m, b -> b[12] = 2));
        out.put("env-fixed-flag-off", mutate(fixed, b -> b[12] = 2));
        out.put("env-unit-bit", mutate(m, b -> b[16] = 1));
        out.put("env-unit2", mutate(m, b -> b[16] = 2));
        out.put("env-checksum-kind2", mutate(m, b -> b[17] = 2));
        out.put("env-backspace-golomb", mutate(m, b -> { b[18] = 1; b[88] = 3; }));
        out.put("env-reserved19", mutate(m, b -> b[19] = 1));
        out.put("env-w0", mutate(m, b -> LittleEndian.putU32(b, 20, 0)));
        out.put("env-w3", mutate(m, b -> LittleEndian.putU32(b, 20, 3)));
        out.put("env-w-huge", mutate(m, b -> LittleEndian.putU32(b, 20, 0xFFFF_FFFFL)));
        out.put("env-k5", mutate(m, b -> LittleEndian.putU64(b, 24, 5)));
        out.put("env-k7", mutate(m, b -> LittleEndian.putU64(b, 24, 7)));
        out.put("env-policy-width-without-flag", mutate(m, b -> b[32] = 4));
        out.put("env-policy-width5", mutate(fixed, b -> b[32] = 5));
        out.put("env-common-width5", mutate(fixed, b -> b[40] = 5));
        out.put("env-common-width-huge-empty", mutate(empty, b -> { b[12] = 2; LittleEndian.putU64(b, 40, -1L); }));
        out.put("env-common-width-2p63-empty", mutate(empty, b -> { b[12] = 2; LittleEndian.putU64(b, 40, Long.MIN_VALUE); }));
        out.put("env-policy-width-huge-empty", mutate(empty, b -> { b[12] = 3; LittleEndian.putU64(b, 32, -2L); LittleEndian.putU64(b, 40, -2L); }));
        out.put("env-extent-plus1", mutate(m, b -> LittleEndian.putU64(b, 48, u64(b, 48) + 1)));
        out.put("env-count-plus1", mutate(m, b -> LittleEndian.putU64(b, 56, u64(b, 56) + 1)));
        out.put("env-count-minus1", mutate(m, b -> LittleEndian.putU64(b, 56, u64(b, 56) - 1)));
        out.put("env-count-2p63", mutate(m, b -> LittleEndian.putU64(b, 56, Long.MIN_VALUE)));
        out.put("env-count-huge-w-huge", mutate(example, b -> { LittleEndian.putU32(b, 20, 0x7FFF_FFFFL); LittleEndian.putU64(b, 56, 0x7FFF_FFFEL); }));
        out.put("env-body-offset97", mutate(m, b -> b[72] = 97));
        out.put("env-total-minus1", mutate(m, b -> LittleEndian.putU64(b, 80, u64(b, 80) - 1)));
        out.put("env-short95", repair(Arrays.copyOf(m, 95)));
        out.put("env-truncated1", repair(Arrays.copyOf(m, m.length - 1)));
        out.put("env-trailing1", repair(Arrays.copyOf(m, m.length + 1)));
        out.put("env-header-only", repair(withSizes(Arrays.copyOf(empty, 96), 0)));

        // Directory.
        out.put("dir-magic-kv01", mutate(m, b -> b[DIR + 3] = '1'));
        out.put("dir-magic-kv03", mutate(m, b -> b[DIR + 3] = '3'));
        out.put("dir-version3", mutate(m, b -> b[DIR + 4] = 3));
        out.put("dir-sections4", mutate(m, b -> b[DIR + 6] = 4));
        out.put("dir-fc-extent-plus1", mutate(m, b -> LittleEndian.putU64(b, DIR + 8, u64(b, DIR + 8) + 1)));
        out.put("dir-terminal-plus1", mutate(m, b -> LittleEndian.putU64(b, DIR + 16, u64(b, DIR + 16) + 1)));
        out.put("dir-terminal-empty1", mutate(empty, b -> b[DIR + 16] = 1));
        out.put("dir-universe-plus1", mutate(m, b -> LittleEndian.putU64(b, DIR + 24, u64(b, DIR + 24) + 1)));
        out.put("dir-low-width-plus1", mutate(m, b -> b[DIR + 32]++));
        out.put("dir-low-width64", mutate(m, b -> b[DIR + 32] = 64));
        out.put("dir-reserved40", mutate(m, b -> b[DIR + 40] = 1));
        out.put("dir-fc-offset-plus8", mutate(m, b -> b[DIR + 48] += 8));
        out.put("dir-fc-length-plus1", mutate(m, b -> b[DIR + 56]++));
        out.put("dir-sparse-length8", mutate(m, b -> b[DIR + 48 + 16 * 4 + 8] = 8));

        // Elias–Fano sections of a file with 21 blocks, and of one with two sample groups.
        int low = sectionOffset(m, 1);
        int high = sectionOffset(m, 2);
        int samples = sectionOffset(m, 3);
        out.put("ef-low-bit", mutate(m, b -> b[low + 1] ^= 0x10));
        out.put("ef-high-bit-cleared", mutate(m, b -> b[high] &= (byte) ~0x02));
        out.put("ef-high-bit-extra", mutate(m, b -> b[high + sectionLength(m, 2) - 1] |= (byte) 0x80));
        out.put("ef-sample-first-plus1", mutate(m, b -> b[samples]++));
        out.put("ef-sample-sparse0", mutate(m, b -> LittleEndian.putU64(b, samples + 8, 0)));
        int manySamples = sectionOffset(many, 3);
        out.put("ef-second-sample-first-plus1", mutate(many, b -> b[manySamples + 16]++));
        out.put("ef-second-sample-sparse1", mutate(many, b -> LittleEndian.putU64(b, manySamples + 24, 1)));
        int manyHigh = sectionOffset(many, 2);
        out.put("ef-high-word0-zero", mutate(many, b -> LittleEndian.putU64(b, manyHigh, 0)));
        out.put("ef-gap-nonzero", mutate(example, b -> b[FC + 37] = 1));

        // FC records (mixed-w2-optional starts with key "" then "\0…", example with "apple").
        out.put("fc-record0-abs1", mutate(example, b -> b[FC] = 1));
        out.put("fc-backspace-too-long", mutate(example, b -> b[FC + 12] = 6));
        out.put("fc-suffix-zero", mutate(example, b -> b[FC + 13] = 0));
        out.put("fc-suffix-past-end", mutate(example, b -> b[FC + 13] = 0x7F));
        out.put("fc-vlen-past-end", mutate(example, b -> b[FC + 2] = 0x7F));
        out.put("fc-vlen-zero-optional", mutate(example, b -> b[FC + 14] = 0));
        out.put("fc-varint-noncanonical", mutate(example, b -> { b[FC + 12] = (byte) 0x83; b[FC + 13] = 0; }));
        out.put("fc-varint-eleven-bytes", mutate(example, b -> Arrays.fill(b, FC, FC + 12, (byte) 0xFF)));
        out.put("fc-tag2", mutate(example, b -> b[FC + 8] = 2));
        out.put("fc-tombstone-with-bytes", mutate(example, b -> b[FC + 35] = 0));
        out.put("fc-keys-out-of-order", mutate(example, b -> b[FC + 3] = 'z'));
        out.put("fc-conservative-out-of-order", mutate(example, b -> b[FC + 15] = 'p'));
        return out;
    }

    /** Corruptions the raw target sees as they are: checksums left stale, empty and short inputs. */
    static Map<String, byte[]> rawOnlyMutants(Map<String, byte[]> valid) {
        Map<String, byte[]> out = new LinkedHashMap<>();
        byte[] m = valid.get("mixed-w2-optional");
        out.put("raw-empty-input", new byte[0]);
        out.put("raw-one-byte", new byte[] {'E'});
        out.put("raw-header-prefix95", Arrays.copyOf(m, 95));
        out.put("raw-stale-header-crc", flip(m, 20));
        out.put("raw-stale-body-crc", flip(m, FC + 5));
        out.put("raw-truncated", Arrays.copyOf(m, m.length / 2));
        return out;
    }

    private static byte[] flip(byte[] b, int at) {
        byte[] c = b.clone();
        c[at] ^= 1;
        return c;
    }

    private static byte[] mutate(byte[] base, Consumer<byte[]> change) {
        byte[] b = base.clone();
        change.accept(b);
        return repair(b);
    }

    private static byte[] repair(byte[] b) {
        return NativeFuzzTest.repairChecksums(b);
    }

    /** Sets the envelope size fields for a body of {@code bodyBytes}. */
    private static byte[] withSizes(byte[] b, long bodyBytes) {
        LittleEndian.putU64(b, 48, bodyBytes);
        LittleEndian.putU64(b, 80, 96 + bodyBytes);
        return b;
    }

    private static int sectionOffset(byte[] file, int slot) {
        return (int) (DIR + u64(file, DIR + 48 + 16 * slot));
    }

    private static int sectionLength(byte[] file, int slot) {
        return (int) u64(file, DIR + 48 + 16 * slot + 8);
    }

    private static long u64(byte[] b, int off) {
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = (v << 8) | (b[off + i] & 0xFF);
        }
        return v;
    }

    // ---------------------------------------------------------------------------------------

    /**
     * An independent, in-memory KV02 byte encoder for seeds the writer cannot make: it can cut
     * one record's retention to 0 (valid, not canonical). With {@code conservativeAt = -1} it must
     * agree with {@link NativeWriter} byte for byte.
     */
    static final class HandEncoder {
        static byte[] encode(Policy policy, long commonWidth, List<Rec> records, int conservativeAt) {
            boolean optional = policy.grammar() == ValueGrammar.OPTIONAL;
            long stride = Math.max(0, commonWidth);
            int w = policy.blockWidth();
            ByteArrayOutputStream fc = new ByteArrayOutputStream();
            long[] residuals = new long[(int) LittleEndian.ceilDiv(records.size(), w) + 1];
            byte[] prev = new byte[0];
            for (int i = 0; i < records.size(); i++) {
                Rec r = records.get(i);
                byte[] key = r.key();
                byte[] value = r.tombstone() ? new byte[] {0}
                        : optional ? concat(new byte[] {1}, r.value()) : r.value();
                int lcp = 0;
                if (i > 0) {
                    int mm = Arrays.mismatch(prev, key);
                    lcp = mm < 0 ? key.length : mm;
                }
                int retained = i == conservativeAt ? 0 : lcp;
                if (i % w == 0) {
                    residuals[i / w] = fc.size() - (long) i * stride;
                    varint(fc, retained);
                } else {
                    varint(fc, prev.length - retained);
                }
                varint(fc, key.length - retained);
                if (commonWidth < 0) {
                    varint(fc, value.length);
                }
                fc.write(key, retained, key.length - retained);
                fc.write(value, 0, value.length);
                prev = key;
            }
            long extent = fc.size();
            residuals[residuals.length - 1] = extent - records.size() * stride;
            EliasFano ef = EliasFano.build(residuals, residuals.length);
            Kv02Directory dir = Kv02Directory.layout(extent, extent, records.isEmpty() ? 0 : prev.length, ef);
            byte[] body = new byte[(int) dir.bodyBytes()];
            System.arraycopy(dir.encode(), 0, body, 0, Kv02Directory.BYTES);
            System.arraycopy(fc.toByteArray(), 0, body, Kv02Directory.BYTES, (int) extent);
            putWords(body, dir.offsets()[Kv02Directory.LOW], ef.low());
            putWords(body, dir.offsets()[Kv02Directory.HIGH], ef.high());
            putWords(body, dir.offsets()[Kv02Directory.SAMPLES], ef.samples());
            putWords(body, dir.offsets()[Kv02Directory.SPARSE], ef.sparse());
            CRC32C crc = new CRC32C();
            crc.update(body);
            boolean fixed = policy.valueWidth().isFixed();
            int flags = (fixed ? Envelope.FLAG_POLICY_WIDTH : 0) | (commonWidth >= 0 ? Envelope.FLAG_COMMON_WIDTH : 0);
            Envelope env = new Envelope(Envelope.Kind.NATIVE, flags, Unit.BYTE, policy.backspace(), w, policy.groupSize(),
                    fixed ? policy.valueWidth().units() : 0, stride, body.length, records.size(), (int) crc.getValue());
            return concat(env.encode(), body);
        }

        private static void putWords(byte[] body, long at, long[] words) {
            for (int i = 0; i < words.length; i++) {
                LittleEndian.putU64(body, (int) at + 8 * i, words[i]);
            }
        }

        private static void varint(ByteArrayOutputStream out, long v) {
            while ((v & ~0x7FL) != 0) {
                out.write((int) ((v & 0x7F) | 0x80));
                v >>>= 7;
            }
            out.write((int) v);
        }

        private static byte[] concat(byte[] a, byte[] b) {
            byte[] c = Arrays.copyOf(a, a.length + b.length);
            System.arraycopy(b, 0, c, a.length, b.length);
            return c;
        }
    }
}

package dev.everett.bench;

import dev.everett.api.CommonWidthRule;
import dev.everett.api.OpenMode;
import dev.everett.api.Policy;
import dev.everett.api.SegmentCursor;
import dev.everett.api.SegmentEngine;
import dev.everett.api.SegmentInfo;
import dev.everett.api.SegmentReader;
import dev.everett.api.SegmentFormat;
import dev.everett.api.SegmentWriter;
import dev.everett.api.Unit;
import dev.everett.api.ValueGrammar;
import dev.everett.api.ValueWidth;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * The native-merge fixture of Everett (docs/benchmarks/merge.md) ({@code bench/native_encoded.cc}):
 * 4,096 records, two overlapping inputs, newer wins; byte and bit policies.
 *
 * <ul>
 *   <li>ids fixture: key {@code i} is {@code prefix × 'p'} ∥ 8-byte big-endian {@code i} ∥
 *       {@code tail} copies of the byte {@code 0x5A ^ (i & 0xFF)};</li>
 *   <li>fragments fixture (no prefix or tail), {@code depth = (n + 1) / 2}: for {@code i < depth}
 *       the key is {@code i + 1} zero bytes, otherwise {@code n − i} zero bytes whose last bit is
 *       set (last byte {@code 0x01}); deep span stacks and large truncations;</li>
 *   <li>value {@code i}: {@code w} bytes, {@code w = 8} (byte-fixed8) or {@code 8 + i % 17}
 *       (byte-variable8–24); bit {@code j} (MSB-first) is set iff {@code (i + j) % 3 != 0};</li>
 *   <li>older input: {@code i % 3 != 1}, the records with {@code i % 3 == 2} having their first
 *       value byte XOR 0x80; newer input: {@code i % 3 != 0}. The overlap is {@code i % 3 == 2} and
 *       newer wins, so the expected output is all 4,096 records with the unmodified values.</li>
 * </ul>
 *
 * <p>Policies (K = W = 15): byte-fixed8 = {@code defaultBytes()} with RAW values and
 * {@code ValueWidth.fixed(8)}; byte-variable8–24 = {@code defaultBytes()} with RAW values.
 * Files are written under {@link CommonWidthRule#policy()}.
 *
 * <p>Bit policies are KV02 with bit units ({@code stringPolicy().withFormat(KV02)}: EG0
 * backspaces) and RAW values, the counterpart of C++'s bit-unit native streams with their value
 * lengths or common width. Our keys and values are whole bytes (docs/format.md, "Bit units"), so
 * the bit fixture differs from Everett's where Everett's needs partial bytes; each difference keeps the
 * meaningful bits and pads them to a byte:
 * <ul>
 *   <li>ids keys: the byte key above, then one byte whose top 3 bits are Everett's fixture's tail
 *       ({@code 101} for odd i, {@code 010} for even) and whose low 5 bits are zero;</li>
 *   <li>fragments keys: the byte keys above (zero <em>bytes</em>, where Everett's fixture uses zero bits), so
 *       keys are 8 times as long in bits and the span stacks as deep;</li>
 *   <li>values: m meaningful bits, m = 13 (bit-fixed13) or {@code 8 + i % 17} (bit-variable8–24),
 *       with the same bit pattern, padded with zero bits to {@code ceil(m / 8)} bytes. So
 *       bit-fixed13 has a fixed 16-bit value ({@code ValueWidth.fixed(16)}, no value lengths) and
 *       bit-variable8–24 values of 8, 16 or 24 bits, each with EG0 of its length.</li>
 * </ul>
 */
public final class MergeFixture {
    public static final int N = 4096;

    private MergeFixture() {
    }

    /** A key layout: shared prefix, changing tail, or fragments. */
    public record Variant(String name, int prefix, int tail, boolean fragments) {
        public static Variant of(String name) {
            return switch (name) {
                case "prefix0" -> new Variant(name, 0, 0, false);
                case "prefix64" -> new Variant(name, 64, 0, false);
                case "prefix4096" -> new Variant(name, 4096, 0, false);
                case "tail4096" -> new Variant(name, 0, 4096, false);
                case "fragments" -> new Variant(name, 0, 0, true);
                default -> throw new IllegalArgumentException("unknown merge fixture variant " + name);
            };
        }
    }

    /** The policy of one of the fixture's policy names. */
    public static Policy policy(String name) {
        Policy raw = Policy.defaultBytes().withGrammar(ValueGrammar.RAW);
        Policy bits = Policy.stringPolicy().withFormat(SegmentFormat.KV02).withGrammar(ValueGrammar.RAW);
        return switch (name) {
            case "byte-fixed8" -> raw.withValueWidth(ValueWidth.fixed(8));
            case "byte-variable8-24" -> raw;
            case "bit-fixed13" -> bits.withValueWidth(ValueWidth.fixed(16));
            case "bit-variable8-24" -> bits;
            default -> throw new IllegalArgumentException("unknown merge fixture policy " + name);
        };
    }

    /** Key i under {@code policy}: the byte key, and for bit policies the byte holding the fixture's 3-bit tail (ids keys). */
    public static byte[] key(Policy policy, Variant v, int i) {
        byte[] k = key(v, i);
        if (policy.unit() != Unit.BIT || v.fragments()) {
            return k;
        }
        byte[] out = Arrays.copyOf(k, k.length + 1);
        out[k.length] = (byte) ((i & 1) == 1 ? 0b1010_0000 : 0b0100_0000);
        return out;
    }

    public static byte[] key(Variant v, int i) {
        if (v.fragments()) {
            int depth = (N + 1) / 2;
            if (i < depth) {
                return new byte[i + 1];
            }
            byte[] k = new byte[N - i];
            k[k.length - 1] = 1;
            return k;
        }
        byte[] k = new byte[v.prefix() + 8 + v.tail()];
        Arrays.fill(k, 0, v.prefix(), (byte) 'p');
        for (int b = 0; b < 8; b++) {
            k[v.prefix() + b] = (byte) ((long) i >>> (56 - 8 * b));
        }
        Arrays.fill(k, v.prefix() + 8, k.length, (byte) (0x5A ^ (i & 0xFF)));
        return k;
    }

    /** The expected (newer, unmodified) value of record i. */
    public static byte[] value(Policy policy, int i) {
        boolean bits = policy.unit() == Unit.BIT;
        int meaningful = bits ? (policy.valueWidth().isFixed() ? 13 : 8 + i % 17)
                : 8 * (policy.valueWidth().isFixed() ? (int) policy.valueWidth().units() : 8 + i % 17);
        byte[] out = new byte[(meaningful + 7) / 8];
        for (int j = 0; j < meaningful; j++) {
            if ((i + j) % 3 != 0) {
                out[j >>> 3] |= (byte) (0x80 >>> (j & 7));
            }
        }
        return out;
    }

    /** Writes the older input (i % 3 != 1; i % 3 == 2 with the first value byte ^ 0x80). */
    public static SegmentInfo writeOlder(SegmentEngine engine, Path target, Policy policy, Variant v) throws IOException {
        try (SegmentWriter w = engine.newWriter(target, policy, CommonWidthRule.policy())) {
            for (int i = 0; i < N; i++) {
                if (i % 3 == 1) {
                    continue;
                }
                byte[] value = value(policy, i);
                if (i % 3 == 2) {
                    value[0] ^= (byte) 0x80;
                }
                w.put(key(policy, v, i), value);
            }
            return w.finish();
        }
    }

    /** Writes the newer input (i % 3 != 0). */
    public static SegmentInfo writeNewer(SegmentEngine engine, Path target, Policy policy, Variant v) throws IOException {
        try (SegmentWriter w = engine.newWriter(target, policy, CommonWidthRule.policy())) {
            for (int i = 0; i < N; i++) {
                if (i % 3 != 0) {
                    w.put(key(policy, v, i), value(policy, i));
                }
            }
            return w.finish();
        }
    }

    /**
     * Opens {@code merged}, walks it once and checks it holds exactly the 4,096 expected records
     * (every key with its newer value), and verifies the file.
     *
     * @throws IllegalStateException at the first difference
     */
    public static void check(SegmentEngine engine, Path merged, Policy policy, Variant v) throws IOException {
        try (SegmentReader r = engine.open(merged, policy, OpenMode.TYPED); SegmentCursor c = r.cursor()) {
            int n = 0;
            while (c.next()) {
                if (n >= N) {
                    throw new IllegalStateException(merged + ": more than " + N + " records");
                }
                byte[] key = key(policy, v, n);
                byte[] value = value(policy, n);
                if (!Arrays.equals(c.keyBytes(), key) || !Arrays.equals(c.valueBytes(), value)) {
                    throw new IllegalStateException(merged + ": record " + n + " is (" + hex(c.keyBytes()) + ", "
                            + hex(c.valueBytes()) + "), expected (" + hex(key) + ", " + hex(value) + ")");
                }
                n++;
            }
            if (n != N || r.recordCount() != N) {
                throw new IllegalStateException(merged + ": " + n + " records walked, " + r.recordCount() + " counted, expected " + N);
            }
            r.verify();
        }
    }

    /** Throws unless the two files have the same bytes. */
    public static void checkSameBytes(Path a, Path b) throws IOException {
        long m = Files.mismatch(a, b);
        if (m != -1) {
            throw new IllegalStateException(a + " and " + b + " differ at byte " + m + " (" + Files.size(a) + " vs " + Files.size(b) + " bytes)");
        }
    }

    private static String hex(byte[] b) {
        if (b == null) {
            return "tombstone";
        }
        String h = HexFormat.of().formatHex(b, 0, Math.min(b.length, 24));
        return b.length > 24 ? h + "…(" + b.length + " bytes)" : h;
    }
}

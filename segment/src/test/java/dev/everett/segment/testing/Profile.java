package dev.everett.segment.testing;

import dev.everett.api.BackspaceCode;
import dev.everett.api.Policy;
import dev.everett.api.SegmentFormat;
import dev.everett.api.ValueGrammar;
import dev.everett.segment.bits.BitStrings;
import dev.everett.segment.bits.OrderedStrings;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * The three native profiles tests run under: byte-unit KV02, KV02 with bit units, and KV03 (bit
 * units, Everett's string policy). Each knows its base policy, how to draw a random backspace code,
 * what width a value encodes to, and how a record's retained prefix and suffix look in host terms
 * (what {@code recordAt} reports: bytes, or bits of the key without a sort code).
 */
public enum Profile {
    BYTES(Policy.defaultBytes()),
    KV02_BITS(Policy.stringPolicy().withFormat(SegmentFormat.KV02)),
    KV03(Policy.stringPolicy());

    private final Policy base;

    Profile(Policy base) {
        this.base = base;
    }

    /** The profile's default policy: K = W = 15, variable optional values. */
    public Policy base() {
        return base;
    }

    public boolean bits() {
        return this != BYTES;
    }

    /** The profile of a policy. */
    public static Profile of(Policy p) {
        if (p.unit() == dev.everett.api.Unit.BYTE) {
            return BYTES;
        }
        return p.format() == SegmentFormat.KV03 ? KV03 : KV02_BITS;
    }

    /**
     * This profile's base policy with a random group size (3, 7, 15 or 31), a random block width
     * in [1, {@code maxBlockWidth}] and a random backspace code, drawn in that order.
     */
    public Policy randomShape(Random rnd, int maxBlockWidth) {
        long k = new long[] {3, 7, 15, 31}[rnd.nextInt(4)];
        int w = 1 + rnd.nextInt(maxBlockWidth);
        return withRandomBackspace(base(), rnd).withGroupSize(k).withBlockWidth(w);
    }

    /** A random backspace code: EG order 0–5 or Golomb with modulus 1–9 (bit units; bytes keep the varint). */
    public Policy withRandomBackspace(Policy p, Random rnd) {
        if (!bits()) {
            return p;
        }
        BackspaceCode code = rnd.nextInt(3) == 0 ? BackspaceCode.golomb(1 + rnd.nextInt(9)) : BackspaceCode.expGolomb(rnd.nextInt(6));
        return p.withBackspace(code);
    }

    /** The width of an encoded value, in policy units. */
    public long encodedWidth(ValueGrammar grammar, Rec r) {
        if (!bits()) {
            return RecordGen.encodedWidth(grammar, r);
        }
        if (r.tombstone()) {
            return 1;
        }
        long n = r.value().length;
        long string = eg0Bits(n) + 8 * n;
        if (grammar == ValueGrammar.OPTIONAL) {
            return 1 + string;
        }
        return this == KV03 ? string : 8 * n;
    }

    static long eg0Bits(long v) {
        return 2L * (64 - Long.numberOfLeadingZeros(v + 1)) - 1;
    }

    /**
     * The key as the file stores it after any sort code: the host key, or for KV02 in bits its
     * ordered string form. recordAt's lengths, retained prefixes and suffixes are of this form.
     */
    public byte[] stored(byte[] key) {
        return this == KV02_BITS ? OrderedStrings.encode(key, key.length) : key;
    }

    /** The retained prefix of {@code key} after {@code previous}, maximal, in units of the stored keys. */
    public long lcp(byte[] previous, byte[] key) {
        if (!bits()) {
            return Kv02Bytes.lcp(previous, key);
        }
        byte[] a = stored(previous);
        byte[] b = stored(key);
        return BitStrings.commonPrefixBits(a, a.length, b, b.length);
    }

    /** The exact maximal retention of each record in host units (0 for record 0). */
    public long[] maximalRetention(List<Rec> records) {
        long[] retained = new long[records.size()];
        for (int i = 1; i < retained.length; i++) {
            retained[i] = lcp(records.get(i - 1).key(), records.get(i).key());
        }
        return retained;
    }

    /** A key's stored length in units. */
    public long keyUnits(byte[] key) {
        return bits() ? 8L * stored(key).length : key.length;
    }

    /** What recordAt's suffix holds for a key that keeps {@code retained} units of its stored form. */
    public byte[] suffix(byte[] hostKey, long retained) {
        if (!bits()) {
            return Arrays.copyOfRange(hostKey, (int) retained, hostKey.length);
        }
        byte[] key = stored(hostKey);
        long n = 8L * key.length - retained;
        byte[] out = new byte[(int) ((n + 7) / 8)];
        BitStrings.copy(key, retained, out, 0, n);
        return out;
    }

    /** The whole file for {@code records}, built by hand (see {@link Kv02Bytes} and {@link BitSegmentBytes}). */
    public byte[] build(Policy policy, List<Rec> records, long[] retained) {
        if (!bits()) {
            int[] r = new int[retained.length];
            for (int i = 0; i < r.length; i++) {
                r[i] = Math.toIntExact(retained[i]);
            }
            return Kv02Bytes.build(policy, records, r);
        }
        return BitSegmentBytes.build(policy, records, retained, null);
    }
}

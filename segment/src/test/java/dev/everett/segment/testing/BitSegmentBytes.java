package dev.everett.segment.testing;

import dev.everett.api.BackspaceCode;
import dev.everett.api.Policy;
import dev.everett.api.SegmentFormat;
import dev.everett.api.Unit;
import dev.everett.api.ValueGrammar;
import dev.everett.segment.bits.BitOutput;
import dev.everett.segment.bits.EliasFano;
import dev.everett.segment.bits.OrderedStrings;
import dev.everett.segment.io.Envelope;
import dev.everett.segment.io.LittleEndian;
import dev.everett.segment.natives.Kv02Directory;
import dev.everett.segment.natives.Kv03Directory;
import dev.everett.segment.natives.NativeDirectory;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Builds bit-unit native files (KV02 bit and KV03) by hand, independently of the writer and of
 * {@code BitOutput}: the records are spelled bit by bit into a plain bit sink, so tests can make
 * files our writer never would (records that keep less than the whole shared prefix, keys out of
 * order, and in KV03 a record that spells its sort code again) and check the writer against an
 * encoder of their own. The directory, the Elias–Fano sections and the envelope come from the
 * same package-private encoders the writer uses. Variable-width policies; KV02 bit files record no
 * common width, KV03 files the one their values have, if any (as Everett's KV03 encoder does).
 */
public final class BitSegmentBytes {
    // Its Golomb and Exp-Golomb writers repeat BitOutput's on purpose: an oracle sharing the writer's code could not catch its bugs.
    private BitSegmentBytes() {
    }

    /** A growable MSB-first bit string, one bit at a time. */
    static final class Sink {
        byte[] bytes = new byte[64];
        long bits;

        void bit(int b) {
            if ((bits >>> 3) >= bytes.length) {
                bytes = Arrays.copyOf(bytes, bytes.length * 2);
            }
            if (b != 0) {
                bytes[(int) (bits >>> 3)] |= (byte) (0x80 >>> (bits & 7));
            }
            bits++;
        }

        /** The low {@code n} bits of {@code v}, most significant first. */
        void number(long v, int n) {
            for (int i = n - 1; i >= 0; i--) {
                bit((int) ((v >>> i) & 1));
            }
        }

        void eg0(long v) {
            long x = v + 1;
            int b = 64 - Long.numberOfLeadingZeros(x);
            number(0, b - 1);
            number(x, b);
        }

        void backspace(BackspaceCode code, long v) {
            if (code.code() == BackspaceCode.EXP_GOLOMB) {
                int k = (int) code.parameter();
                eg0(v >>> k);
                number(v, k);
                return;
            }
            long m = code.parameter();
            for (long q = v / m; q > 0; q--) {
                bit(0);
            }
            bit(1);
            long r = v % m;
            int b = 64 - Long.numberOfLeadingZeros(m - 1);
            long cutoff = (1L << b) - m;
            if (r < cutoff) {
                number(r, b - 1);
            } else {
                number(r + cutoff, b);
            }
        }

        void bitsOf(byte[] src, long from, long n) {
            for (long i = from; i < from + n; i++) {
                bit((src[(int) (i >>> 3)] >>> (7 - (int) (i & 7))) & 1);
            }
        }

        byte[] toBytes() {
            return Arrays.copyOf(bytes, (int) ((bits + 7) >>> 3));
        }
    }

    /** The encoded value bits of a record under the policy's grammar and format. */
    static void value(Sink s, Policy policy, Rec r) {
        boolean optional = policy.grammar() == ValueGrammar.OPTIONAL;
        if (optional) {
            s.bit(r.tombstone() ? 0 : 1);
            if (r.tombstone()) {
                return;
            }
        }
        if (optional || policy.format() == SegmentFormat.KV03) {
            s.eg0(r.value().length);
        }
        s.bitsOf(r.value(), 0, 8L * r.value().length);
    }

    /**
     * The whole file for {@code records} in the given order. Record i keeps {@code retained[i]}
     * bits of the previous key's stored form after the sort code (KV03: the host key; KV02: its
     * ordered string form; a KV02 record 0 keeps nothing and spells the code). In KV03,
     * {@code respell[i]} (record i not a block start, retained 0) makes the record back up over its
     * whole predecessor, sort code included, and spell the code {@code 0} again.
     */
    public static byte[] build(Policy policy, List<Rec> records, long[] retained, boolean[] respell) {
        if (policy.unit() != Unit.BIT || policy.valueWidth().isFixed()) {
            throw new IllegalArgumentException("only bit-unit, variable-width policies: " + policy);
        }
        boolean kv03 = policy.format() == SegmentFormat.KV03;
        // Both formats store the string sort's code 0 in front; KV02 then the ordered string form.
        int path = 1;
        int w = policy.blockWidth();
        int blocks = Math.ceilDiv(records.size(), w);
        long[] residuals = new long[blocks + 1];
        Sink fc = new Sink();
        long previousBits = 0;
        for (int i = 0; i < records.size(); i++) {
            Rec r = records.get(i);
            byte[] key = kv03 ? r.key() : OrderedStrings.encode(r.key(), r.key().length);
            long length = path + 8L * key.length;
            boolean again = respell != null && respell[i];
            long keep = again ? path : kv03 || i > 0 ? path + retained[i] : 0;
            if (i % w == 0) {
                residuals[i / w] = fc.bits;
                fc.eg0(keep);
            } else if (again) {
                fc.backspace(policy.backspace(), previousBits);
                fc.bit(0);
            } else {
                fc.backspace(policy.backspace(), previousBits - keep);
            }
            fc.eg0(length - keep);
            if (!kv03) {
                Sink v = new Sink();
                value(v, policy, r);
                fc.eg0(v.bits);
            }
            if (keep < path) {
                fc.bit(0);
                fc.bitsOf(key, 0, length - path);
            } else {
                fc.bitsOf(key, keep - path, length - keep);
            }
            value(fc, policy, r);
            previousBits = length;
        }
        long extent = fc.bits;
        residuals[blocks] = extent;
        // KV03 records a common width whenever every value has one (Everett's sort-profile
        // encoder), 0 for no records; the residuals lose the stride ordinal × width.
        long common = kv03 ? commonWidth(policy, records) : -1;
        if (common > 0) {
            for (int j = 0; j < blocks; j++) {
                residuals[j] -= (long) j * w * common;
            }
            residuals[blocks] -= records.size() * common;
        }
        EliasFano ef = EliasFano.build(residuals, residuals.length);
        byte[] payload = fc.toBytes();
        long terminal = records.isEmpty() ? 0 : previousBits;
        byte[] body;
        if (kv03) {
            Kv03Directory dir = Kv03Directory.layout(extent, terminal, ef, !records.isEmpty());
            body = new byte[Math.toIntExact(dir.bodyBytes())];
            System.arraycopy(dir.encode(), 0, body, 0, Kv03Directory.BYTES);
            System.arraycopy(payload, 0, body, Kv03Directory.BYTES, payload.length);
            efWords(body, dir, ef);
            long[] offsets = dir.dictionaryOffsets();
            words(body, dir.offsets()[Kv03Directory.DICTIONARY_OFFSETS], offsets);
        } else {
            Kv02Directory dir = Kv02Directory.layout(extent, payload.length, terminal, ef);
            body = new byte[Math.toIntExact(dir.bodyBytes())];
            System.arraycopy(dir.encode(), 0, body, 0, Kv02Directory.BYTES);
            System.arraycopy(payload, 0, body, Kv02Directory.BYTES, payload.length);
            efWords(body, dir, ef);
        }
        CRC32C crc = new CRC32C();
        crc.update(body);
        Envelope env = new Envelope(Envelope.Kind.NATIVE, common >= 0 ? Envelope.FLAG_COMMON_WIDTH : 0, Unit.BIT,
                policy.backspace(), w, policy.groupSize(), 0, Math.max(0, common), 8L * body.length, records.size(),
                (int) crc.getValue());
        byte[] file = Arrays.copyOf(env.encode(), Envelope.BYTES + body.length);
        System.arraycopy(body, 0, file, Envelope.BYTES, body.length);
        return file;
    }

    /** KV03's discovered common width: the one width every encoded value has, 0 without records, else -1. */
    static long commonWidth(Policy policy, List<Rec> records) {
        long width = records.isEmpty() ? 0 : -2;
        for (Rec r : records) {
            Sink v = new Sink();
            value(v, policy, r);
            if (width == -2) {
                width = v.bits;
            } else if (width != v.bits) {
                return -1;
            }
        }
        return width;
    }

    private static void efWords(byte[] body, NativeDirectory dir, EliasFano ef) {
        words(body, dir.offsets()[NativeDirectory.LOW], ef.low());
        words(body, dir.offsets()[NativeDirectory.HIGH], ef.high());
        words(body, dir.offsets()[NativeDirectory.SAMPLES], ef.samples());
        words(body, dir.offsets()[NativeDirectory.SPARSE], ef.sparse());
    }

    private static void words(byte[] body, long at, long[] words) {
        for (int i = 0; i < words.length; i++) {
            LittleEndian.putU64(body, Math.toIntExact(at + 8L * i), words[i]);
        }
    }
}

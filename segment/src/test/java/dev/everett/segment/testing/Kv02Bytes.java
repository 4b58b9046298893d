package dev.everett.segment.testing;

import dev.everett.api.Policy;
import dev.everett.api.Unit;
import dev.everett.api.ValueGrammar;
import dev.everett.segment.bits.EliasFano;
import dev.everett.segment.fc.OptionalValue;
import dev.everett.segment.io.Envelope;
import dev.everett.segment.io.LittleEndian;
import dev.everett.segment.natives.Kv02Directory;
import dev.everett.segment.natives.NativeWriter;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Builds byte-unit KV02 files by hand, independently of {@link NativeWriter}, so tests can make
 * files our writer never would: records that retain less than the whole shared prefix
 * (conservative, still valid) or keys out of order (corrupt). Everything else is canonical:
 * the envelope, the directory, the zero padding and the Elias–Fano block directory come from the
 * same package-private encoders the writer uses. Variable-width policies only; values carry VLEN.
 */
public final class Kv02Bytes {
    private Kv02Bytes() {
    }

    /** The exact maximal shared prefix of each key with its predecessor (0 for record 0). */
    static int[] maximalRetention(List<Rec> records) {
        int[] retained = new int[records.size()];
        for (int i = 1; i < retained.length; i++) {
            retained[i] = lcp(records.get(i - 1).key(), records.get(i).key());
        }
        return retained;
    }

    public static int lcp(byte[] a, byte[] b) {
        int m = Arrays.mismatch(a, b);
        return m < 0 ? a.length : m;
    }

    /**
     * The whole file for {@code records} in the given order, record i keeping {@code retained[i]}
     * bytes of its predecessor's key (which must not exceed either key's length).
     */
    static byte[] build(Policy policy, List<Rec> records, int[] retained) {
        if (policy.unit() != Unit.BYTE || policy.valueWidth().isFixed()) {
            throw new IllegalArgumentException("only byte-unit, variable-width policies: " + policy);
        }
        boolean optional = policy.grammar() == ValueGrammar.OPTIONAL;
        int w = policy.blockWidth();
        int blocks = Math.ceilDiv(records.size(), w);
        long[] residuals = new long[blocks + 1];
        ByteArrayOutputStream fc = new ByteArrayOutputStream();
        byte[] previous = new byte[0];
        for (int i = 0; i < records.size(); i++) {
            Rec r = records.get(i);
            byte[] key = r.key();
            int keep = retained[i];
            if (i % w == 0) {
                residuals[i / w] = fc.size(); // no common width, so no stride to take off
                varint(fc, keep);
            } else {
                varint(fc, previous.length - keep);
            }
            varint(fc, key.length - keep);
            varint(fc, RecordGen.encodedWidth(policy.grammar(), r));
            fc.write(key, keep, key.length - keep);
            if (optional) {
                fc.write(r.tombstone() ? OptionalValue.ABSENT : OptionalValue.PRESENT);
            }
            if (!r.tombstone()) {
                fc.writeBytes(r.value());
            }
            previous = key;
        }
        residuals[blocks] = fc.size();
        EliasFano ef = EliasFano.build(residuals, residuals.length);
        Kv02Directory dir = Kv02Directory.layout(fc.size(), fc.size(), previous.length, ef);

        byte[] body = new byte[Math.toIntExact(dir.bodyBytes())];
        System.arraycopy(dir.encode(), 0, body, 0, Kv02Directory.BYTES);
        System.arraycopy(fc.toByteArray(), 0, body, Kv02Directory.BYTES, fc.size());
        words(body, dir.offsets()[Kv02Directory.LOW], ef.low());
        words(body, dir.offsets()[Kv02Directory.HIGH], ef.high());
        words(body, dir.offsets()[Kv02Directory.SAMPLES], ef.samples());
        words(body, dir.offsets()[Kv02Directory.SPARSE], ef.sparse());

        CRC32C crc = new CRC32C();
        crc.update(body);
        Envelope env = new Envelope(Envelope.Kind.NATIVE, 0, Unit.BYTE, policy.backspace(), w, policy.groupSize(),
                0, 0, body.length, records.size(), (int) crc.getValue());
        byte[] file = Arrays.copyOf(env.encode(), Envelope.BYTES + body.length);
        System.arraycopy(body, 0, file, Envelope.BYTES, body.length);
        return file;
    }

    private static void words(byte[] body, long at, long[] words) {
        for (int i = 0; i < words.length; i++) {
            LittleEndian.putU64(body, Math.toIntExact(at + 8L * i), words[i]);
        }
    }

    private static void varint(ByteArrayOutputStream out, long v) {
        while ((v & ~0x7FL) != 0) {
            out.write((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.write((int) v);
    }
}

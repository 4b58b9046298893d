package dev.everett.segment.natives;

import dev.everett.api.Policy;
import dev.everett.segment.io.Envelope;
import dev.everett.segment.testing.BitSegmentBytes;
import dev.everett.segment.testing.GoldenFiles;
import dev.everett.segment.testing.Profile;
import dev.everett.segment.testing.Rec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The bit-unit seeds of {@link NativeFuzzCorpusTest}: the small bit-unit golden files (KV02 bit
 * and KV03, under EG-k and Golomb backspaces, W = 1, 2, 7, 15, fixed, promised and inferred
 * widths), two valid non-canonical files from {@link BitSegmentBytes} (a conservative retention,
 * a KV03 sort code spelled again), and targeted mutations of valid files with both checksums
 * recomputed: directory fields, the KV03 dictionary, offsets and seed count, the magic, the
 * payload's first bits and its zero padding.
 */
final class BitFuzzSeeds {
    private static final int LARGEST_SEED = 4096;

    private BitFuzzSeeds() {
    }

    static Map<String, Map<String, byte[]>> corpus() throws IOException {
        Map<String, byte[]> valid = valid();
        Map<String, byte[]> seeds = new LinkedHashMap<>();
        valid.forEach((name, bytes) -> seeds.put("valid-" + name + ".kv", bytes));
        mutants(valid).forEach((name, bytes) -> seeds.put("mut-" + name + ".kv", bytes));
        Map<String, byte[]> raw = new LinkedHashMap<>(seeds);
        // Stale checksums reach only the envelope checks of rawBytes.
        byte[] stale = valid.get("kv03-worked-example").clone();
        stale[96 + 192] ^= 0x40;
        raw.put("mut-kv03-stale-body-crc.kv", stale);
        return Map.of("crcRepaired", seeds, "rawBytes", raw);
    }

    /** Small bit-unit golden files plus two hand-built valid, non-canonical files. */
    static Map<String, byte[]> valid() throws IOException {
        Map<String, byte[]> out = new LinkedHashMap<>();
        Path dir = GoldenFiles.dir();
        for (GoldenFiles.Golden g : GoldenFiles.manifest(dir)) {
            if (g.policy().unit() == dev.everett.api.Unit.BIT && g.bytes() <= LARGEST_SEED) {
                out.put(g.name(), Files.readAllBytes(g.kv(dir)));
            }
        }
        Policy kv03 = Policy.stringPolicy().withBlockWidth(3);
        List<Rec> recs = WorkedExampleTest.RECORDS;
        out.put("kv03-respelled", BitSegmentBytes.build(kv03, recs, new long[] {0, 22, 0, 29}, new boolean[] {false, false, true, false}));
        Policy kv02 = Profile.KV02_BITS.base().withBlockWidth(2);
        out.put("kv02bit-conservative", BitSegmentBytes.build(kv02, recs, new long[] {0, 3, 6, 20}, null));
        return out;
    }

    private static Map<String, byte[]> mutants(Map<String, byte[]> valid) {
        Map<String, byte[]> out = new LinkedHashMap<>();
        byte[] kv03 = valid.get("kv03-worked-example");
        byte[] kv02 = valid.get("kv02bit-worked-example");
        int body = Envelope.BYTES;
        mutate(out, "kv03-magic-kv02", kv03, b -> b[body + 3] = '2');
        mutate(out, "kv02bit-magic-kv03", kv02, b -> b[body + 3] = '3');
        mutate(out, "kv03-version2", kv03, b -> b[body + 4] = 2);
        mutate(out, "kv03-extent-plus1", kv03, b -> b[body + 8]++);
        mutate(out, "kv03-terminal-plus1", kv03, b -> b[body + 16]++);
        mutate(out, "kv03-terminal-plus8", kv03, b -> b[body + 16] += 8);
        mutate(out, "kv03-universe-minus1", kv03, b -> b[body + 24]--);
        mutate(out, "kv03-dictionary-bits2", kv03, b -> b[body + 32] = 2);
        mutate(out, "kv03-seed-bits1", kv03, b -> b[body + 40] = 1);
        mutate(out, "kv03-low-width7", kv03, b -> b[body + 48] = 7);
        mutate(out, "kv03-reserved49", kv03, b -> b[body + 49] = 1);
        mutate(out, "kv03-dictionary-code1", kv03, b -> b[body + 256] = (byte) 0x80);
        mutate(out, "kv03-dictionary-padding", kv03, b -> b[body + 256] = 0x01);
        mutate(out, "kv03-offsets-end2", kv03, b -> b[body + 272] = 2);
        mutate(out, "kv03-offsets-start1", kv03, b -> b[body + 264] = 1);
        mutate(out, "kv03-padding-bit", kv03, b -> b[body + 192 + 29] |= 1);
        mutate(out, "kv03-record0-retains2", kv03, b -> b[body + 192] = 0x60); // 011 = EG0(2)
        // Bit 54 of the payload is record 0's presence bit: "red" becomes absent with 27 bits left over.
        mutate(out, "kv03-first-presence-0", kv03, b -> b[body + 192 + 6] &= (byte) ~0x02);
        mutate(out, "kv03-common-width-30", kv03, b -> {
            b[12] = 2;
            b[40] = 30;
        });
        mutate(out, "kv02bit-extent-plus1", kv02, b -> b[body + 8]++);
        mutate(out, "kv02bit-terminal-minus8", kv02, b -> b[body + 16] -= 8);
        mutate(out, "kv02bit-padding-bit", kv02, b -> b[body + 128 + 31] |= 1);
        // Bit 15 is a zero of record 0's VLEN prefix (000011111): a shorter code, the framing shifts.
        mutate(out, "kv02bit-vlen-prefix", kv02, b -> b[body + 128 + 1] ^= 0x01);
        // Bit 22 lies in the first key: another key, still in order.
        mutate(out, "kv02bit-key-bit", kv02, b -> b[body + 128 + 2] ^= 0x02);
        mutate(out, "kv02bit-backspace-golomb", kv02, b -> {
            b[18] = 1;
            b[88] = 3;
        });
        mutate(out, "kv02bit-unit-byte", kv02, b -> b[16] = 0);
        return out;
    }

    private static void mutate(Map<String, byte[]> out, String name, byte[] valid, Consumer<byte[]> change) {
        byte[] b = valid.clone();
        change.accept(b);
        out.put(name, NativeFuzzTest.repairChecksums(b));
    }
}

package dev.everett.segment.natives;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.api.OpenMode;
import dev.everett.api.Policy;
import dev.everett.api.PolicyMismatchException;
import dev.everett.api.RecordLocation;
import dev.everett.api.SegmentFormat;
import dev.everett.segment.bits.BitStrings;
import dev.everett.segment.io.Envelope;
import dev.everett.segment.io.LittleEndian;
import dev.everett.segment.testing.Rec;
import dev.everett.segment.testing.SegmentFixtures;
import dev.everett.segment.testing.WorkedDumps;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bit-unit worked examples, byte for byte: the four records of docs/format.md's worked examples
 * as KV03 under Everett's string policy (payload, directory and header CRCs 0x40EBB8D9 /
 * 0x8B370F27, as derived there), and as KV02 with bit units (our own example, derived by hand in
 * docs/format.md, "Worked example: KV02 with bit units").
 */
public class BitWorkedExampleTest {
    static final List<Rec> RECORDS = WorkedExampleTest.RECORDS;

    /** The KV03 worked example of docs/format.md: 376 bytes. */
    static final String KV03_FILE = WorkedDumps.text("kv03.hex");

    /** KV02, bit unit, K = W = 15, EG0 backspaces, optional values: 288 bytes. */
    static final String KV02_BIT_FILE = WorkedDumps.text("kv02-bits.hex");

    static Policy kv02Bits() {
        return Policy.stringPolicy().withFormat(SegmentFormat.KV02);
    }

    private static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }

    @Test
    void stringPolicyWritesTheKv03WorkedExample(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("example.kv");
        var info = SegmentFixtures.write(file, Policy.stringPolicy(), RECORDS);
        byte[] b = Files.readAllBytes(file);
        assertEquals(hex(WorkedExampleTest.hex(KV03_FILE)), hex(b));
        assertEquals(376, info.fileBytes());
        assertEquals(-1, info.commonWidth());
        assertEquals(0x40EBB8D9, (int) LittleEndian.u32(java.lang.foreign.MemorySegment.ofArray(b), 64));
        assertEquals(0x8B370F27, (int) LittleEndian.u32(java.lang.foreign.MemorySegment.ofArray(b), 68));
        try (NativeReader r = SegmentFixtures.open(file, Policy.stringPolicy())) {
            assertEquals(RECORDS, SegmentFixtures.walk(r));
            assertTrue(r.verify().canonical());
            Kv03Directory d = (Kv03Directory) r.typed().directory();
            assertEquals(234, d.fcExtent());
            assertEquals(33, d.terminalLength());
            assertEquals(6, d.lowWidth());
            assertEquals(0, r.typed().offsets().select(0));
            assertEquals(234, r.typed().offsets().select(1));
            // recordAt in host terms: retained bits of the key (the sort code is not counted).
            int[] retained = {0, 22, 6, 29};
            for (int i = 0; i < 4; i++) {
                RecordLocation loc = r.recordAt(i);
                byte[] key = RECORDS.get(i).key();
                assertEquals(key.length, loc.keyLength());
                assertEquals(retained[i], loc.retained());
                byte[] suffix = new byte[(8 * key.length - retained[i] + 7) / 8];
                BitStrings.copy(key, retained[i], suffix, 0, 8L * key.length - retained[i]);
                assertArrayEquals(suffix, loc.suffix().toArray(ValueLayout.JAVA_BYTE), "record " + i);
                assertEquals(RECORDS.get(i).tombstone(), loc.tombstone());
                assertArrayEquals(RECORDS.get(i).tombstone() ? new byte[0] : RECORDS.get(i).value(), loc.value().toArray(ValueLayout.JAVA_BYTE));
            }
        }
    }

    /** The record bits of the KV03 worked example's table, concatenated, are the payload our writer emits. */
    @Test
    void kv03PayloadIsTheNotesRecordTable() {
        String bits = "010" + "00000101001" + bitsOf("apple", 0, 40) + "1" + "00100" + bitsOf("red", 0, 24)
                + "000010011" + "00000100011" + bitsOf("apricot", 22, 56) + "0"
                + "00000110011" + "00000101011" + bitsOf("banana", 6, 48) + "11"
                + "000010100" + "00100" + bitsOf("band", 29, 32) + "1" + "010" + bitsOf("x", 0, 8);
        assertEquals(234, bits.length());
        byte[] file = WorkedExampleTest.hex(KV03_FILE);
        assertEquals(bits, bitsOf(java.util.Arrays.copyOfRange(file, 96 + 192, 96 + 192 + 30), 0, 234));
    }

    @Test
    void kv02WithBitUnitsWritesItsWorkedExample(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("example.kv");
        var info = SegmentFixtures.write(file, kv02Bits(), RECORDS);
        assertEquals(hex(WorkedExampleTest.hex(KV02_BIT_FILE)), hex(Files.readAllBytes(file)));
        assertEquals(304, info.fileBytes());
        try (NativeReader r = SegmentFixtures.open(file, kv02Bits())) {
            assertEquals(RECORDS, SegmentFixtures.walk(r));
            assertTrue(r.verify().canonical());
            assertEquals(329, r.typed().directory().fcExtent());
            assertEquals(49, r.typed().directory().terminalLength());
            // recordAt counts bits of the ordered form after the sort code.
            int[] retained = {0, 22, 6, 29};
            for (int i = 0; i < 4; i++) {
                assertEquals(retained[i], r.recordAt(i).retained());
            }
        }
        // The table of docs/format.md, "Worked example: KV02 with bit units": each key in its
        // ordered string form, the sort code 0, the bytes, the 16-bit terminator.
        String bits = "1" + "00000111010" + "000011111" + ordered("apple", 0) + "1" + "00100" + bitsOf("red", 0, 24)
                + "00000100011" + "00000110011" + "010" + ordered("apricot", 23) + "0"
                + "0000001000011" + "00000111011" + "011" + ordered("banana", 7) + "11"
                + "00000100100" + "000010100" + "0001101" + ordered("band", 30) + "1" + "010" + bitsOf("x", 0, 8);
        assertEquals(329, bits.length());
        byte[] b = WorkedExampleTest.hex(KV02_BIT_FILE);
        assertEquals(bits, bitsOf(java.util.Arrays.copyOfRange(b, 96 + 128, 96 + 128 + 42), 0, 329));
    }

    /** Bits [from, end) of the ordered string form of an ASCII key with no zero byte: {@code 0}, its bytes, 16 zero bits. */
    private static String ordered(String key, int from) {
        return ("0" + bitsOf(key, 0, 8 * key.length()) + "0".repeat(16)).substring(from);
    }

    /** The directory magic names the format: a reader of the other format refuses the file at open. */
    @Test
    void theOtherFormatIsAPolicyMismatch(@TempDir Path dir) throws Exception {
        Path kv03 = dir.resolve("a.kv");
        Path kv02 = dir.resolve("b.kv");
        Files.write(kv03, WorkedExampleTest.hex(KV03_FILE));
        Files.write(kv02, WorkedExampleTest.hex(KV02_BIT_FILE));
        for (OpenMode mode : OpenMode.values()) {
            var e = assertThrows(PolicyMismatchException.class, () -> NativeReader.open(kv03, kv02Bits(), mode).close());
            assertEquals("segment format", e.field());
            e = assertThrows(PolicyMismatchException.class, () -> NativeReader.open(kv02, Policy.stringPolicy(), mode).close());
            assertEquals("segment format", e.field());
        }
    }

    /**
     * The KV03 directory's fixed parts and the stream's zero padding are format rules: each of
     * these CRC-repaired changes to the KV03 worked example's file is refused (at the typed check or by verify).
     */
    @Test
    void damagedKv03SectionsAreCorrupt(@TempDir Path dir) throws Exception {
        byte[] original = WorkedExampleTest.hex(KV03_FILE);
        int body = Envelope.BYTES;
        record Damage(String what, int at, int value) {
        }
        List<Damage> damages = List.of(
                new Damage("sort code 1 in the dictionary", body + 256, 0x80),
                new Damage("dictionary padding bit", body + 256, 0x01),
                new Damage("dictionary end offset 2", body + 272, 2),
                new Damage("dictionary start offset 1", body + 264, 1),
                new Damage("dictionary bit count 2", body + 32, 2),
                new Damage("seed bit count 1", body + 40, 1),
                new Damage("reserved byte 49", body + 49, 1),
                new Damage("payload padding bit", body + 192 + 29, 0x9F),
                new Damage("record 0 keeps 2 bits", body + 192, 0x60));
        for (Damage d : damages) {
            byte[] b = original.clone();
            b[d.at()] = (byte) d.value();
            Path f = dir.resolve("damaged.kv");
            Files.write(f, NativeFuzzTest.repairChecksums(b));
            assertThrows(dev.everett.api.CorruptSegmentException.class, () -> {
                try (NativeReader r = NativeReader.open(f, Policy.stringPolicy(), OpenMode.TYPED)) {
                    r.verify();
                }
            }, d.what());
        }
    }

    /** KV03 is bit-only: its magic in a byte-unit file is corruption, not another policy. */
    @Test
    void aKv03MagicInAByteUnitFileIsCorrupt(@TempDir Path dir) throws Exception {
        byte[] b = WorkedExampleTest.hex(WorkedExampleTest.FILE);
        b[Envelope.BYTES + 3] = '3';
        Path f = dir.resolve("byte.kv");
        Files.write(f, NativeFuzzTest.repairChecksums(b));
        for (OpenMode mode : OpenMode.values()) {
            assertThrows(dev.everett.api.CorruptSegmentException.class, () -> {
                try (NativeReader r = NativeReader.open(f, Policy.defaultBytes(), mode)) {
                    r.recordAt(0);
                }
            });
        }
    }

    public static String bitsOf(String s, int from, int to) {
        return bitsOf(Rec.bytes(s), from, to);
    }

    public static String bitsOf(byte[] b, int from, int to) {
        StringBuilder sb = new StringBuilder();
        for (int i = from; i < to; i++) {
            sb.append((b[i >>> 3] >>> (7 - (i & 7))) & 1);
        }
        return sb.toString();
    }
}

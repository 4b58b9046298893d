package dev.everett.segment.natives;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.api.CommonWidthRule;
import dev.everett.api.CorruptSegmentException;
import dev.everett.api.Policy;
import dev.everett.api.SegmentFormat;
import dev.everett.segment.bits.BitStrings;
import dev.everett.segment.bits.OrderedStrings;
import dev.everett.segment.testing.Rec;
import dev.everett.segment.testing.SegmentFixtures;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * KV02 in bit units stores each key in Everett's ordered string form (the code 0, the bytes with
 * 0xFF after every 0x00, 16 zero bits): the form's own rules, and the file round trip with the
 * keys that need it (empty keys, zero bytes, keys that are prefixes of others).
 */
class OrderedStringKeysTest {
    private static final Policy KV02_BITS = Policy.stringPolicy().withFormat(SegmentFormat.KV02);

    @Test
    void theFormEscapesZerosAndEndsWithTwoZeroBytes() {
        assertArrayEquals(new byte[] {0, 0}, OrderedStrings.encode(new byte[0], 0));
        assertArrayEquals(new byte[] {'a', 0, (byte) 0xFF, 'b', 0, 0}, OrderedStrings.encode(new byte[] {'a', 0, 'b'}, 3));
        assertArrayEquals(new byte[] {0, (byte) 0xFF, 0, (byte) 0xFF, 0, 0}, OrderedStrings.encode(new byte[] {0, 0}, 2));
    }

    /** Order-preserving, prefix-free, and decoded back exactly; a seeded model over small alphabets that hit 0x00 and 0xFF. */
    @Test
    void theFormKeepsOrderIsPrefixFreeAndDecodes() {
        long seed = Long.getLong("everett.seed", System.nanoTime());
        Random rnd = new Random(seed);
        byte[] alphabet = {0, 1, (byte) 0xFE, (byte) 0xFF};
        for (int t = 0; t < 20_000; t++) {
            byte[] a = random(rnd, alphabet);
            byte[] b = random(rnd, alphabet);
            byte[] ea = OrderedStrings.encode(a, a.length);
            byte[] eb = OrderedStrings.encode(b, b.length);
            String at = "seed " + seed + ": " + Arrays.toString(a) + " vs " + Arrays.toString(b);
            assertEquals(Integer.signum(Arrays.compareUnsigned(a, b)), Integer.signum(Arrays.compareUnsigned(ea, eb)), at);
            if (!Arrays.equals(a, b)) {
                int m = Arrays.mismatch(ea, eb);
                assertTrue(m >= 0 && m < Math.min(ea.length, eb.length), at + ": one form is a prefix of the other");
            }
            byte[] copy = ea.clone();
            int n = OrderedStrings.decodeInPlace(copy, copy.length);
            assertArrayEquals(a, Arrays.copyOf(copy, n), at);
        }
    }

    @Test
    void nonCanonicalFormsDoNotDecode() {
        byte[][] bad = {{}, {0}, {'a'}, {'a', 0}, {0, 1, 0, 0}, {0, 0, 0, 0}, {0, 0, 'a'}, {'a', 0, (byte) 0xFE, 0, 0}};
        for (byte[] b : bad) {
            assertEquals(-1, OrderedStrings.decodeInPlace(b.clone(), b.length), Arrays.toString(b));
        }
    }

    /** Keys that need the form (empty, zero bytes, prefixes of each other) survive a file, a cursor, recordAt and verify. */
    @Test
    void awkwardKeysRoundTripThroughAFile(@TempDir Path dir) throws Exception {
        List<Rec> records = new ArrayList<>();
        byte[][] keys = {{}, {0}, {0, 0}, {0, 1}, {1}, {'a'}, {'a', 0}, {'a', 0, 'b'}, {'a', (byte) 0xFF}, {(byte) 0xFF, 0, (byte) 0xFF}};
        for (int i = 0; i < keys.length; i++) {
            records.add(new Rec(keys[i], i % 3 == 2 ? null : new byte[] {(byte) i}));
        }
        Path file = dir.resolve("awkward.kv");
        SegmentFixtures.write(file, KV02_BITS.withBlockWidth(3), records);
        try (NativeReader r = SegmentFixtures.open(file, KV02_BITS.withBlockWidth(3))) {
            assertEquals(records, SegmentFixtures.walk(r));
            assertTrue(r.verify().canonical());
            // The empty key's stored form: the code 0 and 16 zero bits, 17 bits, all of them record 0's literal.
            assertEquals(0, r.recordAt(0).retained());
            assertEquals(2, r.recordAt(0).keyLength());
            // {0} after {}: the forms 00 00 and 00 FF 00 00 share 8 bits.
            assertEquals(8, r.recordAt(1).retained());
            assertEquals(1 + 8L * OrderedStrings.encode(keys[keys.length - 1], 3).length, r.typed().directory().terminalLength());
        }
    }

    /** A stored key that is not one canonical form (here "a" 01 00, no terminator) is corrupt under verify and the cursor. */
    @Test
    void aStoredKeyOutsideTheFormIsCorrupt(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("bad.kv");
        NativeWriter w = new NativeWriter(file, KV02_BITS, CommonWidthRule.policy());
        w.appendEncoded(0, MemorySegment.ofArray(new byte[] {'a', 1, 0}), 0, 24, MemorySegment.ofArray(new byte[] {(byte) 0xC0}), 0, 2);
        w.finish();
        try (NativeReader r = SegmentFixtures.open(file, KV02_BITS)) {
            var e = assertThrows(CorruptSegmentException.class, r::verify);
            assertTrue(e.getMessage().contains("ordered string form"), e.getMessage());
            assertThrows(CorruptSegmentException.class, () -> SegmentFixtures.walk(r));
        }
        // A key whose first bit (the sort code) is 1 is corrupt when the record is parsed.
        byte[] b = Files.readAllBytes(file);
        int stream = 96 + 128;
        // Record 0: ABS 0 (`1`), EG0(25) (9 bits), EG0(2) (3 bits), then the literal's first bit at stream bit 13.
        assertEquals(0, BitStrings.bit(b, 8L * stream + 13));
        b[stream + 1] |= (byte) (0x80 >>> 5);
        Files.write(file, NativeFuzzTest.repairChecksums(b));
        try (NativeReader r = SegmentFixtures.open(file, KV02_BITS)) {
            var e = assertThrows(CorruptSegmentException.class, r::verify);
            assertTrue(e.getMessage().contains("sort code 1"), e.getMessage());
        }
    }

    private static byte[] random(Random rnd, byte[] alphabet) {
        byte[] b = new byte[rnd.nextInt(6)];
        for (int i = 0; i < b.length; i++) {
            b[i] = alphabet[rnd.nextInt(alphabet.length)];
        }
        return b;
    }
}

package dev.everett.segment.bits;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.everett.api.CorruptSegmentException;
import dev.everett.segment.io.Corruption;
import dev.everett.segment.io.FileOutput;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The bit-unit integer codes of docs/format.md ("Integer codes"), written and read back. */
class BitCodesTest {
    @TempDir
    Path dir;

    interface Writes {
        void to(BitOutput out) throws IOException;
    }

    /** The bits a writer produces, as a string of 0s and 1s (without the final padding). */
    private String bits(Writes w) throws IOException {
        Written written = write(w);
        long n = written.bits();
        byte[] b = Files.readAllBytes(written.file());
        StringBuilder sb = new StringBuilder();
        for (long i = 0; i < n; i++) {
            sb.append((b[(int) (i >>> 3)] >>> (7 - (i & 7))) & 1);
        }
        return sb.toString();
    }

    /** A file holding what {@code w} writes, padded to a byte, and how many bits that was. */
    private record Written(Path file, long bits) {
    }

    private Written write(Writes w) throws IOException {
        Path f = dir.resolve("bits-" + System.nanoTime());
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            FileOutput fo = new FileOutput(ch, 0);
            BitOutput out = new BitOutput(fo);
            w.to(out);
            long n = out.bitPosition();
            out.padToByte();
            fo.flush();
            return new Written(f, n);
        }
    }

    private BitInput input(Writes w, Arena arena) throws IOException {
        Written written = write(w);
        Path f = written.file();
        long n = written.bits();
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
            MemorySegment s = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena);
            return new BitInput(s, new Corruption(f), 0, n);
        }
    }

    @Test
    void expGolombOrderZeroMatchesTheNotes() throws IOException {
        assertEquals("1", bits(o -> o.writeEg0(0)));
        assertEquals("010", bits(o -> o.writeEg0(1)));
        assertEquals("011", bits(o -> o.writeEg0(2)));
        assertEquals("00100", bits(o -> o.writeEg0(3)));
        assertEquals("0001000", bits(o -> o.writeEg0(7)));
        assertEquals("0".repeat(64) + "1" + "0".repeat(64), bits(o -> o.writeEg0(-1L)));
    }

    @Test
    void golombUsesTruncatedBinaryRemainders() throws IOException {
        // M = 3: b = 2, cutoff 1: r = 0 → "0", r = 1 → "10", r = 2 → "11".
        assertEquals("10", bits(o -> o.writeGolomb(0, 3)));
        assertEquals("110", bits(o -> o.writeGolomb(1, 3)));
        assertEquals("111", bits(o -> o.writeGolomb(2, 3)));
        assertEquals("010", bits(o -> o.writeGolomb(3, 3)));
        // M = 1 is unary; M = 4 is Rice with 2 remainder bits.
        assertEquals("0001", bits(o -> o.writeGolomb(3, 1)));
        assertEquals("0111", bits(o -> o.writeGolomb(7, 4)));
        // EG order 2: EG0(v >> 2) then 2 low bits.
        assertEquals("01011", bits(o -> o.writeExpGolomb(7, 2)));
    }

    @Test
    void everyCodeRoundTrips() throws IOException {
        long seed = Long.getLong("everett.seed", new Random().nextLong());
        Random rnd = new Random(seed);
        long[] values = new long[2000];
        for (int i = 0; i < values.length; i++) {
            values[i] = switch (i % 4) {
                case 0 -> rnd.nextInt(16);
                case 1 -> rnd.nextInt(1 << 20);
                case 2 -> rnd.nextLong() >>> rnd.nextInt(64);
                default -> -1L - rnd.nextInt(3);
            };
        }
        try (Arena arena = Arena.ofConfined()) {
            BitInput in = input(o -> {
                for (int i = 0; i < values.length; i++) {
                    o.writeEg0(values[i]);
                    o.writeExpGolomb(values[i] >>> 8, i % 9);
                    o.writeGolomb(values[i] & 0xFFFF, 1 + i % 37);
                    o.writeBits(values[i], i % 65);
                }
            }, arena);
            for (int i = 0; i < values.length; i++) {
                assertEquals(values[i], in.readEg0("eg0"), "seed " + seed + " eg0 #" + i);
                assertEquals(values[i] >>> 8, in.readExpGolomb(i % 9, "egk"), "seed " + seed);
                assertEquals(values[i] & 0xFFFF, in.readGolomb(1 + i % 37, "golomb"), "seed " + seed);
                int n = i % 65;
                long expect = n == 64 ? values[i] : n == 0 ? 0 : values[i] & ((1L << n) - 1);
                assertEquals(expect, in.readBits(n, "bits"), "seed " + seed);
            }
            assertEquals(0, in.remaining());
        }
    }

    @Test
    void malformedCodesAreCorrupt() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            BitInput tooManyZeros = input(o -> o.writeZeros(70), arena);
            assertThrows(CorruptSegmentException.class, () -> tooManyZeros.readEg0("count"));
            BitInput overflow = input(o -> {
                o.writeZeros(64);
                o.writeBits(1, 1);
                o.writeBits(1, 64);
            }, arena);
            assertThrows(CorruptSegmentException.class, () -> overflow.readEg0("count"));
            BitInput truncated = input(o -> o.writeBits(0b001, 3), arena);
            assertThrows(CorruptSegmentException.class, () -> truncated.readEg0("count"));
        }
    }

    /**
     * Copies from a mapped segment of every length around the long-run threshold, at every
     * source phase and after every number of pending bits (the output byte-aligned and not),
     * give exactly the source's bits.
     */
    @Test
    void longCopiesFromSegmentsKeepEveryBit() throws IOException {
        Random rnd = new Random(0x5eed_b175L);
        for (int round = 0; round < 300; round++) {
            byte[] src = new byte[1 + rnd.nextInt(700)];
            rnd.nextBytes(src);
            long from = rnd.nextInt(Math.min(src.length * 8, 24));
            long n = rnd.nextLong(8L * src.length - from + 1);
            int lead = rnd.nextInt(64);
            long leadBits = rnd.nextLong();
            StringBuilder expected = new StringBuilder();
            for (int i = lead - 1; i >= 0; i--) {
                expected.append((leadBits >>> i) & 1);
            }
            for (long i = 0; i < n; i++) {
                expected.append((src[(int) ((from + i) >>> 3)] >>> (7 - ((from + i) & 7))) & 1);
            }
            String got = bits(out -> {
                out.writeBits(leadBits, lead);
                out.writeBitsOf(MemorySegment.ofArray(src), from, n);
            });
            assertEquals(expected.toString(), got, "round " + round + ": lead " + lead + ", from " + from + ", n " + n);
        }
    }
}

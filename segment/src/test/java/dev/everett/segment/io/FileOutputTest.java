package dev.everett.segment.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.everett.segment.testing.Seeds;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The buffered writer's copies land exactly their bytes, across buffer ends and source ends. */
@ExtendWith(Seeds.class)
class FileOutputTest {
    private static final ValueLayout.OfLong BIG_ENDIAN_WORD = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    @TempDir
    Path dir;

    /**
     * Random mixes of single bytes and segment copies (short ones near the source's end and
     * the buffer's, long ones across flushes) give the file and the CRC32C of the bytes written.
     */
    @Test
    void segmentCopiesWriteExactlyTheirBytes() throws IOException {
        Random rnd = new Random(0xf11e_0075L);
        for (int round = 0; round < 40; round++) {
            byte[] source = new byte[1 + rnd.nextInt(200)];
            rnd.nextBytes(source);
            MemorySegment src = MemorySegment.ofArray(source);
            ByteArrayOutputStream expected = new ByteArrayOutputStream();
            Path f = dir.resolve("out-" + round);
            try (FileChannel ch = FileChannel.open(f, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                FileOutput out = new FileOutput(ch, 0);
                int writes = 200 + rnd.nextInt(3000);
                for (int i = 0; i < writes; i++) {
                    if (rnd.nextInt(5) == 0) {
                        int b = rnd.nextInt(256);
                        out.writeByte(b);
                        expected.write(b);
                        continue;
                    }
                    int length = rnd.nextInt(8) == 0 ? rnd.nextInt(source.length + 1) : rnd.nextInt(Math.min(17, source.length + 1));
                    // Half the short copies end at or near the source's end, where no word fits.
                    int at = rnd.nextBoolean() ? source.length - length - rnd.nextInt(Math.min(3, source.length - length + 1))
                            : rnd.nextInt(source.length - length + 1);
                    out.write(src, at, length);
                    expected.write(source, at, length);
                }
                assertEquals(expected.size(), out.position());
                CRC32C crc = new CRC32C();
                crc.update(expected.toByteArray());
                assertEquals(crc.getValue(), out.crc());
            }
            assertArrayEquals(expected.toByteArray(), Files.readAllBytes(f), "round " + round);
        }
    }

    /**
     * An output of several MiB, long enough for the buffer to grow through every size to its
     * largest and flush at it many times: every kind of write, long copies that span flushes,
     * byte arrays larger than half the buffer (written on their own), shifted bit words, and
     * held sections on both sides of the size that joins the buffer, give the file's exact bytes,
     * its position and the CRC32C of everything written.
     */
    @Test
    void longOutputsCrossEveryBufferSize(Random rnd) throws IOException {
        byte[] source = new byte[3 << 19];
        rnd.nextBytes(source);
        MemorySegment src = MemorySegment.ofArray(source);
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        Path f = dir.resolve("long");
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            FileOutput out = new FileOutput(ch, 0);
            while (expected.size() < 6 << 20) {
                switch (rnd.nextInt(6)) {
                    case 0 -> {
                        int b = rnd.nextInt(256);
                        out.writeByte(b);
                        expected.write(b);
                    }
                    case 1 -> {
                        int length = rnd.nextInt(rnd.nextBoolean() ? 64 : source.length / 2);
                        int at = rnd.nextInt(source.length - length + 1);
                        out.write(src, at, length);
                        expected.write(source, at, length);
                    }
                    case 2 -> {
                        int length = rnd.nextInt(rnd.nextBoolean() ? 4096 : 1 << 20);
                        int at = rnd.nextInt(source.length - length + 1);
                        out.write(source, at, length);
                        expected.write(source, at, length);
                    }
                    case 3 -> {
                        int words = rnd.nextInt(rnd.nextBoolean() ? 8 : 40_000);
                        int shift = 1 + rnd.nextInt(63);
                        int at = rnd.nextInt(source.length - 8 * words + 1);
                        long pending = rnd.nextLong() & (-1L << (64 - shift));
                        long left = out.writeShiftedWords(src, at, words, pending, shift);
                        assertEquals(expectShifted(expected, src, at, words, pending, shift), left);
                    }
                    case 4 -> {
                        long v = rnd.nextLong();
                        out.writeLongBigEndian(v);
                        writeBigEndian(expected, v);
                    }
                    default -> {
                        // A held section of up to twice the join size, appended to this output.
                        int length = rnd.nextInt(1 << 17);
                        appendHeld(out, expected, source, rnd.nextInt(source.length - length + 1), length);
                    }
                }
                assertEquals(expected.size(), out.position());
            }
            // Whatever the draws, the buffer is at its largest now: each path once more, across a flush.
            out.write(src, 0, 3 << 19);
            expected.write(source, 0, 3 << 19);
            out.write(source, 0, 700 << 10); // more than half the buffer and more than its room: written on its own
            expected.write(source, 0, 700 << 10);
            long left = out.writeShiftedWords(src, 8, 150_000, 0, 5);
            assertEquals(expectShifted(expected, src, 8, 150_000, 0, 5), left);
            for (int length : new int[] {10 << 10, 100 << 10}) { // joins the buffer, then written on its own
                appendHeld(out, expected, source, 3, length);
            }
            assertEquals(expected.size(), out.position());
            CRC32C crc = new CRC32C();
            crc.update(expected.toByteArray());
            assertEquals(crc.getValue(), out.crc());
        }
        assertArrayEquals(expected.toByteArray(), Files.readAllBytes(f));
    }

    /**
     * What {@link FileOutput#writeShiftedWords} should write, appended to {@code expected}: each
     * source word's top bits after the pending ones. Returns the bits left pending.
     */
    private static long expectShifted(ByteArrayOutputStream expected, MemorySegment src, long at, int words, long pending, int shift) {
        long p = pending;
        for (int i = 0; i < words; i++) {
            long w = src.get(BIG_ENDIAN_WORD, at + 8L * i);
            writeBigEndian(expected, p | (w >>> shift));
            p = w << (64 - shift);
        }
        return p;
    }

    /** A section of {@code source} held in a memory-first output under its limit, then appended to {@code out}. */
    private static void appendHeld(FileOutput out, ByteArrayOutputStream expected, byte[] source, int at, int length) throws IOException {
        FileOutput held = FileOutput.memoryFirst(1 << 18, () -> {
            throw new AssertionError("a section under its limit opened a file");
        });
        held.write(source, at, length);
        held.copyHeldTo(out);
        expected.write(source, at, length);
    }

    private static void writeBigEndian(ByteArrayOutputStream to, long v) {
        for (int i = 56; i >= 0; i -= 8) {
            to.write((int) (v >>> i) & 0xFF);
        }
    }

    /** A memory-first output past its limit moves everything to its file, in order, CRC included. */
    @Test
    void aMemoryFirstOutputOverflowsToItsFile(Random rnd) throws IOException {
        byte[] source = new byte[300 << 10];
        rnd.nextBytes(source);
        Path f = dir.resolve("overflow");
        FileChannel[] opened = new FileChannel[1];
        FileOutput out = FileOutput.memoryFirst(64 << 10, () -> opened[0] = FileChannel.open(f, StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE));
        int at = 0;
        while (at < source.length) {
            int n = Math.min(source.length - at, 1 + rnd.nextInt(rnd.nextBoolean() ? 100 : 40 << 10));
            out.write(MemorySegment.ofArray(source), at, n);
            at += n;
        }
        CRC32C crc = new CRC32C();
        crc.update(source);
        assertEquals(crc.getValue(), out.crc());
        assertEquals(source.length, out.position());
        opened[0].close();
        assertArrayEquals(source, Files.readAllBytes(f));
    }
}

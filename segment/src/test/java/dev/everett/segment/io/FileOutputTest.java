package dev.everett.segment.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The buffered writer's copies land exactly their bytes, across buffer ends and source ends. */
class FileOutputTest {
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
}

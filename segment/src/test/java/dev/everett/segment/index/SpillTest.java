package dev.everett.segment.index;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.everett.segment.io.FileOutput;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A section spilled in memory, or moved to a temporary file once it outgrows its memory, is
 * appended to its target as written, with the target's running CRC the same as if the bytes had
 * been written to it directly; only a section that outgrew memory makes a file.
 */
class SpillTest {
    @TempDir
    Path dir;

    @Test
    void aSpillCopiesWhatWasWrittenWhereverItWasHeld() throws IOException {
        Random rnd = new Random(0x5b111L);
        int round = 0;
        for (int memory : new int[] {0, 1, 100, 70_000, 1 << 20}) {
            for (int trial = 0; trial < 4; trial++, round++) {
                byte[] prefix = new byte[rnd.nextInt(50)];
                byte[] data = new byte[rnd.nextInt(200_000)];
                rnd.nextBytes(prefix);
                rnd.nextBytes(data);
                Path spillDir = Files.createDirectory(dir.resolve("spills" + round));
                Path viaSpill = dir.resolve("via-spill" + round);
                Path direct = dir.resolve("direct" + round);
                long crcViaSpill;
                long crcDirect;
                try (Spill s = new Spill(spillDir, memory);
                     FileChannel a = FileChannel.open(viaSpill, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                     FileChannel b = FileChannel.open(direct, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                    int at = 0;
                    while (at < data.length) {
                        int n = Math.min(data.length - at, 1 + rnd.nextInt(90_000));
                        s.out().write(data, at, n);
                        at += n;
                    }
                    assertEquals(data.length, s.size());
                    s.out().flush(); // the buffer's bytes go where the spill holds them
                    assertEquals(data.length > memory, s.inFile(), "memory " + memory + ", " + data.length + " bytes");
                    FileOutput target = new FileOutput(a, 0);
                    target.write(prefix, 0, prefix.length);
                    assertEquals(prefix.length + data.length, s.copyTo(target));
                    crcViaSpill = target.crc();
                    FileOutput plain = new FileOutput(b, 0);
                    plain.write(prefix, 0, prefix.length);
                    plain.write(data, 0, data.length);
                    crcDirect = plain.crc();
                }
                try (Stream<Path> files = Files.list(spillDir)) {
                    assertEquals(0, files.count(), "a closed spill leaves no file");
                }
                assertEquals(crcDirect, crcViaSpill);
                assertArrayEquals(Files.readAllBytes(direct), Files.readAllBytes(viaSpill));
            }
        }
    }
}

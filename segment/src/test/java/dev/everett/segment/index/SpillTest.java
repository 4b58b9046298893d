package dev.everett.segment.index;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.segment.io.FileOutput;
import dev.everett.segment.testing.Seeds;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** A spill gives back exactly what was written, held in memory or moved to a temporary file past its limit. */
@ExtendWith(Seeds.class)
class SpillTest {
    @Test
    void copiesWhatWasWrittenInMemoryAndOnDisk(Random rnd, @TempDir Path dir) throws IOException {
        Path scratch = Files.createDirectory(dir.resolve("scratch"));
        for (int limit : new int[] {0, 1, 100, 5_000, 1 << 20}) {
            ByteArrayOutputStream expected = new ByteArrayOutputStream();
            int total = rnd.nextInt(200_000);
            Path target = dir.resolve("target-" + limit);
            try (Spill s = new Spill(scratch, limit);
                 FileChannel ch = FileChannel.open(target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, StandardOpenOption.READ)) {
                while (expected.size() < total) {
                    byte[] chunk = new byte[1 + rnd.nextInt(rnd.nextBoolean() ? 16 : 70_000)];
                    rnd.nextBytes(chunk);
                    s.out().write(chunk, 0, chunk.length);
                    expected.write(chunk);
                }
                FileOutput o = new FileOutput(ch, 0);
                byte[] lead = {1, 2, 3};
                o.write(lead, 0, lead.length);
                assertEquals(3 + expected.size(), s.copyTo(o));
                o.flush();
                assertEquals(expected.size() > limit, s.onDisk(), "limit " + limit + ", " + expected.size() + " bytes");
                CRC32C crc = new CRC32C();
                crc.update(lead);
                crc.update(expected.toByteArray());
                assertEquals(crc.getValue(), o.crc(), "the target's running CRC covers the copied bytes");
            }
            byte[] written = Files.readAllBytes(target);
            assertArrayEquals(expected.toByteArray(), Arrays.copyOfRange(written, 3, written.length), "limit " + limit);
            try (var left = Files.list(scratch)) {
                assertFalse(left.findAny().isPresent(), "a closed spill leaves no temporary file");
            }
        }
        assertTrue(Spill.MEMORY_LIMIT >= 1 << 20);
    }
}

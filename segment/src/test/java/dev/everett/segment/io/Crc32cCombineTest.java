package dev.everett.segment.io;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

class Crc32cCombineTest {
    private static long crc(byte[] b, int off, int len) {
        CRC32C c = new CRC32C();
        c.update(b, off, len);
        return c.getValue();
    }

    @Test
    void checkValue() {
        byte[] b = "123456789".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        assertEquals(0xE3069283L, crc(b, 0, b.length));
    }

    @Test
    void combiningTwoPartsEqualsTheWhole() {
        long seed = Long.getLong("everett.seed", new Random().nextLong());
        Random rnd = new Random(seed);
        for (int i = 0; i < 300; i++) {
            byte[] b = new byte[rnd.nextInt(5000)];
            rnd.nextBytes(b);
            int cut = b.length == 0 ? 0 : rnd.nextInt(b.length + 1);
            long whole = crc(b, 0, b.length);
            long combined = Crc32cCombine.combine(crc(b, 0, cut), crc(b, cut, b.length - cut), b.length - cut);
            assertEquals(whole, combined, "seed " + seed + " length " + b.length + " cut " + cut);
        }
    }
}

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

    /**
     * Parts of 512 MiB and more: the lengths where a table of x^(2^k) wrapped at k = 32 went
     * wrong (a merged run of 1.2 GB came out with a body CRC its own reader refused). B is A's
     * bytes followed by zeros, checksummed directly in 1 MiB steps (CRC32C runs at several GB/s).
     */
    @Test
    void combiningPartsOfHalfAGigabyteAndMore() {
        byte[] head = "a part before a long run of zeros".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        byte[] zeros = new byte[1 << 20];
        long[] lengths = {(1L << 29) - 1, 1L << 29, (1L << 29) + 12_345, (1L << 30) + 7, (1L << 31) + 3};
        CRC32C a = new CRC32C();
        a.update(head);
        for (long length : lengths) {
            CRC32C whole = new CRC32C();
            whole.update(head);
            CRC32C tail = new CRC32C();
            for (long done = 0; done < length; ) {
                int n = (int) Math.min(zeros.length, length - done);
                whole.update(zeros, 0, n);
                tail.update(zeros, 0, n);
                done += n;
            }
            assertEquals(whole.getValue(), Crc32cCombine.combine(a.getValue(), tail.getValue(), length), "length " + length);
        }
    }
}

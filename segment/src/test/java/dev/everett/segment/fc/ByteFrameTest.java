package dev.everett.segment.fc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.api.CorruptSegmentException;
import dev.everett.segment.io.Corruption;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Record headers read from one 8-byte load: one- and two-byte counts take the fast path, and
 * every count the fast path cannot take (longer, non-canonical, near the end) gives the same
 * answer or the same refusal through the checked path.
 */
class ByteFrameTest {
    private static final Corruption C = new Corruption(Path.of("frame.kv"));

    /** Header bytes, then enough literal and value bytes for any count below 400. */
    private static ByteFrame frame(long commonWidth, int... header) {
        byte[] b = new byte[header.length + 1000];
        for (int i = 0; i < header.length; i++) {
            b[i] = (byte) header[i];
        }
        return new ByteFrame(MemorySegment.ofArray(b), C, b.length, commonWidth);
    }

    @Test
    void twoByteCountsAreRead() {
        // Block start, ABS 0 (first record), suffix 200 = C8 01, value 300 = AC 02.
        ByteFrame f = frame(-1, 0x00, 0xC8, 0x01, 0xAC, 0x02);
        f.read(true, -1, true, 0);
        assertEquals(0, f.retained);
        assertEquals(5, f.suffixAt);
        assertEquals(200, f.suffixLength);
        assertEquals(205, f.valueAt);
        assertEquals(300, f.valueLength);
        // Not a block start: backspace 128 = 80 01 from a key of 130, suffix 5, common width 7.
        ByteFrame g = frame(7, 0x80, 0x01, 0x05);
        g.read(false, 130, false, 0);
        assertEquals(2, g.retained);
        assertEquals(5, g.suffixLength);
        assertEquals(3, g.suffixAt);
        assertEquals(7, g.valueLength);
        // A three-byte count (16,384 = 80 80 01) goes through the checked path.
        byte[] big = new byte[16_400];
        big[1] = (byte) 0x80;
        big[2] = (byte) 0x80;
        big[3] = 0x01;
        ByteFrame h = new ByteFrame(MemorySegment.ofArray(big), C, big.length, 0);
        h.read(true, -1, true, 0);
        assertEquals(16_384, h.suffixLength);
    }

    @Test
    void nonCanonicalTwoByteCountsAreRefused() {
        ByteFrame f = frame(-1, 0x00, 0x85, 0x00, 0x01);
        CorruptSegmentException e = assertThrows(CorruptSegmentException.class, () -> f.read(true, -1, true, 0));
        assertTrue(e.getMessage().contains("non-canonical"), e.getMessage());
        ByteFrame g = frame(-1, 0x80, 0x00, 0x01, 0x01);
        assertThrows(CorruptSegmentException.class, () -> g.read(false, 300, false, 0));
    }

    @Test
    void twoByteCountsAreCheckedLikeOneByteCounts() {
        // Backspace 200 from a key of 150: longer than the previous key.
        ByteFrame f = frame(-1, 0xC8, 0x01, 0x01, 0x01);
        assertThrows(CorruptSegmentException.class, () -> f.read(false, 150, false, 0));
        // Suffix 300 where only 20 bytes remain in the stream.
        byte[] b = {0x00, (byte) 0xAC, 0x02, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        ByteFrame g = new ByteFrame(MemorySegment.ofArray(b), C, b.length, -1);
        assertThrows(CorruptSegmentException.class, () -> g.read(true, -1, true, 0));
        // A second record must add a suffix, however its counts are written.
        ByteFrame h = frame(-1, 0x80, 0x01, 0x00, 0x01);
        assertThrows(CorruptSegmentException.class, () -> h.read(false, 200, false, 0));
    }
}

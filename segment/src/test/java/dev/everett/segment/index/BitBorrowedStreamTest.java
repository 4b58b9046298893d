package dev.everett.segment.index;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.everett.api.Policy;
import dev.everett.api.SegmentFormat;
import dev.everett.segment.bits.BitStrings;
import dev.everett.segment.bits.EliasFano;
import dev.everett.segment.io.FileOutput;
import dev.everett.segment.natives.BitWorkedExampleTest;
import dev.everett.segment.testing.Rec;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bit-unit borrowed streams of IX03 indexes: ordinary KV02 bit framing (EG0 counts, the policy's
 * backspace code, no values) over the chain's logical keys, exact bit retention.
 */
class BitBorrowedStreamTest {
    @TempDir
    Path dir;

    private record Encoded(byte[] bytes, long extent, long terminal, EliasFano ef) {
    }

    private Encoded encode(Policy policy, byte[][] keys, long[] bits) throws IOException {
        Path f = dir.resolve("stream-" + System.nanoTime());
        KeyStreamEncoder e;
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            FileOutput out = new FileOutput(ch, 0);
            e = KeyStreamEncoder.of(out, policy);
            for (int i = 0; i < keys.length; i++) {
                e.append(keys[i], bits[i]);
            }
            e.finish();
            out.flush();
        }
        return new Encoded(Files.readAllBytes(f), e.extent(), e.terminalLength(), e.directory());
    }

    /** The IX03 worked example's H main stream (docs/format.md) {@code a}, {@code b} under a bit policy, K = 3, W = 2, EG0. */
    @Test
    void theNotesBitUnitMainStream() throws IOException {
        Policy policy = Policy.stringPolicy().withFormat(SegmentFormat.KV02).withGroupSize(3).withBlockWidth(2);
        Encoded s = encode(policy, new byte[][] {Rec.bytes("a"), Rec.bytes("b")}, new long[] {8, 8});
        // 1 0001001 01100001 | 011 011 10
        assertEquals("89616e", HexFormat.of().formatHex(s.bytes()));
        assertEquals(24, s.extent());
        assertEquals(8, s.terminal());
        assertEquals(24, s.ef().universe());
        assertEquals(3, s.ef().lowWidth());
        assertArrayEquals(new long[] {0}, s.ef().low());
        assertArrayEquals(new long[] {0x11}, s.ef().high());
    }

    /**
     * Over KV03 natives the borrowed keys are the logical keys, sort code {@code 0} first:
     * {@code 0·a} (9 bits) then {@code 0·b}, which share 7 bits.
     */
    @Test
    void kv03ChainsBorrowLogicalKeys() throws IOException {
        Policy policy = Policy.stringPolicy().withGroupSize(3).withBlockWidth(2);
        byte[] a = BitStrings.shiftedRight(Rec.bytes("a"), 8, 1);
        byte[] b = BitStrings.shiftedRight(Rec.bytes("b"), 8, 1);
        Encoded s = encode(policy, new byte[][] {a, b}, new long[] {9, 9});
        String bits = "1" + "0001010" + "001100001" + "011" + "011" + "10";
        assertEquals(bits, BitWorkedExampleTest.bitsOf(s.bytes(), 0, bits.length()));
        assertEquals(bits.length(), s.extent());
        assertEquals(9, s.terminal());
    }

    /** Repeats are legal in borrowed streams: retained = the previous length, an empty suffix (backspace 0). */
    @Test
    void repeatedBorrowedKeysKeepEverything() throws IOException {
        Policy policy = Policy.stringPolicy().withFormat(SegmentFormat.KV02).withBlockWidth(15);
        Encoded s = encode(policy, new byte[][] {Rec.bytes("a"), Rec.bytes("a")}, new long[] {8, 8});
        String bits = "1" + "0001001" + "01100001" + "1" + "1";
        assertEquals(bits, BitWorkedExampleTest.bitsOf(s.bytes(), 0, bits.length()));
        assertEquals(18, s.extent());
    }
}

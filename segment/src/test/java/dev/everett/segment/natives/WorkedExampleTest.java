package dev.everett.segment.natives;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.everett.api.Policy;
import dev.everett.segment.io.LittleEndian;
import dev.everett.segment.testing.Rec;
import dev.everett.segment.testing.SegmentFixtures;
import dev.everett.segment.testing.WorkedDumps;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The KV02 worked example of docs/format.md, byte for byte. */
public class WorkedExampleTest {
    public static final List<Rec> RECORDS = List.of(
            Rec.of("apple", "red"), Rec.of("apricot", null), Rec.of("banana", ""), Rec.of("band", "x"));

    static final String FILE = WorkedDumps.text("kv02-bytes.hex");

    static byte[] hex(String text) {
        return HexFormat.of().parseHex(text.replaceAll("\\s+", ""));
    }

    @Test
    void defaultBytePolicyMatchesTheWorkedExample(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("example.kv");
        SegmentFixtures.write(file, Policy.defaultBytes(), RECORDS);
        assertEquals(HexFormat.of().formatHex(hex(FILE)), HexFormat.of().formatHex(Files.readAllBytes(file)));
        try (NativeReader r = SegmentFixtures.open(file, Policy.defaultBytes())) {
            assertEquals(RECORDS, SegmentFixtures.walk(r));
            var report = r.verify();
            assertEquals(4, report.records());
            assertEquals(true, report.canonical());
        }
    }

    @Test
    void blockWidthTwoMovesTheSecondBlockStartAndItsDirectory(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("w2.kv");
        Policy w2 = Policy.defaultBytes().withBlockWidth(2);
        SegmentFixtures.write(file, w2, RECORDS);
        byte[] b = Files.readAllBytes(file);
        int fc = 96 + 128;
        // Record 2 starts block 1 at FC offset 21 and is literal: ABS 0 instead of BACK 7.
        assertEquals(0, b[fc + 21]);
        try (NativeReader r = SegmentFixtures.open(file, w2)) {
            NativeReader.Typed t = r.typed();
            assertEquals(37, t.directory().universe());
            assertEquals(3, t.directory().lowWidth());
            assertEquals(0, t.offsets().select(0));
            assertEquals(21, t.offsets().select(1));
            assertEquals(37, t.offsets().select(2));
            long low = LittleEndian.u64(r.file(), 96 + t.directory().offsets()[Kv02Directory.LOW]);
            long high = LittleEndian.u64(r.file(), 96 + t.directory().offsets()[Kv02Directory.HIGH]);
            assertEquals(0x168, low);
            assertEquals(0x49, high);
            assertEquals(RECORDS, SegmentFixtures.walk(r));
            r.verify();
            var loc = r.recordAt(3);
            assertEquals(4, loc.keyLength());
            assertEquals(3, loc.retained());
            assertArrayEquals(Rec.bytes("d"), loc.suffix().toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
        }
        // Same sizes as W = 15: only that one byte changes in the FC stream.
        assertEquals(hex(FILE).length, b.length);
    }
}

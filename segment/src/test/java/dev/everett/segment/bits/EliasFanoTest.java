package dev.everett.segment.bits;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.everett.api.CorruptSegmentException;
import dev.everett.segment.io.Corruption;
import dev.everett.segment.io.LittleEndian;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The canonical Elias–Fano layout (docs/format.md, "Elias–Fano block directory") and its in-place reader. */
class EliasFanoTest {
    /** Lays the four sections out back to back in one segment and opens a reader over them. */
    private static EliasFanoReader reader(EliasFano ef, Arena arena) {
        long[][] sections = {ef.low(), ef.high(), ef.samples(), ef.sparse()};
        int words = 0;
        for (long[] s : sections) {
            words += s.length;
        }
        MemorySegment seg = arena.allocate(8L * words + 8);
        long[] offsets = new long[4];
        long at = 0;
        for (int i = 0; i < 4; i++) {
            offsets[i] = at;
            MemorySegment.copy(sections[i], 0, seg, LittleEndian.U64, at, sections[i].length);
            at += 8L * sections[i].length;
        }
        return new EliasFanoReader(seg, new Corruption(Path.of("ef")), ef.count(), ef.universe(), ef.lowWidth(),
                offsets[0], offsets[1], offsets[2], offsets[3], 8L * ef.sparse().length);
    }

    @Test
    void emptyStreamHasOneEntryAndOneHighWord() {
        EliasFano ef = EliasFano.build(new long[] {0}, 1);
        assertEquals(0, ef.universe());
        assertEquals(0, ef.lowWidth());
        assertArrayEquals(new long[0], ef.low());
        assertArrayEquals(new long[] {1}, ef.high());
        assertArrayEquals(new long[] {0, -1L}, ef.samples());
        assertArrayEquals(new long[0], ef.sparse());
    }

    @Test
    void selectAndCursorAgreeWithTheSequenceIncludingSparseGroups() {
        long seed = Long.getLong("everett.seed", new Random().nextLong());
        Random rnd = new Random(seed);
        for (int round = 0; round < 40; round++) {
            int n = 1 + rnd.nextInt(3000);
            long[] r = new long[n];
            for (int i = 1; i < n; i++) {
                // Mostly small gaps; now and then a huge one, so some groups become sparse.
                long gap = rnd.nextInt(20) == 0 ? rnd.nextInt(1 << 20) : rnd.nextInt(64);
                r[i] = r[i - 1] + (rnd.nextInt(10) == 0 ? 0 : gap);
            }
            EliasFano ef = EliasFano.build(r, n);
            try (Arena arena = Arena.ofConfined()) {
                EliasFanoReader reader = reader(ef, arena);
                for (int i = 0; i < n; i++) {
                    assertEquals(r[i], reader.select(i), "seed " + seed + " round " + round + " entry " + i);
                }
                int from = rnd.nextInt(n);
                EliasFanoReader.Cursor c = reader.cursor(from);
                for (int i = from; i < n; i++) {
                    assertEquals(r[i], c.next(), "seed " + seed + " cursor entry " + i);
                }
            }
        }
    }

    @Test
    void aWideGroupIsStoredSparseAndStillSelects() {
        // 10,000 entries with one jump of 10^9 at entry 100: w = 16, so group 0's high
        // positions span about 15,000 bits (≥ 4096) and the group must be sparse.
        int n = 10_000;
        long[] r = new long[n];
        for (int i = 1; i < n; i++) {
            r[i] = r[i - 1] + (i == 100 ? 1_000_000_000L : 1);
        }
        EliasFano ef = EliasFano.build(r, n);
        assertEquals(0, ef.samples()[1], "group 0 is sparse and starts the sparse array");
        assertEquals(-1L, ef.samples()[3], "group 1 is dense");
        assertEquals(256, ef.sparse().length);
        try (Arena arena = Arena.ofConfined()) {
            EliasFanoReader reader = reader(ef, arena);
            for (int i = 0; i < n; i += 7) {
                assertEquals(r[i], reader.select(i));
            }
        }
    }

    @Test
    void aSampleNamingAClearBitIsCorrupt() {
        EliasFano ef = EliasFano.build(new long[] {0, 5, 9}, 3);
        long[] samples = ef.samples().clone();
        samples[1] = 7; // claims a sparse group, but there is no sparse array
        EliasFano bad = new EliasFano(ef.universe(), ef.lowWidth(), ef.count(), ef.low(), ef.high(), samples, ef.sparse());
        try (Arena arena = Arena.ofConfined()) {
            EliasFanoReader reader = reader(bad, arena);
            assertThrows(CorruptSegmentException.class, () -> reader.select(1));
        }
    }
}

package dev.everett.segment.fc;

import dev.everett.segment.bits.EliasFano;
import dev.everett.segment.io.Corruption;
import dev.everett.segment.io.Envelope;
import dev.everett.segment.io.LittleEndian;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.zip.CRC32C;

/**
 * The checks of an explicit full scan that every object kind shares: the body CRC, zero gap
 * bytes between sections, and a stream walk whose block offsets rebuild the canonical
 * Elias–Fano directory, which must match the file word for word.
 */
public final class FullScan {
    private FullScan() {
    }

    /** Checks the body CRC: the CRC32C of every byte after the envelope must be the one it stores. */
    public static void bodyCrc(MemorySegment file, Envelope env, Corruption c) {
        CRC32C crc = new CRC32C();
        crcOf(file, Envelope.BYTES, file.byteSize(), crc);
        requireBodyCrc(crc.getValue(), env, c);
    }

    /** Adds {@code file[from, to)} to {@code crc}, in slices a byte buffer can view. */
    public static void crcOf(MemorySegment file, long from, long to, CRC32C crc) {
        for (long at = from; at < to; at += 1L << 30) {
            crc.update(file.asSlice(at, Math.min(1L << 30, to - at)).asByteBuffer());
        }
    }

    /** Refuses a body whose CRC32C, {@code computed} over every byte after the envelope, is not the stored one. */
    public static void requireBodyCrc(long computed, Envelope env, Corruption c) {
        long stored = Integer.toUnsignedLong(env.bodyCrc());
        if (computed != stored) {
            throw c.at(Envelope.BODY_CRC_OFFSET, "body CRC32C mismatch: stored " + Long.toHexString(stored)
                    + ", computed " + Long.toHexString(computed));
        }
    }

    /** Gap bytes between the directory and the sections, and between sections, must be 0. */
    public static void zeroGaps(MemorySegment file, Corruption c, int directoryBytes, long[] offsets, long[] lengths) {
        long body = Envelope.BYTES;
        long end = directoryBytes;
        for (int i = 0; i < offsets.length; i++) {
            for (long g = body + end; g < body + offsets[i]; g++) {
                if (file.get(ValueLayout.JAVA_BYTE, g) != 0) {
                    throw c.at(g, "gap byte before section " + i + " must be 0");
                }
            }
            end = offsets[i] + lengths[i];
        }
    }

    /**
     * Walks a stream to its end (which checks framing, order, block offsets, extent and terminal
     * length) and returns the canonical Elias–Fano encoding of its block starts (in the stream's
     * units), plus the first
     * record found with shorter-than-maximal retention (or -1) in {@code nonCanonical[0]}.
     */
    public static EliasFano walk(FcStream s, long[] nonCanonical, RecordCheck check) {
        long blocks = LittleEndian.ceilDiv(s.count(), s.blockWidth());
        if (blocks + 1 > Integer.MAX_VALUE - 8) {
            throw new UnsupportedOperationException("a scan holds one residual per block; " + blocks + " blocks is too many");
        }
        long[] residuals = new long[(int) blocks + 1];
        long stride = s.stride();
        KeyWalker w = s.keys();
        long width = s.blockWidth();
        BlockCountdown starts = new BlockCountdown(width);
        int block = 0;
        while (w.next()) {
            long o = w.ordinal();
            if (check != null) {
                check.record(w.frame());
            }
            if (starts.next()) {
                residuals[block++] = w.frame().start - s.start() - o * stride;
            }
        }
        residuals[(int) blocks] = s.end() - s.start() - s.count() * stride;
        if (nonCanonical != null) {
            nonCanonical[0] = w.firstNonCanonical();
        }
        return EliasFano.build(residuals, residuals.length);
    }

    /** A per-record check run during the walk (the value grammar of native records). */
    public interface RecordCheck {
        void record(Frame frame);
    }

    /**
     * The unused low bits of the last byte of a bit-unit section of {@code bits} meaningful bits
     * starting at file offset {@code at} must be 0.
     */
    public static void zeroBitPadding(MemorySegment file, Corruption c, long at, long bits, String what) {
        int used = (int) (bits & 7);
        if (used != 0) {
            long last = at + (bits >>> 3);
            int pad = file.get(ValueLayout.JAVA_BYTE, last) & (0xFF >>> used);
            if (pad != 0) {
                throw c.at(last, what + " padding bits must be 0");
            }
        }
    }

    /**
     * Compares a canonical encoding with the file's: universe and low width (at the given
     * offsets), then the low, high, sample and sparse sections (file offsets and lengths).
     */
    public static void sameEliasFano(MemorySegment file, Corruption c, EliasFano ef, long universe, long universeAt, int lowWidth, long lowWidthAt,
                              long[] sectionAt, long[] sectionLength) {
        if (ef.universe() != universe) {
            throw c.at(universeAt, "Elias–Fano universe " + universe + " is not the rebuilt " + ef.universe());
        }
        if (ef.lowWidth() != lowWidth) {
            throw c.at(lowWidthAt, "Elias–Fano low width " + lowWidth + " is not the canonical " + ef.lowWidth());
        }
        long[][] words = {ef.low(), ef.high(), ef.samples(), ef.sparse()};
        String[] names = {"low word", "high word", "select sample word", "sparse position"};
        for (int i = 0; i < 4; i++) {
            sameWords(file, c, sectionAt[i], sectionLength[i], words[i], "Elias–Fano " + names[i]);
        }
    }

    public static void sameWords(MemorySegment file, Corruption c, long at, long length, long[] expected, String what) {
        if (length != 8L * expected.length) {
            throw c.at(at, what + " section has " + length / 8 + " words, canonical has " + expected.length);
        }
        for (int i = 0; i < expected.length; i++) {
            if (LittleEndian.u64(file, at + 8L * i) != expected[i]) {
                throw c.at(at + 8L * i, what + " " + i + " differs from the canonical rebuild");
            }
        }
    }
}

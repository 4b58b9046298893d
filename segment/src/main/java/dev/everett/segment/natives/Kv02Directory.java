package dev.everett.segment.natives;

import dev.everett.segment.bits.EliasFano;
import dev.everett.segment.io.Corruption;
import dev.everett.segment.io.Envelope;
import dev.everett.segment.io.LittleEndian;
import dev.everett.segment.io.Sections;
import java.lang.foreign.MemorySegment;

/**
 * The 128-byte KV02 section directory at body offset 0, and its five sections: the FC record
 * stream, then the Elias–Fano low words, high words, select samples and sparse positions. All
 * offsets here are relative to the body (file offset 96).
 *
 * @param fcExtent        meaningful length of the FC section in policy units
 * @param terminalLength  the last record's key length in units (0 when empty)
 * @param universe        U, the last Elias–Fano residual
 * @param lowWidth        w
 * @param offsets         section offsets, relative to the body
 * @param lengths         section lengths in bytes
 */
public record Kv02Directory(long fcExtent, long terminalLength, long universe, int lowWidth, long[] offsets, long[] lengths)
        implements NativeDirectory {

    public static final int BYTES = 128;
    static final int MAGIC = 0x32_30_56_4B; // "KV02" little-endian
    static final int MAGIC_KV01 = 0x31_30_56_4B;
    static final int VERSION = 2;
    static final int SECTIONS = 5;
    static final int FC = 0;
    public static final int LOW = 1;
    public static final int HIGH = 2;
    public static final int SAMPLES = 3;
    public static final int SPARSE = 4;
    /** Body offset of the u8 Elias–Fano low width; reserved zero bytes follow it up to the descriptors. */
    private static final int LOW_WIDTH = 32;
    private static final int DESCRIPTORS = 48;

    /** Lays out sections after the directory with align8 starts and returns the directory. */
    public static Kv02Directory layout(long fcExtent, long fcBytes, long terminalLength, EliasFano ef) {
        long[] lengths = {fcBytes, 8L * ef.low().length, 8L * ef.high().length, 8L * ef.samples().length, 8L * ef.sparse().length};
        long[] offsets = Sections.layout(BYTES, lengths);
        return new Kv02Directory(fcExtent, terminalLength, ef.universe(), ef.lowWidth(), offsets, lengths);
    }

    @Override
    public int bytes() {
        return BYTES;
    }

    @Override
    public int lowWidthField() {
        return LOW_WIDTH;
    }

    @Override
    public byte[] encode() {
        byte[] d = NativeDirectory.encodeCommon(BYTES, MAGIC, VERSION, SECTIONS, fcExtent, terminalLength, universe);
        d[LOW_WIDTH] = (byte) lowWidth;
        Sections.encode(d, DESCRIPTORS, offsets, lengths);
        return d;
    }

    /**
     * Reads the directory and checks its shape against the envelope (Everett's typed open):
     * magic, version, section count, reserved bytes, canonical section placement, no trailing
     * bytes, FC size against its extent, the Elias–Fano section sizes and the metadata rules.
     * No payload byte is read.
     */
    static Kv02Directory parse(Corruption c, MemorySegment s, Envelope env) {
        long body = Envelope.BYTES;
        int bitsPerUnit = env.unit().bitsPerUnit();
        NativeDirectory.checkBodySize(c, s, env, BYTES, "KV02", 8 / bitsPerUnit, "units");
        int magic = (int) LittleEndian.u32(s, body);
        c.require(magic != MAGIC_KV01, body, "KV01 (directory version 1) is not supported");
        c.require(magic != Kv03Directory.MAGIC || env.unit() == dev.everett.api.Unit.BIT, body, "a KV03 directory in a byte-unit file (KV03 is bit-unit only)");
        c.require(magic == MAGIC, body, "bad directory magic: expected \"KV02\"");
        NativeDirectory.checkFixedFields(c, s, body, "KV02", VERSION, SECTIONS, LOW_WIDTH + 1, DESCRIPTORS);
        long fcExtent = LittleEndian.u64(s, body + EXTENT_FIELD);
        long terminal = LittleEndian.u64(s, body + TERMINAL_FIELD);
        long universe = LittleEndian.u64(s, body + UNIVERSE_FIELD);
        int w = LittleEndian.u8(s, body + LOW_WIDTH);
        Sections sections = Sections.parse(c, s, BYTES, DESCRIPTORS, SECTIONS);
        long[] offsets = sections.offsets();
        long[] lengths = sections.lengths();
        c.require(Long.compareUnsigned(fcExtent, Long.MAX_VALUE / 8) <= 0 && lengths[FC] == LittleEndian.ceilDiv(fcExtent * bitsPerUnit, 8), body + EXTENT_FIELD,
                () -> "FC section length " + lengths[FC] + " disagrees with the FC extent " + Long.toUnsignedString(fcExtent));
        c.require(w <= 63, body + LOW_WIDTH, () -> "Elias–Fano low width must be ≤ 63, found " + w);
        long count = env.recordCount();
        long n = LittleEndian.ceilDiv(count, env.blockWidth()) + 1;
        NativeDirectory.checkBlockDirectory(c, body + DESCRIPTORS, lengths, n, universe, w);
        NativeDirectory.checkMetadata(c, env, body, "FC extent", fcExtent, terminal, universe);
        return new Kv02Directory(fcExtent, terminal, universe, w, offsets, lengths);
    }
}

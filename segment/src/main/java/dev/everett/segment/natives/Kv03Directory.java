package dev.everett.segment.natives;

import dev.everett.segment.bits.EliasFano;
import dev.everett.segment.fc.Framing;
import dev.everett.segment.io.Corruption;
import dev.everett.segment.io.Envelope;
import dev.everett.segment.io.FileOutput;
import dev.everett.segment.io.LittleEndian;
import dev.everett.segment.io.Sections;
import java.io.IOException;
import java.lang.foreign.MemorySegment;

/**
 * The 192-byte KV03 section directory at body offset 0 (docs/format.md, "KV03 body") and its eight
 * sections: the record payload, the four Elias–Fano sections (as in KV02, over bit positions),
 * the selector dictionary, its bit offsets, and the per-block seeds. Offsets are relative to the
 * body (file offset 96).
 *
 * <p>Everett's string policy has one sort, whose code is the single bit {@code 0}; code
 * {@code 1} is its undefined sort and never valid (D5). So a file with records has exactly the
 * dictionary {@code 0} (one byte {@code 00}, one bit), offsets [0, 1] and no seed bits (one sort
 * needs 0 bits per block); a file without records has an empty dictionary and offsets [0].
 *
 * @param fcExtent        payload extent in bits
 * @param terminalLength  the last record's logical key length in bits (sort code included), 0 when empty
 * @param universe        U, the last Elias–Fano residual
 * @param dictionaryBits  dictionary length in bits
 * @param seedBits        seed vector length in bits
 * @param lowWidth        w
 * @param offsets         section offsets, relative to the body
 * @param lengths         section lengths in bytes
 */
public record Kv03Directory(long fcExtent, long terminalLength, long universe, long dictionaryBits, long seedBits, int lowWidth,
                     long[] offsets, long[] lengths) implements NativeDirectory {

    public static final int BYTES = 192;
    static final int MAGIC = 0x33_30_56_4B; // "KV03" little-endian
    static final int VERSION = 3;
    static final int SECTIONS = 8;
    static final int DICTIONARY = 5;
    public static final int DICTIONARY_OFFSETS = 6;
    static final int SEEDS = 7;
    private static final int DESCRIPTORS = 64;

    /** Lays out the sections after the directory, for a file with or without records. */
    public static Kv03Directory layout(long extent, long terminalLength, EliasFano ef, boolean records) {
        long[] lengths = {LittleEndian.ceilDiv(extent, 8), 8L * ef.low().length, 8L * ef.high().length, 8L * ef.samples().length,
                8L * ef.sparse().length, records ? 1 : 0, records ? 16 : 8, 0};
        long[] offsets = Sections.layout(BYTES, lengths);
        return new Kv03Directory(extent, terminalLength, ef.universe(), records ? 1 : 0, 0, ef.lowWidth(), offsets, lengths);
    }

    /** The dictionary section's bytes: the code {@code 0} padded to a byte, or nothing. */
    byte[] dictionary() {
        return new byte[(int) lengths[DICTIONARY]];
    }

    /** The dictionary offsets: [0, 1] with records, [0] without. */
    public long[] dictionaryOffsets() {
        return dictionaryBits == 0 ? new long[] {0} : new long[] {0, dictionaryBits};
    }

    @Override
    public void writeTrailingSections(FileOutput out, SectionStart start) throws IOException {
        start.at(offsets[DICTIONARY]);
        byte[] dictionary = dictionary();
        out.write(dictionary, 0, dictionary.length);
        start.at(offsets[DICTIONARY_OFFSETS]);
        out.write(dictionaryOffsets());
        start.at(offsets[SEEDS]);
    }

    @Override
    public int bytes() {
        return BYTES;
    }

    @Override
    public int universeField() {
        return 24;
    }

    @Override
    public int lowWidthField() {
        return 48;
    }

    @Override
    public int terminalField() {
        return 16;
    }

    @Override
    public byte[] encode() {
        byte[] d = new byte[BYTES];
        LittleEndian.putU32(d, 0, MAGIC);
        LittleEndian.putU16(d, 4, VERSION);
        LittleEndian.putU16(d, 6, SECTIONS);
        LittleEndian.putU64(d, 8, fcExtent);
        LittleEndian.putU64(d, 16, terminalLength);
        LittleEndian.putU64(d, 24, universe);
        LittleEndian.putU64(d, 32, dictionaryBits);
        LittleEndian.putU64(d, 40, seedBits);
        d[48] = (byte) lowWidth;
        Sections.encode(d, DESCRIPTORS, offsets, lengths);
        return d;
    }

    /**
     * Reads the directory and checks it against the envelope (Everett's typed open, plus the
     * dictionary's few bytes, which decide whether the file belongs to this policy at all):
     * magic, version, section count, reserved bytes, canonical section placement, no trailing
     * bytes, payload size against its extent, the Elias–Fano shapes, the dictionary, its offsets
     * and the seeds against their bit counts, and the metadata rules. No payload byte is read.
     */
    static Kv03Directory parse(Corruption c, MemorySegment s, Envelope env) {
        long body = Envelope.BYTES;
        long bodyBytes = s.byteSize() - body;
        c.require(env.unit() == dev.everett.api.Unit.BIT, 16, "KV03 files are bit-unit only");
        c.require(bodyBytes >= BYTES, s.byteSize(), "body shorter than the 192-byte KV03 directory");
        c.require(env.extent() == bodyBytes * 8, 48, "envelope extent must be the body size in bits");
        int magic = (int) LittleEndian.u32(s, body);
        c.require(magic == MAGIC, body, "bad directory magic: expected \"KV03\"");
        c.require(LittleEndian.u16(s, body + 4) == VERSION, body + 4, "KV03 directory version must be 3, found " + LittleEndian.u16(s, body + 4));
        c.require(LittleEndian.u16(s, body + 6) == SECTIONS, body + 6, "KV03 section count must be 8, found " + LittleEndian.u16(s, body + 6));
        long extent = LittleEndian.u64(s, body + 8);
        long terminal = LittleEndian.u64(s, body + 16);
        long universe = LittleEndian.u64(s, body + 24);
        long dictBits = LittleEndian.u64(s, body + 32);
        long seedBits = LittleEndian.u64(s, body + 40);
        int w = LittleEndian.u8(s, body + 48);
        for (int i = 49; i < DESCRIPTORS; i++) {
            c.require(LittleEndian.u8(s, body + i) == 0, body + i, "reserved directory byte " + i + " must be 0");
        }
        Sections sections = Sections.parse(c, s, BYTES, DESCRIPTORS, SECTIONS);
        long[] offsets = sections.offsets();
        long[] lengths = sections.lengths();
        c.require(Long.compareUnsigned(extent, Long.MAX_VALUE - 7) <= 0 && lengths[FC] == LittleEndian.ceilDiv(extent, 8), body + 8,
                "payload section length " + lengths[FC] + " disagrees with the extent of " + Long.toUnsignedString(extent) + " bits");
        c.require(w <= 63, body + 48, "Elias–Fano low width must be ≤ 63, found " + w);
        long count = env.recordCount();
        long blocks = LittleEndian.ceilDiv(count, env.blockWidth());
        long n = blocks + 1;
        long desc = body + DESCRIPTORS;
        NativeDirectory.checkBlockDirectory(c, desc, lengths, n, universe, w);
        // The selector dictionary, its offsets and the seeds.
        c.require(lengths[DICTIONARY_OFFSETS] % 8 == 0 && lengths[DICTIONARY_OFFSETS] >= 8, desc + 16 * DICTIONARY_OFFSETS + 8,
                "dictionary offsets must be at least one whole word");
        long sorts = lengths[DICTIONARY_OFFSETS] / 8 - 1;
        c.require(Long.compareUnsigned(dictBits, Long.MAX_VALUE - 7) <= 0 && lengths[DICTIONARY] == LittleEndian.ceilDiv(dictBits, 8), body + 32,
                "dictionary section length " + lengths[DICTIONARY] + " disagrees with its " + Long.toUnsignedString(dictBits) + " bits");
        c.require((count > 0) == (sorts > 0), desc + 16 * DICTIONARY_OFFSETS + 8,
                count > 0 ? "a file with records must list its sort codes" : "a file without records must have an empty dictionary");
        c.require(sorts <= 1, desc + 16 * DICTIONARY_OFFSETS + 8, "the dictionary lists " + sorts + " sorts but the string policy has one");
        long offsetsAt = body + offsets[DICTIONARY_OFFSETS];
        c.require(LittleEndian.u64(s, offsetsAt) == 0, offsetsAt, "the first dictionary offset must be 0");
        if (sorts == 1) {
            c.require(LittleEndian.u64(s, offsetsAt + 8) == dictBits, offsetsAt + 8, "the last dictionary offset must be the dictionary's length");
            c.require(dictBits == Framing.KV03_PATH_BITS, body + 32, "the string policy's sort code is 1 bit, the dictionary holds " + Long.toUnsignedString(dictBits));
            int code = LittleEndian.u8(s, body + offsets[DICTIONARY]);
            c.require((code & 0x80) == 0, body + offsets[DICTIONARY], "sort code 1 (the undefined sort) in the dictionary");
            c.require(code == 0, body + offsets[DICTIONARY], "dictionary padding bits must be 0");
        } else {
            c.require(dictBits == 0, body + 32, "an empty dictionary has 0 bits");
        }
        int seedWidth = sorts < 2 ? 0 : 64 - Long.numberOfLeadingZeros(sorts - 1);
        c.require(seedBits == blocks * seedWidth, body + 40, "seed vector of " + Long.toUnsignedString(seedBits) + " bits, expected " + blocks * seedWidth);
        c.require(lengths[SEEDS] == LittleEndian.ceilDiv(seedBits, 8), desc + 16 * SEEDS + 8, "seed section length disagrees with its bit count");
        // Metadata.
        if (count == 0) {
            c.require(extent == 0 && terminal == 0, body + 8, "an empty file must have extent 0 and terminal length 0");
        }
        long v = env.hasCommonWidth() ? env.commonWidth() : 0;
        if (env.hasPolicyWidth()) {
            c.require(env.hasCommonWidth() && env.commonWidth() == env.policyWidth(), 40, "a fixed-width policy requires the common width to equal it");
        }
        c.require(v == 0 || Long.compareUnsigned(count, Long.divideUnsigned(extent, v)) <= 0, body + 8, "record count × common width exceeds the extent");
        c.require(universe == extent - count * v, body + 24, "Elias–Fano universe must equal extent − count × common width");
        c.require(Long.compareUnsigned(terminal, extent) <= 0, body + 16, "terminal key length exceeds the extent");
        return new Kv03Directory(extent, terminal, universe, dictBits, seedBits, w, offsets, lengths);
    }
}

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
    /** Body offsets of KV03's own fields: u64 dictionary bits, u64 seed bits, u8 low width (reserved zero bytes follow it). */
    private static final int DICTIONARY_BITS = 32;
    private static final int SEED_BITS = 40;
    private static final int LOW_WIDTH = 48;
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
    public int lowWidthField() {
        return LOW_WIDTH;
    }

    @Override
    public byte[] encode() {
        byte[] d = NativeDirectory.encodeCommon(BYTES, MAGIC, VERSION, SECTIONS, fcExtent, terminalLength, universe);
        LittleEndian.putU64(d, DICTIONARY_BITS, dictionaryBits);
        LittleEndian.putU64(d, SEED_BITS, seedBits);
        d[LOW_WIDTH] = (byte) lowWidth;
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
        c.require(env.unit() == dev.everett.api.Unit.BIT, 16, "KV03 files are bit-unit only");
        NativeDirectory.checkBodySize(c, s, env, BYTES, "KV03", 8, "bits");
        int magic = (int) LittleEndian.u32(s, body);
        c.require(magic == MAGIC, body, "bad directory magic: expected \"KV03\"");
        NativeDirectory.checkFixedFields(c, s, body, "KV03", VERSION, SECTIONS, LOW_WIDTH + 1, DESCRIPTORS);
        long extent = LittleEndian.u64(s, body + EXTENT_FIELD);
        long terminal = LittleEndian.u64(s, body + TERMINAL_FIELD);
        long universe = LittleEndian.u64(s, body + UNIVERSE_FIELD);
        long dictBits = LittleEndian.u64(s, body + DICTIONARY_BITS);
        long seedBits = LittleEndian.u64(s, body + SEED_BITS);
        int w = LittleEndian.u8(s, body + LOW_WIDTH);
        Sections sections = Sections.parse(c, s, BYTES, DESCRIPTORS, SECTIONS);
        long[] offsets = sections.offsets();
        long[] lengths = sections.lengths();
        c.require(Long.compareUnsigned(extent, Long.MAX_VALUE - 7) <= 0 && lengths[FC] == LittleEndian.ceilDiv(extent, 8), body + EXTENT_FIELD,
                () -> "payload section length " + lengths[FC] + " disagrees with the extent of " + Long.toUnsignedString(extent) + " bits");
        c.require(w <= 63, body + LOW_WIDTH, () -> "Elias–Fano low width must be ≤ 63, found " + w);
        long count = env.recordCount();
        long blocks = LittleEndian.ceilDiv(count, env.blockWidth());
        long n = blocks + 1;
        long desc = body + DESCRIPTORS;
        NativeDirectory.checkBlockDirectory(c, desc, lengths, n, universe, w);
        // The selector dictionary, its offsets and the seeds.
        c.require(lengths[DICTIONARY_OFFSETS] % 8 == 0 && lengths[DICTIONARY_OFFSETS] >= 8, desc + 16 * DICTIONARY_OFFSETS + 8,
                "dictionary offsets must be at least one whole word");
        long sorts = lengths[DICTIONARY_OFFSETS] / 8 - 1;
        c.require(Long.compareUnsigned(dictBits, Long.MAX_VALUE - 7) <= 0 && lengths[DICTIONARY] == LittleEndian.ceilDiv(dictBits, 8), body + DICTIONARY_BITS,
                () -> "dictionary section length " + lengths[DICTIONARY] + " disagrees with its " + Long.toUnsignedString(dictBits) + " bits");
        c.require((count > 0) == (sorts > 0), desc + 16 * DICTIONARY_OFFSETS + 8,
                () -> count > 0 ? "a file with records must list its sort codes" : "a file without records must have an empty dictionary");
        c.require(sorts <= 1, desc + 16 * DICTIONARY_OFFSETS + 8, () -> "the dictionary lists " + sorts + " sorts but the string policy has one");
        long offsetsAt = body + offsets[DICTIONARY_OFFSETS];
        c.require(LittleEndian.u64(s, offsetsAt) == 0, offsetsAt, "the first dictionary offset must be 0");
        if (sorts == 1) {
            c.require(LittleEndian.u64(s, offsetsAt + 8) == dictBits, offsetsAt + 8, "the last dictionary offset must be the dictionary's length");
            c.require(dictBits == Framing.KV03_PATH_BITS, body + DICTIONARY_BITS, () -> "the string policy's sort code is 1 bit, the dictionary holds " + Long.toUnsignedString(dictBits));
            int code = LittleEndian.u8(s, body + offsets[DICTIONARY]);
            c.require((code & 0x80) == 0, body + offsets[DICTIONARY], "sort code 1 (the undefined sort) in the dictionary");
            c.require(code == 0, body + offsets[DICTIONARY], "dictionary padding bits must be 0");
        } else {
            c.require(dictBits == 0, body + DICTIONARY_BITS, "an empty dictionary has 0 bits");
        }
        int seedWidth = sorts < 2 ? 0 : 64 - Long.numberOfLeadingZeros(sorts - 1);
        c.require(seedBits == blocks * seedWidth, body + SEED_BITS, () -> "seed vector of " + Long.toUnsignedString(seedBits) + " bits, expected " + blocks * seedWidth);
        c.require(lengths[SEEDS] == LittleEndian.ceilDiv(seedBits, 8), desc + 16 * SEEDS + 8, "seed section length disagrees with its bit count");
        NativeDirectory.checkMetadata(c, env, body, "extent", extent, terminal, universe);
        return new Kv03Directory(extent, terminal, universe, dictBits, seedBits, w, offsets, lengths);
    }
}

package dev.everett.segment.index;

import dev.everett.api.ObjectId;
import dev.everett.segment.bits.EliasFano;
import dev.everett.segment.io.Corruption;
import dev.everett.segment.io.Envelope;
import dev.everett.segment.io.LittleEndian;
import dev.everett.segment.io.Sections;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The 448-byte IX03 directory: the virtual count V, per route (0 = main, 1 = secondary) the
 * borrowed count, FC extent, terminal key length and Elias–Fano universe and low width, the
 * target flags, four identities, and 18 section descriptors. Offsets are body-relative.
 *
 * <p>Slots: 0–4 main FC, EF low, high, samples, sparse; 5–9 the same for the secondary; 10/11
 * main rank classes and checkpoints; 12/13 secondary; 14/15 false-borrow bits; 16/17 cut LCPs.
 */
public record IndexDirectory(long virtualCount, long[] counts, long[] extents, long[] terminalLengths,
                      long[] universes, int[] lowWidths, boolean[] present,
                      ObjectId nativeId, ObjectId mainNativeId, ObjectId mainIndexId, ObjectId secondaryId,
                      long[] offsets, long[] lengths) {

    static final int BYTES = 448;
    static final int MAGIC = 0x33_30_58_49; // "IX03"
    static final int MAGIC_IX02 = 0x32_30_58_49;
    static final int VERSION = 3;
    static final int SECTIONS = 18;
    static final int ROUTE_SLOTS = 5;
    static final int CLASSES = 10;
    static final int FLAGS = 14;
    static final int CUTS = 16;
    private static final int DESCRIPTORS = 160;

    // Field offsets, relative to the body (the directory starts it); route fields hold the main
    // route's value first and the secondary's 8 bytes (1 byte for the u8 fields) after it.
    /** u64 virtual count V. */
    public static final int VIRTUAL_COUNT = 8;
    /** u64 borrowed key counts, main then secondary. */
    public static final int BORROWED_COUNTS = 16;
    /** u64 FC extents of the borrowed streams. */
    public static final int EXTENTS = 32;
    /** u64 terminal key lengths of the borrowed streams. */
    public static final int TERMINAL_LENGTHS = 48;
    /** u64 Elias–Fano universes of the borrowed streams. */
    public static final int UNIVERSES = 64;
    /** u8 Elias–Fano low widths. */
    public static final int LOW_WIDTHS = 80;
    /** u8 target flags: main present, secondary present. */
    public static final int TARGET_FLAGS = 82;
    /** The identity of this catalog's native. */
    public static final int NATIVE_ID = 88;
    /** The identity of the main target's native. */
    public static final int MAIN_NATIVE_ID = 104;
    /** The identity of the main target's index. */
    public static final int MAIN_INDEX_ID = 120;
    /** The identity of the secondary target (a native). */
    public static final int SECONDARY_ID = 136;

    /** The file offset of a directory field (the body follows the envelope). */
    public static long inFile(long field) {
        return Envelope.BYTES + field;
    }

    static int fcSlot(int route) {
        return route * ROUTE_SLOTS;
    }

    static int classSlot(int route) {
        return CLASSES + 2 * route;
    }

    static int checkpointSlot(int route) {
        return CLASSES + 2 * route + 1;
    }

    static int flagSlot(int route) {
        return FLAGS + route;
    }

    static int cutSlot(int route) {
        return CUTS + route;
    }

    /** Bits per rank class: log2(K + 1). */
    static int classBits(long k) {
        return 63 - Long.numberOfLeadingZeros(k + 1);
    }

    static long groups(long v, long k) {
        return LittleEndian.ceilDiv(v, k);
    }

    /** Section lengths implied by the route shapes (slots 1–4, 6–9 come from the EF encodings). */
    static long[] layoutOffsets(long[] lengths) {
        return Sections.layout(BYTES, lengths);
    }

    long bodyBytes() {
        return offsets[SECTIONS - 1] + lengths[SECTIONS - 1];
    }

    byte[] encode() {
        byte[] d = new byte[BYTES];
        LittleEndian.putU32(d, 0, MAGIC);
        LittleEndian.putU16(d, 4, VERSION);
        LittleEndian.putU16(d, 6, SECTIONS);
        LittleEndian.putU64(d, VIRTUAL_COUNT, virtualCount);
        for (int r = 0; r < 2; r++) {
            LittleEndian.putU64(d, BORROWED_COUNTS + 8 * r, counts[r]);
            LittleEndian.putU64(d, EXTENTS + 8 * r, extents[r]);
            LittleEndian.putU64(d, TERMINAL_LENGTHS + 8 * r, terminalLengths[r]);
            LittleEndian.putU64(d, UNIVERSES + 8 * r, universes[r]);
            d[LOW_WIDTHS + r] = (byte) lowWidths[r];
            d[TARGET_FLAGS + r] = (byte) (present[r] ? 1 : 0);
        }
        nativeId.toBytes(d, NATIVE_ID);
        mainNativeId.toBytes(d, MAIN_NATIVE_ID);
        mainIndexId.toBytes(d, MAIN_INDEX_ID);
        secondaryId.toBytes(d, SECONDARY_ID);
        Sections.encode(d, DESCRIPTORS, offsets, lengths);
        return d;
    }

    private static ObjectId id(MemorySegment s, long at) {
        byte[] b = s.asSlice(at, 16).toArray(ValueLayout.JAVA_BYTE);
        return ObjectId.fromBytes(b, 0);
    }

    /**
     * Reads the directory and checks its shape against the envelope, without reading any
     * section: magic, version, counts, flags and zero bytes, identities of absent targets,
     * canonical placement, and every section size against V, K, W and the route shapes.
     */
    static IndexDirectory parse(Corruption c, MemorySegment s, Envelope env) {
        long body = Envelope.BYTES;
        long bodyBytes = s.byteSize() - body;
        int bitsPerUnit = env.unit().bitsPerUnit();
        c.require(bodyBytes >= BYTES, s.byteSize(), "body shorter than the 448-byte IX03 directory");
        c.require(env.extent() == bodyBytes * (8 / bitsPerUnit), 48, "envelope extent must be the body size in units");
        int magic = (int) LittleEndian.u32(s, body);
        c.require(magic != MAGIC_IX02, body, "IX02 (single-route) index directories are not supported");
        c.require(magic == MAGIC, body, "bad index directory magic: expected \"IX03\"");
        c.require(LittleEndian.u16(s, body + 4) == VERSION, body + 4, () -> "IX03 directory version must be 3, found " + LittleEndian.u16(s, body + 4));
        c.require(LittleEndian.u16(s, body + 6) == SECTIONS, body + 6, () -> "IX03 section count must be 18, found " + LittleEndian.u16(s, body + 6));
        long v = LittleEndian.u64(s, body + VIRTUAL_COUNT);
        long[] counts = new long[2];
        long[] extents = new long[2];
        long[] terminals = new long[2];
        long[] universes = new long[2];
        int[] lows = new int[2];
        boolean[] present = new boolean[2];
        for (int r = 0; r < 2; r++) {
            counts[r] = LittleEndian.u64(s, body + BORROWED_COUNTS + 8 * r);
            extents[r] = LittleEndian.u64(s, body + EXTENTS + 8 * r);
            terminals[r] = LittleEndian.u64(s, body + TERMINAL_LENGTHS + 8 * r);
            universes[r] = LittleEndian.u64(s, body + UNIVERSES + 8 * r);
            lows[r] = LittleEndian.u8(s, body + LOW_WIDTHS + r);
            int flag = LittleEndian.u8(s, body + TARGET_FLAGS + r);
            c.require(flag <= 1, body + TARGET_FLAGS + r, () -> "target flag must be 0 or 1, found " + flag);
            present[r] = flag == 1;
        }
        for (long i = 84; i < 88; i++) {
            long at = i;
            c.require(LittleEndian.u8(s, body + at) == 0, body + at, () -> "reserved directory byte " + at + " must be 0");
        }
        for (long i = 152; i < 160; i++) {
            long at = i;
            c.require(LittleEndian.u8(s, body + at) == 0, body + at, () -> "reserved directory byte " + at + " must be 0");
        }
        ObjectId nativeId = id(s, body + NATIVE_ID);
        ObjectId mainNative = id(s, body + MAIN_NATIVE_ID);
        ObjectId mainIndex = id(s, body + MAIN_INDEX_ID);
        ObjectId secondary = id(s, body + SECONDARY_ID);
        c.require(present[0] || (mainNative.equals(ObjectId.NONE) && mainIndex.equals(ObjectId.NONE)), body + MAIN_NATIVE_ID,
                "absent main target must have zero identities");
        c.require(present[1] || secondary.equals(ObjectId.NONE), body + SECONDARY_ID, "absent secondary target must have a zero identity");
        c.require(Long.compareUnsigned(v, 1L << 56) < 0, body + VIRTUAL_COUNT, "virtual count beyond 2^56 is not supported");
        c.require(Long.compareUnsigned(counts[0], v) <= 0 && Long.compareUnsigned(counts[1], v - counts[0]) <= 0, body + BORROWED_COUNTS,
                "borrowed counts exceed the virtual count");
        c.require(counts[0] + counts[1] == env.recordCount(), 56, "envelope record count must be the sum of the borrowed counts");
        for (int r = 0; r < 2; r++) {
            c.require(present[r] || counts[r] == 0, body + BORROWED_COUNTS + 8 * r, "absent route must have no borrowed keys");
        }
        Sections sections = Sections.parse(c, s, BYTES, DESCRIPTORS, SECTIONS);
        long[] offsets = sections.offsets();
        long[] lengths = sections.lengths();
        long k = env.groupSize();
        long g = groups(v, k);
        int b = classBits(k);
        for (int r = 0; r < 2; r++) {
            int route = r; // for the messages, built only on failure
            long slot = body + DESCRIPTORS + 16L * fcSlot(r);
            c.require(Long.compareUnsigned(extents[r], Long.MAX_VALUE / 8) <= 0 && lengths[fcSlot(r)] == LittleEndian.ceilDiv(extents[r] * bitsPerUnit, 8), slot + 8,
                    () -> "route " + route + " FC section length disagrees with its extent");
            c.require(lows[r] <= 63, body + LOW_WIDTHS + r, () -> "route " + route + " Elias–Fano low width must be ≤ 63");
            long n = LittleEndian.ceilDiv(counts[r], env.blockWidth()) + 1;
            c.require(universes[r] == extents[r], body + UNIVERSES + 8 * r, () -> "route " + route + " Elias–Fano universe must equal its FC extent");
            c.require(counts[r] > 0 || (extents[r] == 0 && terminals[r] == 0), body + EXTENTS + 8 * r, "empty route must have extent 0 and terminal length 0");
            c.require(Long.compareUnsigned(terminals[r], extents[r]) <= 0, body + TERMINAL_LENGTHS + 8 * r, () -> "route " + route + " terminal key length exceeds its extent");
            c.require(lengths[fcSlot(r) + 1] == 8 * EliasFano.lowWords(n, lows[r]), slot + 24, () -> "route " + route + " Elias–Fano low section size");
            c.require(lengths[fcSlot(r) + 2] == 8 * EliasFano.highWords(universes[r], lows[r], n), slot + 40, () -> "route " + route + " Elias–Fano high section size");
            c.require(lengths[fcSlot(r) + 3] == 16 * EliasFano.sampleCount(n), slot + 56, () -> "route " + route + " Elias–Fano sample section size");
            c.require(lengths[fcSlot(r) + 4] % 8 == 0, slot + 72, () -> "route " + route + " Elias–Fano sparse section is not whole words");
            c.require(lengths[classSlot(r)] == 8 * LittleEndian.ceilDiv(g * b, 64), body + DESCRIPTORS + 16L * classSlot(r) + 8, () -> "route " + route + " rank class section size");
            c.require(lengths[checkpointSlot(r)] == 8 * LittleEndian.ceilDiv(g, 128), body + DESCRIPTORS + 16L * checkpointSlot(r) + 8, () -> "route " + route + " rank checkpoint section size");
            c.require(lengths[flagSlot(r)] == LittleEndian.ceilDiv(counts[r], 8), body + DESCRIPTORS + 16L * flagSlot(r) + 8, () -> "route " + route + " false-borrow section size");
            c.require(lengths[cutSlot(r)] == 8 * g, body + DESCRIPTORS + 16L * cutSlot(r) + 8, () -> "route " + route + " cut-LCP section size");
        }
        return new IndexDirectory(v, counts, extents, terminals, universes, lows, present,
                nativeId, mainNative, mainIndex, secondary, offsets, lengths);
    }
}

package dev.everett.segment.natives;

import dev.everett.segment.bits.EliasFano;
import dev.everett.segment.fc.Framing;
import dev.everett.segment.io.Corruption;
import dev.everett.segment.io.Envelope;
import dev.everett.segment.io.FileOutput;
import dev.everett.segment.io.LittleEndian;
import java.io.IOException;
import java.lang.foreign.MemorySegment;

/**
 * What a native file's section directory says, whatever its format: the record stream's extent
 * and terminal key length, the Elias–Fano parameters and where each section lies (offsets and
 * lengths relative to the body; slots 0–4 are the record stream and the four Elias–Fano sections
 * in both formats).
 */
public interface NativeDirectory {
    int FC = 0;
    int LOW = 1;
    int HIGH = 2;
    int SAMPLES = 3;
    int SPARSE = 4;

    /** The size of the directory of a native in {@code framing}: KV03's, else KV02's. */
    static int bytes(Framing framing) {
        return framing.kind() == Framing.Kind.KV03 ? Kv03Directory.BYTES : Kv02Directory.BYTES;
    }

    /**
     * Lays out the sections of a native in {@code framing} after its directory: the record
     * stream of {@code extent} units in {@code streamBytes} bytes, the Elias–Fano sections, and
     * for KV03 its sort dictionary (which depends on whether there are {@code records}).
     */
    static NativeDirectory layout(Framing framing, long extent, long streamBytes, long terminalLength, EliasFano ef, boolean records) {
        return framing.kind() == Framing.Kind.KV03
                ? Kv03Directory.layout(extent, terminalLength, ef, records)
                : Kv02Directory.layout(extent, streamBytes, terminalLength, ef);
    }

    /** Moves a file output to a section at a body offset, writing the zero gap before it. */
    interface SectionStart {
        void at(long bodyOffset) throws IOException;
    }

    /** The directory's bytes. */
    byte[] encode();

    /** Writes the sections after the Elias–Fano ones (KV03's dictionary); {@code start} moves to each. */
    default void writeTrailingSections(FileOutput out, SectionStart start) throws IOException {
    }

    /** Both formats start the body with a 4-byte magic ("KV02", "KV03") that names the format. */
    int MAGIC_BYTES = 4;

    /** Body offsets of the fields both formats share: u16 version, u16 section count, u64 extent, terminal length and universe. */
    int VERSION_FIELD = 4;
    int SECTIONS_FIELD = 6;
    int EXTENT_FIELD = 8;
    int TERMINAL_FIELD = 16;
    int UNIVERSE_FIELD = 24;

    /** A directory of {@code bytes} bytes with the fields both formats share filled in. */
    static byte[] encodeCommon(int bytes, int magic, int version, int sections, long extent, long terminalLength, long universe) {
        byte[] d = new byte[bytes];
        LittleEndian.putU32(d, 0, magic);
        LittleEndian.putU16(d, VERSION_FIELD, version);
        LittleEndian.putU16(d, SECTIONS_FIELD, sections);
        LittleEndian.putU64(d, EXTENT_FIELD, extent);
        LittleEndian.putU64(d, TERMINAL_FIELD, terminalLength);
        LittleEndian.putU64(d, UNIVERSE_FIELD, universe);
        return d;
    }

    /**
     * Checks that the body after the envelope holds at least the {@code format} directory of
     * {@code directoryBytes} bytes and that the envelope's extent is the body's size in units
     * ({@code unitsPerByte} of them a byte, called {@code unitName}).
     */
    static void checkBodySize(Corruption c, MemorySegment s, Envelope env, int directoryBytes, String format, long unitsPerByte, String unitName) {
        long bodyBytes = s.byteSize() - Envelope.BYTES;
        c.require(bodyBytes >= directoryBytes, s.byteSize(), () -> "body shorter than the " + directoryBytes + "-byte " + format + " directory");
        c.require(env.extent() == bodyBytes * unitsPerByte, 48, () -> "envelope extent must be the body size in " + unitName);
    }

    /**
     * Checks the version and section count of the {@code format} directory at {@code body}, and
     * that its reserved bytes {@code [reservedFrom, descriptors)} are 0.
     */
    static void checkFixedFields(Corruption c, MemorySegment s, long body, String format, int version, int sections, int reservedFrom, int descriptors) {
        int v = LittleEndian.u16(s, body + VERSION_FIELD);
        c.require(v == version, body + VERSION_FIELD, () -> format + " directory version must be " + version + ", found " + v);
        int n = LittleEndian.u16(s, body + SECTIONS_FIELD);
        c.require(n == sections, body + SECTIONS_FIELD, () -> format + " section count must be " + sections + ", found " + n);
        for (int i = reservedFrom; i < descriptors; i++) {
            int at = i;
            c.require(LittleEndian.u8(s, body + at) == 0, body + at, () -> "reserved directory byte " + at + " must be 0");
        }
    }

    /**
     * The metadata rules both formats share, over the record stream's {@code extent} (named
     * {@code extentName} in messages): an empty file has extent and terminal length 0, a fixed
     * width is the common width, the common-width values fit the extent, the Elias–Fano universe
     * is the extent less them, the terminal key fits the extent.
     */
    static void checkMetadata(Corruption c, Envelope env, long body, String extentName, long extent, long terminal, long universe) {
        long count = env.recordCount();
        if (count == 0) {
            c.require(extent == 0 && terminal == 0, body + EXTENT_FIELD, () -> "an empty file must have " + extentName + " 0 and terminal length 0");
        }
        long v = env.hasCommonWidth() ? env.commonWidth() : 0;
        if (env.hasPolicyWidth()) {
            c.require(env.hasCommonWidth() && env.commonWidth() == env.policyWidth(), 40, "a fixed-width policy requires the common width to equal it");
        }
        c.require(v == 0 || Long.compareUnsigned(count, Long.divideUnsigned(extent, v)) <= 0, body + EXTENT_FIELD,
                () -> "record count × common width exceeds the " + extentName);
        c.require(universe == extent - count * v, body + UNIVERSE_FIELD, () -> "Elias–Fano universe must equal " + extentName + " − count × common width");
        c.require(Long.compareUnsigned(terminal, extent) <= 0, body + TERMINAL_FIELD, () -> "terminal key length exceeds the " + extentName);
    }

    /** Meaningful length of the record stream in units. */
    long fcExtent();

    /** The last record's key length in units (KV03: of its logical key), 0 when empty. */
    long terminalLength();

    long universe();

    int lowWidth();

    long[] offsets();

    long[] lengths();

    /** The directory's own size in bytes. */
    int bytes();

    /** Body offsets of the universe and low-width fields (for error messages). */
    default int universeField() {
        return UNIVERSE_FIELD;
    }

    int lowWidthField();

    default int terminalField() {
        return TERMINAL_FIELD;
    }

    /**
     * The typed-open shape checks of the Elias–Fano sections (slots 1–4), the same in both formats:
     * their sizes against n entries, the universe U and the low width w. {@code descriptors} is the
     * file offset of the section descriptors (for error messages).
     */
    static void checkBlockDirectory(Corruption c, long descriptors, long[] lengths, long n, long universe, int w) {
        c.require(Long.compareUnsigned(n, 1L << 56) < 0, 56, "record count too large for the block directory");
        c.require(lengths[LOW] == 8 * EliasFano.lowWords(n, w), descriptors + 16 * LOW + 8, "Elias–Fano low section size disagrees with n and w");
        c.require(Long.compareUnsigned(universe >>> w, Long.MAX_VALUE / 2) < 0 && lengths[HIGH] == 8 * EliasFano.highWords(universe, w, n),
                descriptors + 16 * HIGH + 8, "Elias–Fano high section size disagrees with U, n and w");
        c.require(lengths[SAMPLES] == 16 * EliasFano.sampleCount(n), descriptors + 16 * SAMPLES + 8, "Elias–Fano sample section size disagrees with n");
        c.require(lengths[SPARSE] % 8 == 0, descriptors + 16 * SPARSE + 8, "Elias–Fano sparse section is not whole words");
    }

    default long bodyBytes() {
        long[] o = offsets();
        return o[o.length - 1] + lengths()[o.length - 1];
    }
}

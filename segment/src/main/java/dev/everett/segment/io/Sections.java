package dev.everett.segment.io;

import java.lang.foreign.MemorySegment;

/**
 * The section descriptors every body directory ends with: {@code count} pairs (offset, length),
 * offsets relative to the body. The placement is canonical and a reader refuses anything else:
 * the first section right after the directory, every section (empty ones too) at the 8-aligned
 * end of the previous one, all inside the body, and nothing after the last.
 *
 * @param offsets section offsets, relative to the body
 * @param lengths section lengths in bytes
 */
public record Sections(long[] offsets, long[] lengths) {

    /** The canonical offsets of sections of these lengths after a directory of {@code directoryBytes}. */
    public static long[] layout(int directoryBytes, long[] lengths) {
        long[] offsets = new long[lengths.length];
        long at = directoryBytes;
        for (int i = 0; i < lengths.length; i++) {
            offsets[i] = LittleEndian.align8(at);
            at = offsets[i] + lengths[i];
        }
        return offsets;
    }

    /** Writes the descriptors (offset, length) of every section into directory {@code d} from {@code descriptorsAt}. */
    public static void encode(byte[] d, int descriptorsAt, long[] offsets, long[] lengths) {
        for (int i = 0; i < offsets.length; i++) {
            LittleEndian.putU64(d, descriptorsAt + 16 * i, offsets[i]);
            LittleEndian.putU64(d, descriptorsAt + 16 * i + 8, lengths[i]);
        }
    }

    public static Sections parse(Corruption c, MemorySegment s, int directoryBytes, int descriptorsAt, int count) {
        long body = Envelope.BYTES;
        long bodyBytes = s.byteSize() - body;
        long[] offsets = new long[count];
        long[] lengths = new long[count];
        long end = directoryBytes;
        for (int i = 0; i < count; i++) {
            long at = body + descriptorsAt + 16L * i;
            offsets[i] = LittleEndian.u64(s, at);
            lengths[i] = LittleEndian.u64(s, at + 8);
            if (offsets[i] != LittleEndian.align8(end)) {
                throw c.at(at, "section " + i + " must start at " + LittleEndian.align8(end) + ", found " + Long.toUnsignedString(offsets[i]));
            }
            if (offsets[i] > bodyBytes || Long.compareUnsigned(lengths[i], bodyBytes - offsets[i]) > 0) {
                throw c.at(at + 8, "section " + i + " runs past the end of the body");
            }
            end = offsets[i] + lengths[i];
        }
        if (end != bodyBytes) {
            throw c.at(body + descriptorsAt + 16L * (count - 1), "bytes follow the last section (" + (bodyBytes - end) + " trailing)");
        }
        return new Sections(offsets, lengths);
    }
}

package dev.everett.segment.fc;

import dev.everett.segment.bits.BitStrings;
import dev.everett.segment.io.Corruption;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * The unit a front-coded stream counts in, and everything that depends on it: where a position
 * lies in the file, how many bytes hold a key of n units, how keys are copied, compared and
 * walked. {@link Framing#units()} hands out one of the two for a stream, once; the walkers,
 * cursors, cascade, index builder and merger then ask it instead of asking "bits?" themselves.
 *
 * <ul>
 *   <li>{@link #BYTES}: positions are file byte offsets, keys whole bytes.</li>
 *   <li>{@link #BITS}: positions are file bit offsets (byte offset × 8, MSB first), keys MSB-first
 *       bit strings whose unused tail bits are zero.</li>
 * </ul>
 *
 * One final class, so every call site has one target; the arithmetic is a shift by the unit's
 * size. Hot per-record loops keep their own code per unit (the byte and bit walkers, frames,
 * cursors and query contexts); this class serves the per-key and per-open decisions around them.
 */
public final class StreamUnits {
    /** Byte units. */
    public static final StreamUnits BYTES = new StreamUnits(3, "bytes");
    /** Bit units. */
    public static final StreamUnits BITS = new StreamUnits(0, "bits");

    /** log2 of the bits in a unit: 3 for bytes, 0 for bits. */
    private final int shift;
    private final String names;

    private StreamUnits(int shift, String names) {
        this.shift = shift;
        this.names = names;
    }

    /** The position, in these units, of file byte offset {@code byteOffset}. */
    public long position(long byteOffset) {
        return byteOffset << (3 - shift);
    }

    /** The file byte offset holding position {@code position} (for error messages). */
    public long byteOffset(long position) {
        return position >>> (3 - shift);
    }

    /** Bits in {@code units} units. */
    public long bits(long units) {
        return units << shift;
    }

    /** Bytes of an array holding a key of {@code units} units. */
    public int arrayBytes(long units) {
        return Math.toIntExact((bits(units) + 7) >>> 3);
    }

    /**
     * True if a key's length in units is not given by the bytes that hold it (bit units): a
     * table of keys must record each length beside them.
     */
    public boolean partialBytes() {
        return shift == 0;
    }

    /** What a unit is called in messages: "bytes" or "bits". */
    public String names() {
        return names;
    }

    /** Copies {@code n} units of {@code s} from position {@code from} into {@code dst} at unit {@code at}. */
    public void copy(MemorySegment s, long from, byte[] dst, long at, long n) {
        if (shift == 0) {
            BitStrings.copy(s, from, dst, at, n);
        } else {
            MemorySegment.copy(s, ValueLayout.JAVA_BYTE, from, dst, Math.toIntExact(at), Math.toIntExact(n));
        }
    }

    /** Copies {@code n} units of {@code src} from unit {@code from} into {@code dst} at unit {@code at}. */
    public void copy(byte[] src, long from, byte[] dst, long at, long n) {
        if (shift == 0) {
            BitStrings.copy(src, from, dst, at, n);
        } else {
            System.arraycopy(src, Math.toIntExact(from), dst, Math.toIntExact(at), Math.toIntExact(n));
        }
    }

    /**
     * A copy of the first {@code kept} units of {@code prefix} followed by {@code n} units of
     * {@code s} from position {@code from}: the key of a record that keeps {@code kept} units of
     * {@code prefix} and adds that literal (never empty: at least one byte; tail bits zero).
     */
    public byte[] extend(byte[] prefix, long kept, MemorySegment s, long from, long n) {
        long length = kept + n;
        byte[] k = Arrays.copyOf(prefix, Math.max(arrayBytes(length), 1));
        copy(s, from, k, kept, n);
        if (shift == 0) {
            BitStrings.clearTail(k, length);
        }
        return k;
    }

    /** Orders two keys of the given lengths in units (bit strings: unused tail bits zero). */
    public int compare(byte[] a, long aUnits, byte[] b, long bUnits) {
        if (shift == 0) {
            return BitStrings.compare(a, aUnits, b, bUnits);
        }
        return Arrays.compareUnsigned(a, 0, (int) aUnits, b, 0, (int) bUnits);
    }

    /** The common prefix of two keys in bits (for bytes, whole bytes of it, counted in bits). */
    public long commonPrefixBits(byte[] a, long aUnits, byte[] b, long bUnits) {
        if (shift == 0) {
            return BitStrings.commonPrefixOfBits(a, aUnits, b, bUnits);
        }
        return BitStrings.commonPrefixBits(a, (int) aUnits, b, (int) bUnits);
    }

    /**
     * Checks that the bits after a stream of {@code extent} units at file byte {@code at} are zero
     * up to its last byte (nothing to check for bytes).
     */
    public void checkPadding(MemorySegment file, Corruption c, long at, long extent, String what) {
        if (shift == 0) {
            FullScan.zeroBitPadding(file, c, at, extent, what);
        }
    }

    /** The sequential walk of {@code s}, in these units. */
    KeyWalker walker(FcStream s) {
        return shift == 0 ? s.bitWalker() : s.byteWalker();
    }

    /** Picks the one of two family-specific parts that belongs to these units, once per file or stream. */
    public <T> T choose(T forBytes, T forBits) {
        return shift == 0 ? forBits : forBytes;
    }

    @Override
    public String toString() {
        return names;
    }
}

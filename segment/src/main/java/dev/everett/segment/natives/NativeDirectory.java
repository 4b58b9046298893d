package dev.everett.segment.natives;

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

    /** Both formats start the body with a 4-byte magic ("KV02", "KV03") that names the format. */
    int MAGIC_BYTES = 4;

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
    int universeField();

    int lowWidthField();

    int terminalField();

    default long bodyBytes() {
        long[] o = offsets();
        return o[o.length - 1] + lengths()[o.length - 1];
    }
}

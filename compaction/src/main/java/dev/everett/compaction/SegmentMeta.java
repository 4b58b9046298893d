package dev.everett.compaction;

import dev.everett.api.CatalogRef;
import dev.everett.api.CorruptSegmentException;
import dev.everett.api.ObjectId;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * What a host keeps about one segment produced by a flush or a compaction: enough to reopen it
 * without scanning, route lookups by key range and account for its size.
 *
 * <p>A segment lives in its own directory {@code <segments>/<id hex>/}: its native object is
 * named by {@code id}, its IX03 index and routing catalogs by the identities the indexes record,
 * starting from {@code head}, and its key filter (if any) beside the native.
 *
 * <p>{@link #toBytes()} gives a compact, checksummed serialisation a host can keep in its own
 * manifest; {@link #fromBytes} reads it back and refuses any damage (CRC32C over every byte).
 *
 * @param id          the segment's identity (its directory and its native object)
 * @param head        the head of the segment's routing chain (what {@code ObjectStore.openSegment} takes)
 * @param smallestKey the smallest key in the segment (a copy is kept)
 * @param largestKey  the largest key in the segment (a copy is kept)
 * @param records     records (values and tombstones)
 * @param tombstones  records that are tombstones
 * @param nativeBytes bytes of the native ({@code .kv}) file
 * @param indexBytes  bytes of the index files (the segment's index and its routing catalogs)
 * @param filterBytes bytes of the key filter files (0 without filters)
 * @param hostBlob    opaque bytes the host attached (a copy is kept; empty for none)
 */
public record SegmentMeta(ObjectId id, CatalogRef head, byte[] smallestKey, byte[] largestKey,
                          long records, long tombstones, long nativeBytes, long indexBytes, long filterBytes,
                          byte[] hostBlob) {

    /** Serialised form: magic "EVSM", then version 1. */
    static final int MAGIC = 0x4556534D;
    static final int VERSION = 1;

    public SegmentMeta {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(head, "head");
        smallestKey = Objects.requireNonNull(smallestKey, "smallestKey").clone();
        largestKey = Objects.requireNonNull(largestKey, "largestKey").clone();
        hostBlob = hostBlob == null ? new byte[0] : hostBlob.clone();
        if (records < 1 || tombstones < 0 || tombstones > records) {
            throw new IllegalArgumentException("a segment holds at least one record and at most as many tombstones, got "
                    + records + " records, " + tombstones + " tombstones");
        }
        if (nativeBytes < 0 || indexBytes < 0 || filterBytes < 0) {
            throw new IllegalArgumentException("file sizes must be 0 or more");
        }
        if (Arrays.compareUnsigned(smallestKey, largestKey) > 0) {
            throw new IllegalArgumentException("smallest key " + HexFormat.of().formatHex(smallestKey)
                    + " is above largest key " + HexFormat.of().formatHex(largestKey));
        }
    }

    @Override
    public byte[] smallestKey() {
        return smallestKey.clone();
    }

    @Override
    public byte[] largestKey() {
        return largestKey.clone();
    }

    @Override
    public byte[] hostBlob() {
        return hostBlob.clone();
    }

    /** Bytes of every file of the segment. */
    public long fileBytes() {
        return nativeBytes + indexBytes + filterBytes;
    }

    /** True if {@code key} lies in {@code [smallestKey, largestKey]}. */
    public boolean mayContain(byte[] key) {
        return Arrays.compareUnsigned(key, smallestKey) >= 0 && Arrays.compareUnsigned(key, largestKey) <= 0;
    }

    /** True if the key ranges of the two segments intersect. */
    public boolean overlaps(SegmentMeta other) {
        return Arrays.compareUnsigned(smallestKey, other.largestKey) <= 0 && Arrays.compareUnsigned(other.smallestKey, largestKey) <= 0;
    }

    /** Compares smallest keys (unsigned), for keeping a level in key order. */
    int compareSmallest(byte[] key) {
        return Arrays.compareUnsigned(smallestKey, key);
    }

    byte[] smallestKeyView() {
        return smallestKey;
    }

    byte[] largestKeyView() {
        return largestKey;
    }

    /** The compact serialisation: fixed fields, length-prefixed keys and blob, then a CRC32C of everything before it. */
    public byte[] toBytes() {
        return MetaCodec.encode(this);
    }

    /**
     * Reads a serialisation made by {@link #toBytes()} from {@code bytes[off .. off + len)}.
     *
     * @param file names where the bytes came from, for the error
     * @param fileOffset where {@code bytes[off]} lies in {@code file}, for the error
     * @throws CorruptSegmentException naming the file, the offset and the rule if the bytes are
     *         damaged (checksum, magic, version, lengths) or describe an impossible segment
     */
    public static SegmentMeta fromBytes(byte[] bytes, int off, int len, Path file, long fileOffset) {
        return MetaCodec.decode(bytes, off, len, file, fileOffset);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SegmentMeta m && id.equals(m.id) && head.equals(m.head)
                && Arrays.equals(smallestKey, m.smallestKey) && Arrays.equals(largestKey, m.largestKey)
                && records == m.records && tombstones == m.tombstones && nativeBytes == m.nativeBytes
                && indexBytes == m.indexBytes && filterBytes == m.filterBytes && Arrays.equals(hostBlob, m.hostBlob);
    }

    @Override
    public int hashCode() {
        return id.hashCode();
    }

    @Override
    public String toString() {
        HexFormat hex = HexFormat.of();
        return "SegmentMeta[" + id + ", keys " + hex.formatHex(smallestKey) + ".." + hex.formatHex(largestKey)
                + ", " + records + " records (" + tombstones + " tombstones), " + fileBytes() + " bytes]";
    }
}

package dev.everett.api;

/**
 * Whole-file bytes of the files one indexed segment reads ({@link IndexedSegment#fileBytes()}).
 *
 * @param nativeBytes the segment's native file
 * @param indexBytes  its index files, with the empty native its routing catalogs share
 * @param filterBytes its key filter file, or 0 when it reads none
 */
public record SegmentFileBytes(long nativeBytes, long indexBytes, long filterBytes) {
    public SegmentFileBytes {
        if (nativeBytes < 0 || indexBytes < 0 || filterBytes < 0) {
            throw new IllegalArgumentException("file bytes must not be negative: native " + nativeBytes
                    + ", index " + indexBytes + ", filter " + filterBytes);
        }
    }
}

package dev.everett.api;

import java.nio.file.Path;

/**
 * What a finished writer published.
 *
 * @param path         the segment file
 * @param recordCount  records written (values and tombstones)
 * @param fileBytes    the whole file's size
 * @param commonWidth  the common value width recorded, or -1 if none
 */
public record SegmentInfo(Path path, long recordCount, long fileBytes, long commonWidth) {
}

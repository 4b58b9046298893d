package dev.everett.api;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * What a native segment file says about itself, read from its envelope and section directory
 * alone (both checked, no record read): the format its directory names, the policy fields its
 * envelope records, its counts and where each part of the file lies. A tool that is handed a
 * file without its policy uses {@link #policy(ValueGrammar)} to open it; the value grammar is
 * the one policy field no file records.
 *
 * @param path             the file
 * @param format           KV02 or KV03, from the directory magic
 * @param unit             byte or bit (envelope byte 16)
 * @param blockWidth       W (envelope bytes 20–23, a u32)
 * @param groupSize        K (envelope bytes 24–31)
 * @param valueWidth       fixed when the envelope's flag bit 0 is set, else variable
 * @param backspace        the backspace code and parameter (envelope bytes 18 and 88–95)
 * @param commonValueWidth the common value width (flag bit 1, bytes 40–47), or -1 if none
 * @param recordCount      records, values and tombstones together (bytes 56–63)
 * @param extent           the body's length in policy units (bytes 48–55)
 * @param headerCrc        the stored header CRC32C (bytes 68–71)
 * @param bodyCrc          the stored body CRC32C (bytes 64–67)
 * @param fileBytes        the whole file's size
 * @param sections         every part of the file in file order: the envelope, the directory and
 *                         each section its directory lists (alignment padding lies between them)
 */
public record SegmentDescription(Path path, SegmentFormat format, Unit unit, long blockWidth, long groupSize,
                                 ValueWidth valueWidth, BackspaceCode backspace, long commonValueWidth,
                                 long recordCount, long extent, long headerCrc, long bodyCrc, long fileBytes,
                                 List<Section> sections) {

    /**
     * One part of the file.
     *
     * @param name   what it holds ({@code "envelope"}, {@code "directory"}, {@code "records"},
     *               {@code "ef-low"}, …)
     * @param offset its first byte in the file
     * @param bytes  its length in bytes
     */
    public record Section(String name, long offset, long bytes) {
        public Section {
            Objects.requireNonNull(name, "name");
        }
    }

    public SegmentDescription {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(unit, "unit");
        Objects.requireNonNull(valueWidth, "valueWidth");
        Objects.requireNonNull(backspace, "backspace");
        sections = List.copyOf(sections);
    }

    /**
     * The policy the file was written under, completed with the value grammar the caller reads
     * its values by.
     *
     * @throws PolicyMismatchException if the recorded W or K is one no {@link Policy} accepts
     *                                 (W beyond 2^31 − 1, K not 2^n − 1)
     */
    public Policy policy(ValueGrammar grammar) {
        if (blockWidth > Integer.MAX_VALUE) {
            throw new PolicyMismatchException(path, "block width W", "at most " + Integer.MAX_VALUE, blockWidth);
        }
        if (groupSize < 3 || ((groupSize + 1) & groupSize) != 0) {
            throw new PolicyMismatchException(path, "group size K", "2^n − 1 and ≥ 3", Long.toUnsignedString(groupSize));
        }
        return new Policy(unit, (int) blockWidth, groupSize, valueWidth, backspace, grammar, format);
    }

    /** The section of that name, if the file has one. */
    public java.util.Optional<Section> section(String name) {
        return sections.stream().filter(s -> s.name().equals(name)).findFirst();
    }
}

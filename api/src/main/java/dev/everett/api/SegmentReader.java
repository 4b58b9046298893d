package dev.everett.api;

import java.nio.file.Path;

/**
 * An open, memory-mapped segment. Closing a reader from {@link SegmentEngine#open} unmaps the
 * file; any use after that throws {@link IllegalStateException} (never a JVM crash). A reader an
 * {@link ObjectStore} hands out is a handle on the store's shared mapping: closing it ends that
 * handle alone (see {@link ObjectStore}). Readers are safe to share between threads; cursors are
 * not.
 */
public interface SegmentReader extends AutoCloseable {
    Path path();

    /** The policy the reader was opened with, which the file's envelope matches. */
    Policy policy();

    /** Records in the file. */
    long recordCount();

    /** The common value width the file records, or -1 if it records none. */
    long commonValueWidth();

    /** The whole file's size in bytes. */
    long fileBytes();

    /** A cursor before the first record. */
    SegmentCursor cursor();

    /**
     * The record with the given ordinal, found through the Elias–Fano block directory plus at
     * most W − 1 record headers.
     *
     * @throws IndexOutOfBoundsException if the ordinal is not below {@link #recordCount()}
     */
    RecordLocation recordAt(long ordinal);

    /**
     * Checks the whole file: both checksums, zero gaps and padding, every record's framing, strict
     * key order, the terminal length and extent, and the Elias–Fano directory rebuilt from the
     * records and compared word for word.
     *
     * @throws CorruptSegmentException at the first rule broken
     */
    VerifyReport verify();

    /**
     * Checks the body's CRC32C now, in one pass over the file, even if an earlier read already
     * checked it (the file may have changed on disk since); reads that follow do not check it
     * again. What a compaction checks of its inputs: a body that holds its CRC is the bytes its
     * writer published, so the merge's own decoding is all the framing check it needs, at a
     * fraction of {@link #verify()}'s cost.
     *
     * @throws CorruptSegmentException naming the file if the body fails its checksum
     */
    void verifyChecksum();

    @Override
    void close();
}

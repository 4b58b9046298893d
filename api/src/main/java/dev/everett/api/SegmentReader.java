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

    @Override
    void close();
}

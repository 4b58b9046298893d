package dev.everett.segment.io;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Memory for the copies of small files ({@link MappedFile#COPIED}: indexes, key filters, the
 * empty native, small natives) that one object store reads, shared by many files at a time, so
 * that releasing one file's copy costs nothing of its own.
 *
 * <p><b>Why.</b> Each reader used to copy its file into a shared arena of its own, and closing a
 * shared arena costs a handshake with every Java thread (16–32 µs on the two-core guest of
 * docs/benchmarks/compaction.md). A segment is a native with five small objects beside it (its
 * index, the empty native its routing heads share and the routing heads' indexes), so a 4 MiB
 * compaction output paid six handshakes when its store closed, 150 for 25 outputs
 * (docs/benchmarks/compaction.md, "Per-output work"). Copies made here come from a
 * <em>generation</em>: one shared arena that takes copies until it holds
 * {@link #GENERATION_BYTES}, then retires; a retired generation is closed (one handshake) when
 * the last copy it holds is released, and the store's close closes the rest.
 *
 * <p><b>What it costs.</b> A released copy's memory stays until its generation closes: at most
 * {@link #GENERATION_BYTES} for each generation that some copy still holds. So a store that opens
 * and deletes small objects for as long as it lives holds the current generation and at most one
 * retired generation per small object still open; the store's empty native, opened first and
 * shared by every routing head, holds the first one for the store's life. For the stores of
 * compaction outputs (one segment each) that is one generation.
 *
 * <p><b>Reads after a release.</b> A released copy stays readable until its generation closes.
 * The store's handles refuse use after their own close, but what a reader hands out may outlive
 * it (a merge walks a reader's records through {@code EncodedRecords}; a cursor's key and value
 * views are slices of the copy): such a holder reads the same immutable bytes until the
 * generation closes, then fails with the closed arena's {@link IllegalStateException}. Nothing is
 * ever read from freed memory, because the arena's close is what frees it.
 */
public final class SmallCopies implements AutoCloseable {
    /** A generation retires once it holds this much (a segment's small objects take tens of kilobytes). */
    static final long GENERATION_BYTES = 1L << 20;

    /** One shared arena and how many of the copies in it are still held. */
    private static final class Generation {
        final Arena arena = Arena.ofShared();
        long bytes;
        int held;
        boolean retired;
    }

    private Generation current;
    /** Generations whose arenas are open, the current one included. */
    private final List<Generation> open = new ArrayList<>();
    private boolean closed;

    /**
     * Reads the first {@code size} bytes of {@code ch} (at most {@link MappedFile#COPIED}) into
     * this store's current generation, read-only; the caller gives the copy back through
     * {@link Copy#release()} exactly once.
     */
    synchronized Copy copy(FileChannel ch, Path path, long size) throws IOException {
        if (closed) {
            throw new IllegalStateException("the small-file copies of a closed object store cannot take " + path);
        }
        long bytes = Math.max(size, 1);
        if (current == null || (current.bytes > 0 && current.bytes + bytes > GENERATION_BYTES)) {
            retire();
            current = new Generation();
            open.add(current);
        }
        Generation g = current;
        MemorySegment copy = g.arena.allocate(bytes, Long.BYTES).asSlice(0, size);
        g.bytes += bytes;
        FileInMemory.readFully(ch, path, copy);
        g.held++;
        return new Copy(copy.asReadOnly(), this, g);
    }

    /** A copy and the generation that holds it. */
    public static final class Copy {
        private final MemorySegment bytes;
        private final SmallCopies owner;
        private final Generation generation;

        private Copy(MemorySegment bytes, SmallCopies owner, Generation generation) {
            this.bytes = bytes;
            this.owner = owner;
            this.generation = generation;
        }

        public MemorySegment bytes() {
            return bytes;
        }

        /** Gives the copy back: its generation closes if it is retired and this was its last copy. */
        public void release() {
            owner.release(generation);
        }
    }

    private synchronized void release(Generation g) {
        g.held--;
        if (g.retired && g.held == 0 && !closed) {
            tryClose(g);
        }
    }

    private void retire() {
        Generation g = current;
        if (g == null) {
            return;
        }
        g.retired = true;
        current = null;
        if (g.held == 0) {
            tryClose(g);
        }
    }

    /**
     * Closes a generation no copy holds any more. A shared arena refuses to close while some
     * thread still has it in use (an I/O call into a released copy's bytes, say): the generation
     * then stays listed and the store's close tries again, rather than failing the unrelated open
     * or release that got here.
     */
    private void tryClose(Generation g) {
        try {
            close(g);
        } catch (IllegalStateException inUse) {
            // Left open; close() retries and reports it.
        }
    }

    private void close(Generation g) {
        g.arena.close();
        open.remove(g);
    }

    /** Generations whose arenas are open (for tests and diagnostics: memory held for released copies stays bounded). */
    public synchronized int openGenerations() {
        return open.size();
    }

    /**
     * Closes every generation. A store closes its readers first, which releases every copy; a
     * copy still held by then fails its reader's next read with the closed arena's error, as a
     * reader's own arena did.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        current = null;
        RuntimeException failed = null;
        for (Generation g : List.copyOf(open)) {
            try {
                close(g);
            } catch (RuntimeException e) {
                if (failed == null) {
                    failed = e;
                } else {
                    failed.addSuppressed(e);
                }
            }
        }
        if (failed != null) {
            throw failed;
        }
    }
}

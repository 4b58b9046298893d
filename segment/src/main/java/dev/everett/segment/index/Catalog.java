package dev.everett.segment.index;

import dev.everett.api.ObjectId;
import dev.everett.api.Policy;
import dev.everett.segment.fc.FcStream;
import dev.everett.segment.io.Corruption;
import dev.everett.segment.io.Envelope;
import dev.everett.segment.io.LittleEndian;
import dev.everett.segment.natives.NativeReader;
import java.util.Objects;

/**
 * One node of a fractional cascade: a native stream with its IX03 index, the catalog its main
 * route samples (if any) and the native leaf its secondary route samples (if any). Binding
 * checks that the identities and counts recorded in the index agree with the objects given.
 */
public final class Catalog {
    public final ObjectId nativeId;
    public final ObjectId indexId;
    /** The catalog's own native (the one its index describes). */
    public final NativeReader nativeReader;
    public final IndexReader index;
    public final Catalog main;
    public final ObjectId secondaryId;
    public final NativeReader secondary;
    /** Catalogs below this one on the main route, plus one. */
    final int depth;

    public Catalog(ObjectId nativeId, NativeReader nativeReader, ObjectId indexId, IndexReader index, Catalog main,
            ObjectId secondaryId, NativeReader secondary) {
        this.nativeId = Objects.requireNonNull(nativeId);
        this.indexId = Objects.requireNonNull(indexId);
        this.nativeReader = Objects.requireNonNull(nativeReader);
        this.index = Objects.requireNonNull(index);
        this.main = main;
        this.secondaryId = secondary == null ? ObjectId.NONE : secondaryId;
        this.secondary = secondary;
        this.depth = main == null ? 1 : main.depth + 1;
        bind();
    }

    private void bind() {
        IndexDirectory d = index.directory();
        Corruption c = index.corruption();
        long k = index.groupSize();
        c.require(d.nativeId().equals(nativeId), IndexDirectory.inFile(IndexDirectory.NATIVE_ID), () -> "index names native " + d.nativeId() + " but the catalog's native is " + nativeId);
        c.require(index.nativeCount() == nativeReader.recordCount(), IndexDirectory.inFile(IndexDirectory.VIRTUAL_COUNT),
                () -> "index describes " + index.nativeCount() + " native records but the native has " + nativeReader.recordCount());
        c.require(d.present()[0] == (main != null), IndexDirectory.inFile(IndexDirectory.TARGET_FLAGS), "main-target flag disagrees with the chain");
        if (main != null) {
            c.require(d.mainNativeId().equals(main.nativeId) && d.mainIndexId().equals(main.indexId), IndexDirectory.inFile(IndexDirectory.MAIN_NATIVE_ID),
                    () -> "main target recorded as " + d.mainNativeId() + "/" + d.mainIndexId() + " but bound to " + main.nativeId + "/" + main.indexId);
            c.require(d.counts()[0] == main.index.groups(), IndexDirectory.inFile(IndexDirectory.BORROWED_COUNTS),
                    () -> "main route holds " + d.counts()[0] + " samples but its target has " + main.index.groups() + " groups");
        }
        c.require(d.present()[1] == (secondary != null), IndexDirectory.inFile(IndexDirectory.TARGET_FLAGS + 1), "secondary-target flag disagrees with the chain");
        if (secondary != null) {
            c.require(d.secondaryId().equals(secondaryId), IndexDirectory.inFile(IndexDirectory.SECONDARY_ID), () -> "secondary recorded as " + d.secondaryId() + " but bound to " + secondaryId);
            c.require(d.counts()[1] == LittleEndian.ceilDiv(secondary.recordCount(), k), IndexDirectory.inFile(IndexDirectory.BORROWED_COUNTS + 8),
                    () -> "secondary route holds " + d.counts()[1] + " samples but its leaf has " + secondary.recordCount() + " records");
        }
    }

    /**
     * Verifies this catalog and everything below it: each native and index on its own, then
     * the index against the keys, by rebuilding it from the native and the targets and
     * comparing bytes (interleaving, ranks, false borrows, cut LCPs and the exact samples).
     */
    public void verify() throws java.io.IOException {
        verify(null);
    }

    /**
     * As {@link #verify()}, rebuilding each index under {@code scratch} (a directory), or under
     * the default temporary directory if null. The rebuild creates and deletes a few small files
     * per catalog; tests that verify thousands of chains point it at a memory file system.
     */
    public void verify(java.nio.file.Path scratch) throws java.io.IOException {
        if (main != null) {
            main.verify(scratch);
        }
        if (secondary != null) {
            secondary.verify();
        }
        nativeReader.verify();
        index.verify();
        java.nio.file.Path tmp = scratch == null ? java.nio.file.Files.createTempDirectory("everett-verify")
                : java.nio.file.Files.createTempDirectory(scratch, "everett-verify");
        try {
            java.nio.file.Path rebuilt = tmp.resolve("rebuilt.index");
            Policy policy = nativeReader.policy();
            new IndexBuilder(policy).scratch().build(rebuilt, nativeId, nativeReader, main, secondaryId, secondary);
            byte[] expected = java.nio.file.Files.readAllBytes(rebuilt);
            java.lang.foreign.MemorySegment actual = index.file();
            long diff = java.lang.foreign.MemorySegment.mismatch(actual, 0, actual.byteSize(),
                    java.lang.foreign.MemorySegment.ofArray(expected), 0, expected.length);
            if (diff >= 0) {
                throw index.corruption().at(diff, "index disagrees with its native and targets in " + section(diff));
            }
        } finally {
            try (var files = java.nio.file.Files.list(tmp)) {
                for (java.nio.file.Path f : (Iterable<java.nio.file.Path>) files::iterator) {
                    java.nio.file.Files.deleteIfExists(f);
                }
            }
            java.nio.file.Files.deleteIfExists(tmp);
        }
    }

    /** Names the part of the index file at a byte offset, for error messages. */
    private String section(long offset) {
        if (offset < Envelope.BYTES) {
            return "the envelope";
        }
        long at = offset - Envelope.BYTES;
        if (at < IndexDirectory.BYTES) {
            return "the directory";
        }
        String[] names = {"main keys", "main EF low", "main EF high", "main EF samples", "main EF sparse",
                "secondary keys", "secondary EF low", "secondary EF high", "secondary EF samples", "secondary EF sparse",
                "main rank classes", "main rank checkpoints", "secondary rank classes", "secondary rank checkpoints",
                "main false-borrow bits", "secondary false-borrow bits", "main cut LCPs", "secondary cut LCPs"};
        IndexDirectory d = index.directory();
        for (int i = IndexDirectory.SECTIONS - 1; i >= 0; i--) {
            if (at >= d.offsets()[i]) {
                return names[i];
            }
        }
        return "the directory";
    }

    /**
     * Cached here because every query touches it at every level. FcStream is an immutable
     * record, so a racing first call at worst parses the (equal) stream twice.
     */
    private FcStream nativeStream;

    public FcStream nativeStream() {
        FcStream s = nativeStream;
        if (s == null) {
            nativeStream = s = nativeReader.typed().stream();
        }
        return s;
    }

    public FcStream secondaryStream() {
        return secondary.typed().stream();
    }

    public long virtualCount() {
        return index.virtualCount();
    }
}

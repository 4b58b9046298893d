package dev.everett.cli;

import dev.everett.api.IndexedSegment;
import dev.everett.api.KeyRange;
import dev.everett.api.Lookup;
import dev.everett.api.SegmentCursor;
import dev.everett.api.SeekCursor;
import dev.everett.api.ObjectStore;
import dev.everett.api.OpenMode;
import dev.everett.api.Policy;
import dev.everett.api.SegmentDescription;
import dev.everett.api.SegmentEngine;
import dev.everett.api.SegmentReader;
import dev.everett.api.ValueGrammar;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One segment file opened for a command: its policy read from the file itself (completed by the
 * value grammar the user names, which no file records), its reader, and its index chain when
 * one lies beside it ({@link IndexChain}).
 */
final class SegmentFile implements AutoCloseable {
    final SegmentEngine engine;
    final SegmentDescription description;
    final Policy policy;
    final SegmentReader reader;
    private ObjectStore chainStore;
    private IndexedSegment indexed;

    private SegmentFile(SegmentEngine engine, SegmentDescription description, Policy policy, SegmentReader reader) {
        this.engine = engine;
        this.description = description;
        this.policy = policy;
        this.reader = reader;
    }

    static SegmentFile open(Path file, ValueGrammar grammar) throws IOException {
        if (Files.isDirectory(file)) {
            throw new CliException(file + " is a directory, not a segment file");
        }
        SegmentEngine engine = SegmentEngine.load();
        SegmentDescription d = engine.describe(file);
        Policy policy = d.policy(grammar);
        return new SegmentFile(engine, d, policy, engine.open(file, policy, OpenMode.TYPED));
    }

    /** The file with its index chain, or null if it has none. A stale or broken chain is an error. */
    IndexedSegment indexed() throws IOException {
        if (indexed == null) {
            IndexChain.Head head = IndexChain.read(description);
            if (head == null) {
                return null;
            }
            chainStore = engine.openObjectStore(IndexChain.dirFor(description.path()), policy);
            indexed = chainStore.openSegment(head.head());
        }
        return indexed;
    }

    /** Receives records in key order; {@code value} is null for a tombstone. */
    interface RecordVisitor {
        void accept(byte[] key, byte[] value) throws IOException;
    }

    /**
     * Visits the records inside {@code range}, tombstones included: through the index chain's
     * seek when the file has one, else by walking the file from its first record.
     */
    void forEach(KeyRange range, RecordVisitor visitor) throws IOException {
        IndexedSegment segment = indexed();
        if (segment != null) {
            try (SeekCursor c = segment.cursor(range)) {
                for (c.seekToFirst(); c.valid(); c.next()) {
                    visitor.accept(c.keyBytes(), c.valueBytes());
                }
            }
            return;
        }
        try (SegmentCursor c = reader.cursor()) {
            while (c.next()) {
                byte[] key = c.keyBytes();
                if (range.upper() != null && Arrays.compareUnsigned(key, range.upper()) >= 0) {
                    break;
                }
                if (range.contains(key, key.length)) {
                    visitor.accept(key, c.valueBytes());
                }
            }
        }
    }

    /** The record for {@code key}: through the index cascade when the file has a chain, else by a walk. */
    Lookup get(byte[] key) throws IOException {
        IndexedSegment segment = indexed();
        if (segment != null) {
            Lookup l = segment.get(key);
            return l.found() ? Lookup.value(MemorySegment.ofArray(l.valueBytes())) : l;
        }
        try (SegmentCursor c = reader.cursor()) {
            while (c.next()) {
                int order = Arrays.compareUnsigned(c.keyBytes(), key);
                if (order == 0) {
                    return c.isTombstone() ? Lookup.tombstone() : Lookup.value(MemorySegment.ofArray(c.valueBytes()));
                }
                if (order > 0) {
                    break;
                }
            }
        }
        return Lookup.absent();
    }

    boolean hasChain() {
        return Files.isDirectory(IndexChain.dirFor(description.path()));
    }

    @Override
    public void close() {
        if (chainStore != null) {
            chainStore.close();
        }
        reader.close();
    }
}

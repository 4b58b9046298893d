package dev.everett.compaction;

import dev.everett.api.CatalogRef;
import dev.everett.api.CommonWidthRule;
import dev.everett.api.FilterPolicy;
import dev.everett.api.IndexedSegment;
import dev.everett.api.KeyOrderException;
import dev.everett.api.ObjectId;
import dev.everett.api.ObjectStore;
import dev.everett.api.ObjectStoreOptions;
import dev.everett.api.Policy;
import dev.everett.api.SeekCursor;
import dev.everett.api.SegmentEngine;
import dev.everett.api.SegmentFileBytes;
import dev.everett.api.SegmentWriter;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The segments under one directory, each in its own subdirectory {@code <dir>/<id hex>/} (an
 * Everett object store holding the segment's native, its index, its routing catalogs, its key
 * filter and the store's policy descriptor {@code OBJECTS}): flushes write them, compactions
 * merge them, hosts open and delete them. This is the layer for a host that keeps its own
 * manifest ({@link SegmentMeta#toBytes()}); {@link LsmTree} adds levels, versions and a manifest
 * on top.
 *
 * <p>Opened segments are shared: each {@link #open} returns a handle holding one reference, and
 * the segment's files stay mapped until the last handle closes. Safe for concurrent use.
 */
public final class SegmentFiles implements AutoCloseable {
    private final Path dir;
    private final Policy policy;
    private final ObjectStoreOptions options;
    private final StorageFiles files;
    private final SegmentEngine engine;
    private final Map<ObjectId, Opened> open = new HashMap<>();
    private boolean closed;

    private SegmentFiles(Path dir, Policy policy, ObjectStoreOptions options, StorageFiles files) {
        this.dir = dir;
        this.policy = policy;
        this.options = options;
        this.files = files;
        this.engine = SegmentEngine.load();
    }

    /**
     * Opens (creating if needed) the segments under {@code dir}, written and read under
     * {@code policy}, with key filters and routing caches as {@code options} say.
     */
    public static SegmentFiles open(Path dir, Policy policy, ObjectStoreOptions options, StorageFiles files) throws IOException {
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(files, "files");
        files.createDirectories(dir);
        return new SegmentFiles(dir, policy, options, files);
    }

    public Path directory() {
        return dir;
    }

    public Policy policy() {
        return policy;
    }

    /** The directory of segment {@code id}. */
    public Path segmentDirectory(ObjectId id) {
        return dir.resolve(id.hex());
    }

    /**
     * Writes a sorted source as one or more new segments, split at key boundaries once a segment
     * holds about {@code targetFileBytes} of keys and values, each with {@code hostBlob} in its
     * metadata. Streaming: memory is bounded by the writers' buffers. The segments are published
     * (durable) when this returns, but belong to no version. On any failure (keys out of order, a
     * tombstone under a raw grammar, an I/O error) every segment it wrote is deleted. An empty
     * source gives no segment.
     */
    public List<SegmentMeta> flush(SortedEntries entries, long targetFileBytes, byte[] hostBlob) throws IOException {
        return flush(entries, targetFileBytes, hostBlob, options.filters());
    }

    /**
     * As {@link #flush(SortedEntries, long, byte[])}, with {@code filters} for the new segments'
     * key filters instead of this directory's ({@link FilterPolicy#none()}: none written).
     */
    public List<SegmentMeta> flush(SortedEntries entries, long targetFileBytes, byte[] hostBlob, FilterPolicy filters) throws IOException {
        requireOpen();
        Objects.requireNonNull(entries, "entries");
        ObjectStoreOptions outputOptions = writingOptions(Objects.requireNonNull(filters, "filters"));
        if (targetFileBytes < 1) {
            throw new IllegalArgumentException("target file bytes must be at least 1, got " + targetFileBytes);
        }
        List<SegmentMeta> out = new ArrayList<>();
        List<ObjectId> written = new ArrayList<>();
        boolean ok = false;
        Output current = null;
        try {
            byte[] previousLargest = null;
            while (entries.next()) {
                MemorySegment key = entries.key();
                if (current != null && current.bytes >= targetFileBytes) {
                    SegmentMeta m = current.finish(hostBlob);
                    out.add(m);
                    previousLargest = m.largestKeyView();
                    current = null;
                }
                if (current == null) {
                    if (previousLargest != null && compare(key, previousLargest) <= 0) {
                        throw new KeyOrderException("flush keys out of order: " + hex(key) + " after " + HexFormat.of().formatHex(previousLargest));
                    }
                    ObjectId id = ObjectId.random();
                    written.add(id);
                    current = new Output(id, outputOptions);
                }
                current.add(entries, key);
            }
            if (current != null) {
                out.add(current.finish(hostBlob));
                current = null;
            }
            ok = true;
            return List.copyOf(out);
        } finally {
            if (current != null) {
                current.abandon();
            }
            if (!ok) {
                deleteQuietly(written);
            }
        }
    }

    /**
     * How a new segment's own object store is opened while it is written, indexed and described:
     * with the key filters asked for it, and no routing cache. That store is closed as soon as
     * the segment's metadata is read (two cascade descents), and every reader opens the segment
     * again through {@link #open}, with this directory's routing cache; a cache filled here
     * (decoding up to {@link ObjectStoreOptions#routingCacheBytes()} of routing samples per
     * output) would be thrown away unread.
     */
    ObjectStoreOptions writingOptions(FilterPolicy filters) {
        return options.withFilters(filters).withRoutingCacheBytes(0);
    }

    /** One flush output being written. */
    private final class Output {
        final ObjectId id;
        final ObjectStore store;
        final SegmentWriter writer;
        long bytes;
        long tombstones;

        Output(ObjectId id, ObjectStoreOptions outputOptions) throws IOException {
            this.id = id;
            files.createDirectories(segmentDirectory(id));
            this.store = engine.openObjectStore(segmentDirectory(id), policy, outputOptions);
            SegmentWriter w;
            try {
                w = store.newSegment(id, CommonWidthRule.policy());
            } catch (IOException | RuntimeException e) {
                store.close();
                throw e;
            }
            this.writer = w;
        }

        void add(SortedEntries entries, MemorySegment key) throws IOException {
            if (entries.tombstone()) {
                writer.delete(key);
                tombstones++;
                bytes += key.byteSize() + 2;
            } else {
                MemorySegment value = entries.value();
                writer.put(key, value);
                bytes += key.byteSize() + value.byteSize() + 2;
            }
        }

        SegmentMeta finish(byte[] hostBlob) throws IOException {
            try (store) {
                writer.finish();
                return describe(id, store.indexSegment(id), tombstones, hostBlob);
            } finally {
                writer.close();
            }
        }

        void abandon() {
            try {
                writer.close();
            } catch (IOException ignored) {
                // The segment directory is deleted next; a failure to discard the temporary file there is moot.
            }
            store.close();
        }
    }

    /** Metadata for a segment just indexed in {@code store}: key range from its cursor (two cascade descents), sizes from its files. */
    SegmentMeta describe(ObjectId id, IndexedSegment seg, long tombstones, byte[] hostBlob) throws IOException {
        byte[] smallest;
        byte[] largest;
        try (SeekCursor c = seg.cursor()) {
            c.seekToFirst();
            smallest = c.keyBytes();
            c.seekToLast();
            largest = c.keyBytes();
        }
        // The open files' sizes: no walk of the segment's directories (a list and a stat per
        // directory and file, which at small target sizes was a tenth of a compaction's finish).
        SegmentFileBytes bytes = seg.fileBytes();
        return new SegmentMeta(id, seg.head(), smallest, largest, seg.natives().recordCount(), tombstones,
                bytes.nativeBytes(), bytes.indexBytes(), bytes.filterBytes(), hostBlob);
    }

    /**
     * A compaction of {@code inputs}, given oldest first (on equal keys, later inputs are newer),
     * into new segments of this directory.
     */
    public CompactionBuilder compaction(List<SegmentMeta> inputs) {
        requireOpen();
        return new SegmentCompaction.Builder(this, List.copyOf(inputs));
    }

    /** Opens segment {@code meta} (sharing an open one), checking its chain's identities and shapes but not scanning it. */
    public SegmentHandle open(SegmentMeta meta) throws IOException {
        return open(meta, options.filters());
    }

    /**
     * As {@link #open(SegmentMeta)}, reading with {@code filters} instead of this directory's key
     * filters: {@link FilterPolicy#none()} ignores a filter the segment has and writes none, an
     * enabled policy uses its filter (writing one first if it has none). A segment already open
     * keeps the filters it was opened with.
     */
    public SegmentHandle open(SegmentMeta meta, FilterPolicy filters) throws IOException {
        Objects.requireNonNull(meta, "meta");
        Objects.requireNonNull(filters, "filters");
        synchronized (this) {
            requireOpen();
            Opened o = open.get(meta.id());
            if (o == null) {
                Path d = segmentDirectory(meta.id());
                if (!files.exists(d)) {
                    throw new java.nio.file.NoSuchFileException(d.toString(), null, "segment " + meta.id() + " is not in " + dir);
                }
                ObjectStore store = engine.openObjectStore(d, policy, options.withFilters(filters));
                try {
                    o = new Opened(meta.id(), store, store.openSegment(meta.head()));
                } catch (IOException | RuntimeException e) {
                    store.close();
                    throw e;
                }
                open.put(meta.id(), o);
            }
            o.references++;
            return new Handle(meta, o);
        }
    }

    /**
     * The smallest and largest key of a segment read from its files alone (two cascade
     * descents, no scan), for a host that has lost or never kept its metadata.
     *
     * @return {@code [smallest, largest]}
     */
    public byte[][] readKeyRange(ObjectId id, CatalogRef head) throws IOException {
        requireOpen();
        try (ObjectStore store = engine.openObjectStore(segmentDirectory(id), policy, options)) {
            IndexedSegment seg = store.openSegment(head);
            try (SeekCursor c = seg.cursor()) {
                c.seekToFirst();
                if (!c.valid()) {
                    throw new IllegalArgumentException("segment " + id + " is empty");
                }
                byte[] first = c.keyBytes();
                c.seekToLast();
                return new byte[][] {first, c.keyBytes()};
            }
        }
    }

    /**
     * Deletes segment {@code id}'s directory with every file in it.
     *
     * @throws IllegalStateException if a handle to it is still open
     */
    public void delete(ObjectId id) throws IOException {
        synchronized (this) {
            if (open.containsKey(id)) {
                throw new IllegalStateException("segment " + id + " is still open (" + open.get(id).references + " handles)");
            }
        }
        deleteTree(segmentDirectory(id));
        files.forceDirectory(dir);
    }

    /** The identities of the segment directories present (complete or not). */
    public Set<ObjectId> list() throws IOException {
        Set<ObjectId> out = new java.util.HashSet<>();
        for (Path p : files.list(dir)) {
            ObjectId id = parseSegmentName(p.getFileName().toString());
            if (id != null) {
                out.add(id);
            }
        }
        return out;
    }

    /** The identity a segment directory name spells, or null if it is not one. */
    static ObjectId parseSegmentName(String name) {
        try {
            return ObjectId.parse(name); // only the one spelling hex() writes
        } catch (IllegalArgumentException notAnIdentity) {
            return null;
        }
    }

    void deleteTree(Path root) throws IOException {
        if (!files.exists(root)) {
            return;
        }
        List<Path> order = new ArrayList<>();
        List<Path> stack = new ArrayList<>(List.of(root));
        while (!stack.isEmpty()) {
            Path d = stack.removeLast();
            order.add(d);
            for (Path p : files.list(d)) {
                if (files.isDirectory(p)) {
                    stack.add(p);
                } else {
                    files.delete(p);
                }
            }
        }
        for (int i = order.size() - 1; i >= 0; i--) {
            files.delete(order.get(i));
        }
    }

    /** Deletes segments after a failure, keeping the first error the caller is already throwing. */
    void deleteQuietly(List<ObjectId> ids) {
        for (ObjectId id : ids) {
            try {
                deleteTree(segmentDirectory(id));
            } catch (IOException | RuntimeException ignored) {
                // Left for the cleanup on open, which deletes every segment no version names.
            }
        }
    }

    StorageFiles files() {
        return files;
    }

    SegmentEngine engine() {
        return engine;
    }

    ObjectStoreOptions options() {
        return options;
    }

    synchronized int openCount() {
        return open.size();
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("segment files closed: " + dir);
        }
    }

    static int compare(MemorySegment key, byte[] other) {
        long n = Math.min(key.byteSize(), other.length);
        long mismatch = MemorySegment.mismatch(key, 0, key.byteSize(), MemorySegment.ofArray(other), 0, other.length);
        if (mismatch < 0) {
            return 0;
        }
        if (mismatch == n) {
            return Long.compare(key.byteSize(), other.length);
        }
        return Integer.compare(key.get(ValueLayout.JAVA_BYTE, mismatch) & 0xFF, other[(int) mismatch] & 0xFF);
    }

    private static String hex(MemorySegment key) {
        return HexFormat.of().formatHex(key.toArray(ValueLayout.JAVA_BYTE));
    }

    /** Closes every open segment (handles still out then throw on use). */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (Opened o : open.values()) {
            o.store.close();
        }
        open.clear();
    }

    /** One open segment shared by its handles. */
    private static final class Opened {
        final ObjectId id;
        final ObjectStore store;
        final IndexedSegment segment;
        int references;

        Opened(ObjectId id, ObjectStore store, IndexedSegment segment) {
            this.id = id;
            this.store = store;
            this.segment = segment;
        }
    }

    private final class Handle implements SegmentHandle {
        private final SegmentMeta meta;
        private final Opened opened;
        private boolean closedHandle;

        Handle(SegmentMeta meta, Opened opened) {
            this.meta = meta;
            this.opened = opened;
        }

        @Override
        public SegmentMeta meta() {
            return meta;
        }

        @Override
        public IndexedSegment segment() {
            if (closedHandle) {
                throw new IllegalStateException("segment handle closed: " + meta.id());
            }
            return opened.segment;
        }

        @Override
        public void close() {
            synchronized (SegmentFiles.this) {
                if (closedHandle) {
                    return;
                }
                closedHandle = true;
                if (--opened.references == 0 && open.get(opened.id) == opened) {
                    open.remove(opened.id);
                    opened.store.close();
                }
            }
        }
    }
}

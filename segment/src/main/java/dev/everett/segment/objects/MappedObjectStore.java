package dev.everett.segment.objects;

import dev.everett.api.CatalogRef;
import dev.everett.api.Chain;
import dev.everett.api.CommonWidthRule;
import dev.everett.api.DurableDirectories;
import dev.everett.api.IndexedSegment;
import dev.everett.api.KeyRange;
import dev.everett.api.Lookup;
import dev.everett.api.ObjectId;
import dev.everett.api.ObjectStore;
import dev.everett.api.ObjectStoreOptions;
import dev.everett.api.Policy;
import dev.everett.api.RunCursors;
import dev.everett.api.SeekCursor;
import dev.everett.api.SegmentFileBytes;
import dev.everett.api.SegmentReader;
import dev.everett.api.SegmentWriter;
import dev.everett.segment.cascade.Cascade;
import dev.everett.segment.cascade.ChainFilters;
import dev.everett.segment.cascade.ChainRunCursors;
import dev.everett.segment.cascade.KeyMaterialiser;
import dev.everett.segment.cascade.SegmentSeekCursor;
import dev.everett.segment.index.Catalog;
import dev.everett.segment.io.AtomicFile;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The host-facing {@link ObjectStore} over an {@link OpenObjects}. Everything it hands out is a
 * {@link Handle} (docs/spi.md, "Lifecycles"); arguments are checked here, so that a misused call
 * fails with {@link IllegalArgumentException} or {@link NullPointerException} naming the argument
 * rather than as corruption from deep inside the cascade.
 */
public final class MappedObjectStore implements ObjectStore {
    private final Path root;
    private final OpenObjects objects;
    private final ObjectStoreOptions options;

    public MappedObjectStore(Path root, Policy policy, ObjectStoreOptions options) throws IOException {
        Objects.requireNonNull(root, "root");
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(options, "options");
        boolean exists = Files.isDirectory(root);
        if (!exists && Files.exists(root)) {
            throw new IllegalArgumentException("object store root " + root + " is a file, not a directory");
        }
        this.root = root;
        this.options = options;
        if (options.readOnly()) {
            if (!exists) {
                throw new java.nio.file.NoSuchFileException(root.toString(), null, "object store root is missing (a read-only store creates nothing)");
            }
            StoreDescriptor.checkExisting(root, policy);
        } else {
            if (!exists) {
                DurableDirectories.create(root);
            }
            StoreDescriptor.check(root, policy);
        }
        this.objects = new OpenObjects(root, policy, options.filters(), options.verifyChecksums(), options.readOnly());
    }

    /** Refuses a call that writes when the store is read-only ({@link ObjectStoreOptions#readOnly()}). */
    private void requireWritable(String what) {
        if (options.readOnly()) {
            throw new UnsupportedOperationException("object store " + root + " is read-only: cannot " + what);
        }
    }

    @Override
    public Path root() {
        return root;
    }

    @Override
    public Policy policy() {
        return objects.policy();
    }

    @Override
    public ObjectStoreOptions options() {
        return options;
    }

    @Override
    public SegmentWriter newSegment(ObjectId id, CommonWidthRule rule) throws IOException {
        requireWritable("write a new segment");
        return objects.newNative(id, rule);
    }

    @Override
    public Path nativePath(ObjectId id) throws IOException {
        Objects.requireNonNull(id, "id");
        requireWritable("hand out a native's path to write");
        objects.writing(id);
        Path p = objects.nativePath(id);
        DurableDirectories.create(p.getParent());
        return p;
    }

    @Override
    public SegmentReader openNative(ObjectId id) throws IOException {
        synchronized (objects) {
            return new ReaderHandle(objects, null, id, objects.openNative(id));
        }
    }

    @Override
    public boolean delete(ObjectId id) throws IOException {
        requireWritable("delete");
        return objects.delete(id);
    }

    /** The catalog a host's ref names; {@code argument} names the parameter in messages. */
    private Catalog catalog(CatalogRef ref, String argument) throws IOException {
        Objects.requireNonNull(ref, argument);
        return objects.openChain(ref.nativeId(), ref.indexId());
    }

    private static CatalogRef ref(Catalog c) {
        return new CatalogRef(c.nativeId, c.indexId);
    }

    @Override
    public CatalogRef index(ObjectId nativeId, CatalogRef main, ObjectId secondary) throws IOException {
        Objects.requireNonNull(nativeId, "nativeId");
        requireWritable("index");
        return ref(objects.index(nativeId, main == null ? null : catalog(main, "main"), secondary));
    }

    @Override
    public CatalogRef prepareHead(CatalogRef main, ObjectId secondary) throws IOException {
        requireWritable("prepare a head");
        return ref(objects.prepareHead(main == null ? null : catalog(main, "main"), secondary));
    }

    @Override
    public Chain openChain(CatalogRef head) throws IOException {
        synchronized (objects) {
            Catalog h = prepared(catalog(head, "head"), "openChain");
            return new ChainView(objects, h, new Cascade(h, options.routingCacheBytes()), filters(h));
        }
    }

    /**
     * The head itself, if it is one {@link #prepareHead} made: a well-formed catalog of more than
     * K occurrences is a wrong argument, not a damaged file (whose index would fail its CRC).
     */
    private Catalog prepared(Catalog h, String method) {
        long k = objects.policy().groupSize();
        if (h.virtualCount() > k) {
            throw new IllegalArgumentException(method + ": head " + ref(h) + " is not a prepared query head: its catalog holds "
                    + h.virtualCount() + " occurrences and a head holds at most K = " + k
                    + " (pass the CatalogRef that prepareHead or indexSegment returned)");
        }
        return h;
    }

    /**
     * The key filters of the chain below {@code head}, or null if the store keeps no filters, or
     * if it is read-only and one the chain needs is missing or stale: a filter stands for every
     * non-empty native of the chain (a native without one would read as holding nothing), and a
     * read-only store may not build the missing one.
     */
    private ChainFilters filters(Catalog head) throws IOException {
        if (!objects.filterPolicy().enabled()) {
            return null;
        }
        if (options.readOnly()) {
            for (Catalog c = head; c != null; c = c.main) {
                if (!objects.filterUsable(c.nativeId, c.nativeReader) || (c.secondary != null && !objects.filterUsable(c.secondaryId, c.secondary))) {
                    return null;
                }
            }
        }
        return ChainFilters.of(head, objects::filter);
    }

    @Override
    public IndexedSegment indexSegment(ObjectId nativeId) throws IOException {
        Objects.requireNonNull(nativeId, "nativeId");
        requireWritable("index");
        CatalogRef head;
        // The index and the routing heads over it lie in the native's directory (OpenObjects
        // names them beside it): forced once, before the segment is handed out.
        try (DurableDirectories.Batch forces = DurableDirectories.deferForces()) {
            Catalog bottom = objects.index(nativeId, null, null);
            head = ref(objects.prepareHead(bottom, null));
        }
        return openSegment(head);
    }

    @Override
    public IndexedSegment openSegment(CatalogRef head) throws IOException {
        synchronized (objects) {
            Catalog h = prepared(catalog(head, "head"), "openSegment");
            List<Catalog> path = new ArrayList<>();
            for (Catalog c = h; c != null; c = c.main) {
                path.add(c);
            }
            for (int d = 0; d < path.size(); d++) {
                Catalog c = path.get(d);
                boolean bottom = d == path.size() - 1;
                if (c.secondary != null || (!bottom && c.nativeReader.recordCount() > 0)) {
                    throw new IllegalArgumentException("openSegment: head " + ref(h) + " is not a single segment's chain: catalog "
                            + ref(c) + ", " + d + " below the head, " + (c.secondary != null ? "has a secondary leaf"
                            : "holds " + c.nativeReader.recordCount() + " records of its own above the bottom run")
                            + " (open a chain of several runs with openChain)");
                }
            }
            return new SegmentView(objects, h, new Cascade(h, options.routingCacheBytes()), filters(h), path);
        }
    }

    @Override
    public void close() {
        objects.close();
    }

    @Override
    public String toString() {
        return "MappedObjectStore[" + root + "]";
    }

    /** Every object a chain below {@code head} reads: each catalog's native, index and secondary leaf. */
    private static List<ObjectId> objectsOf(Catalog head) {
        List<ObjectId> ids = new ArrayList<>();
        for (Catalog c = head; c != null; c = c.main) {
            ids.add(c.nativeId);
            ids.add(c.indexId);
            if (c.secondary != null) {
                ids.add(c.secondaryId);
            }
        }
        return ids;
    }

    /** A prepared chain. */
    static class ChainView extends Handle implements Chain {
        final Cascade cascade;
        /** The chain's key filters, or null when lookups go straight to the cascade. */
        final ChainFilters filters;
        private final CatalogRef head;

        ChainView(OpenObjects objects, Catalog head, Cascade cascade, ChainFilters filters) {
            super(objects, null, objectsOf(head));
            this.cascade = cascade;
            this.filters = filters;
            this.head = ref(head);
        }

        @Override
        String describe() {
            return "chain with head " + head.nativeId() + "/" + head.indexId();
        }

        @Override
        public boolean filtered() {
            return filters != null;
        }

        @Override
        public CatalogRef head() {
            return head;
        }

        @Override
        public Lookup get(byte[] key) {
            Objects.requireNonNull(key, "key");
            live();
            if (filters == null) {
                return cascade.get(key, key.length);
            }
            long holders = filters.holders(key);
            return holders == 0 ? Lookup.absent() : cascade.get(key, key.length, holders);
        }

        @Override
        public RunCursors runCursors(int runs, KeyRange range) {
            live();
            return new ChainRunCursors(cascade, runs, range);
        }

        @Override
        public void verify() throws IOException {
            live();
            cascade.head().verify();
            if (filters != null) {
                filters.verify(cascade.head());
            }
        }
    }

    /** One segment: its native at the bottom of a chain of routing catalogs. */
    static final class SegmentView extends ChainView implements IndexedSegment {
        private final List<Catalog> path;
        private final Catalog bottom;
        private final OpenObjects objects;

        SegmentView(OpenObjects objects, Catalog head, Cascade cascade, ChainFilters filters, List<Catalog> path) {
            super(objects, head, cascade, filters);
            this.objects = objects;
            this.path = path;
            this.bottom = path.get(path.size() - 1);
        }

        @Override
        String describe() {
            return "segment of native " + bottom.nativeId + " (head " + head().nativeId() + "/" + head().indexId() + ")";
        }

        @Override
        public SegmentFileBytes fileBytes() {
            live();
            long index = 0;
            Set<ObjectId> counted = new HashSet<>();
            counted.add(bottom.nativeId);
            for (Catalog c : path) {
                index += c.index.fileBytes();
                if (counted.add(c.nativeId)) {
                    index += c.nativeReader.fileBytes(); // a routing catalog's empty native, shared
                }
            }
            return new SegmentFileBytes(bottom.nativeReader.fileBytes(), index, filters == null ? 0 : filters.fileBytes());
        }

        /** A fresh reader handle each call, living as long as this segment: closing it ends that handle alone. */
        @Override
        public SegmentReader natives() {
            live();
            return new ReaderHandle(objects, this, bottom.nativeId, bottom.nativeReader);
        }

        /** As a chain's, on the route this segment keeps (no walk down the cascade to find it). */
        @Override
        public RunCursors runCursors(int runs, KeyRange range) {
            live();
            return new ChainRunCursors(cascade, path, runs, range);
        }

        @Override
        public SeekCursor cursor(KeyRange range) {
            Objects.requireNonNull(range, "range");
            live();
            return new Cursor(new SegmentSeekCursor(cascade, new KeyMaterialiser(path), path.size() - 1, bottom.nativeReader, range));
        }

        /** A seek cursor that checks, at every step, that its segment is still open (one volatile read or two). */
        private final class Cursor implements SeekCursor {
            // Its delegation repeats ReaderHandle.Cursor's on purpose: SeekCursor and SegmentCursor share no supertype to wrap once.
            private final SeekCursor c;

            Cursor(SeekCursor c) {
                this.c = c;
            }

            @Override
            public boolean valid() {
                live();
                return c.valid();
            }

            @Override
            public void seekToFirst() {
                live();
                c.seekToFirst();
            }

            @Override
            public void seekToLast() {
                live();
                c.seekToLast();
            }

            @Override
            public void seek(byte[] target) {
                Objects.requireNonNull(target, "target");
                live();
                c.seek(target);
            }

            @Override
            public void seekForPrev(byte[] target) {
                Objects.requireNonNull(target, "target");
                live();
                c.seekForPrev(target);
            }

            @Override
            public void next() {
                live();
                c.next();
            }

            @Override
            public void prev() {
                live();
                c.prev();
            }

            @Override
            public long ordinal() {
                live();
                return c.ordinal();
            }

            @Override
            public int keyLength() {
                live();
                return c.keyLength();
            }

            @Override
            public MemorySegment keyBuffer() {
                live();
                return c.keyBuffer();
            }

            @Override
            public byte[] keyBytes() {
                live();
                return c.keyBytes();
            }

            @Override
            public boolean isTombstone() {
                live();
                return c.isTombstone();
            }

            @Override
            public MemorySegment value() {
                live();
                return c.value();
            }

            @Override
            public byte[] valueBytes() {
                live();
                return c.valueBytes();
            }

            @Override
            public void close() {
                c.close();
            }
        }
    }
}

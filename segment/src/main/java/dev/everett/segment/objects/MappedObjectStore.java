package dev.everett.segment.objects;

import dev.everett.segment.index.IndexDirectory;
import dev.everett.api.CatalogRef;
import dev.everett.api.Chain;
import dev.everett.api.CommonWidthRule;
import dev.everett.api.IndexedSegment;
import dev.everett.api.KeyRange;
import dev.everett.api.Lookup;
import dev.everett.api.ObjectId;
import dev.everett.api.ObjectStore;
import dev.everett.api.ObjectStoreOptions;
import dev.everett.api.Policy;
import dev.everett.api.RunCursors;
import dev.everett.api.SeekCursor;
import dev.everett.api.SegmentReader;
import dev.everett.api.SegmentWriter;
import dev.everett.segment.cascade.Cascade;
import dev.everett.segment.cascade.ChainFilters;
import dev.everett.segment.cascade.ChainRunCursors;
import dev.everett.segment.cascade.KeyMaterialiser;
import dev.everett.segment.cascade.SegmentSeekCursor;
import dev.everett.segment.index.Catalog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The host-facing {@link ObjectStore} over an {@link OpenObjects}. */
public final class MappedObjectStore implements ObjectStore {
    private final Path root;
    private final OpenObjects objects;
    private final ObjectStoreOptions options;

    public MappedObjectStore(Path root, Policy policy, ObjectStoreOptions options) throws IOException {
        this.root = root;
        this.options = options;
        Files.createDirectories(root);
        this.objects = new OpenObjects(root, policy, options.filters(), options.verifyChecksums());
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
        return objects.newNative(id, rule);
    }

    @Override
    public Path nativePath(ObjectId id) throws IOException {
        Path p = objects.nativePath(id);
        Files.createDirectories(p.getParent());
        return p;
    }

    @Override
    public SegmentReader openNative(ObjectId id) throws IOException {
        return objects.openNative(id);
    }

    private Catalog catalog(CatalogRef ref) throws IOException {
        return ref == null ? null : objects.openChain(ref.nativeId(), ref.indexId());
    }

    private static CatalogRef ref(Catalog c) {
        return new CatalogRef(c.nativeId, c.indexId);
    }

    @Override
    public CatalogRef index(ObjectId nativeId, CatalogRef main, ObjectId secondary) throws IOException {
        return ref(objects.index(nativeId, catalog(main), secondary));
    }

    @Override
    public CatalogRef prepareHead(CatalogRef main, ObjectId secondary) throws IOException {
        return ref(objects.prepareHead(catalog(main), secondary));
    }

    @Override
    public Chain openChain(CatalogRef head) throws IOException {
        Catalog h = catalog(head);
        return new ChainView(new Cascade(h, options.routingCacheBytes()), filters(h));
    }

    /** The key filters of the chain below {@code head}, or null if the store keeps no filters. */
    private ChainFilters filters(Catalog head) throws IOException {
        return objects.filterPolicy().enabled() ? ChainFilters.of(head, objects::filter) : null;
    }

    @Override
    public IndexedSegment indexSegment(ObjectId nativeId) throws IOException {
        Catalog bottom = objects.index(nativeId, null, null);
        return openSegment(ref(objects.prepareHead(bottom, null)));
    }

    @Override
    public IndexedSegment openSegment(CatalogRef head) throws IOException {
        Catalog h = catalog(head);
        List<Catalog> path = new ArrayList<>();
        for (Catalog c = h; c != null; c = c.main) {
            h.index.corruption().require(c.secondary == null, IndexDirectory.inFile(IndexDirectory.TARGET_FLAGS + 1), "a segment chain has no secondary leaves");
            path.add(c);
        }
        return new SegmentView(new Cascade(h, options.routingCacheBytes()), filters(h), path);
    }

    @Override
    public void close() {
        objects.close();
    }

    /** A prepared chain. */
    static class ChainView implements Chain {
        final Cascade cascade;
        /** The chain's key filters, or null when lookups go straight to the cascade. */
        private final ChainFilters filters;

        ChainView(Cascade cascade, ChainFilters filters) {
            this.cascade = cascade;
            this.filters = filters;
        }

        @Override
        public boolean filtered() {
            return filters != null;
        }

        @Override
        public CatalogRef head() {
            return ref(cascade.head());
        }

        @Override
        public Lookup get(byte[] key) {
            if (filters == null) {
                return cascade.get(key, key.length);
            }
            long holders = filters.holders(key);
            return holders == 0 ? Lookup.absent() : cascade.get(key, key.length, holders);
        }

        @Override
        public RunCursors runCursors(int runs, KeyRange range) {
            return new ChainRunCursors(cascade, runs, range);
        }

        @Override
        public void verify() throws IOException {
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

        SegmentView(Cascade cascade, ChainFilters filters, List<Catalog> path) {
            super(cascade, filters);
            this.path = path;
            this.bottom = path.get(path.size() - 1);
        }

        @Override
        public SegmentReader natives() {
            return bottom.nativeReader;
        }

        @Override
        public SeekCursor cursor(KeyRange range) {
            return new SegmentSeekCursor(cascade, new KeyMaterialiser(path), path.size() - 1, bottom.nativeReader, range);
        }
    }
}

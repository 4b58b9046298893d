package dev.everett.segment.objects;

import dev.everett.api.CommonWidthRule;
import dev.everett.api.FilterPolicy;
import dev.everett.api.ObjectId;
import dev.everett.api.OpenMode;
import dev.everett.api.Policy;
import dev.everett.segment.filter.KeyFilter;
import dev.everett.segment.index.Catalog;
import dev.everett.segment.index.IndexBuilder;
import dev.everett.segment.index.IndexDirectory;
import dev.everett.segment.index.IndexReader;
import dev.everett.segment.natives.NativeReader;
import dev.everett.segment.natives.NativeWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Everett objects under one root, named by identity: {@code ROOT/ab/cd/<28 hex>.kv} for natives
 * and {@code .index} for indexes. Opens each object once and shares the mapping; builds
 * catalogs (a native plus its index) and the empty-native routing heads that make a chain
 * queryable; reopens a chain from its head's identities.
 */
public final class OpenObjects implements AutoCloseable {
    private final Path root;
    private final Policy policy;
    private final Map<ObjectId, NativeReader> natives = new HashMap<>();
    private final Map<ObjectId, IndexReader> indexes = new HashMap<>();
    private final Map<ObjectId, KeyFilter> filters = new HashMap<>();
    private final FilterPolicy filterPolicy;
    private final boolean verifyChecksums;
    private ObjectId emptyNative;
    /** Where fresh identities come from: random unless a test fixes them (golden files). */
    private Supplier<ObjectId> ids = ObjectId::random;

    public OpenObjects(Path root, Policy policy) {
        this(root, policy, FilterPolicy.none());
    }

    public OpenObjects(Path root, Policy policy, FilterPolicy filterPolicy) {
        this(root, policy, filterPolicy, true);
    }

    /** {@code verifyChecksums}: check each native's body CRC before its first read (see {@link NativeReader#typed()}). */
    public OpenObjects(Path root, Policy policy, FilterPolicy filterPolicy, boolean verifyChecksums) {
        this.root = root;
        this.policy = policy;
        this.filterPolicy = java.util.Objects.requireNonNull(filterPolicy);
        this.verifyChecksums = verifyChecksums;
    }

    FilterPolicy filterPolicy() {
        return filterPolicy;
    }

    /**
     * Replaces the source of fresh identities (for indexes built by {@link #index(ObjectId,
     * Catalog, ObjectId)}, routing heads and the shared empty native). Tests use a serial source
     * so that the files they write are reproducible byte for byte.
     */
    public synchronized void identities(Supplier<ObjectId> source) {
        this.ids = java.util.Objects.requireNonNull(source);
    }

    private synchronized ObjectId freshId() {
        return ids.get();
    }

    Policy policy() {
        return policy;
    }

    public Path nativePath(ObjectId id) {
        return id.path(root, ".kv");
    }

    public Path indexPath(ObjectId id) {
        return id.path(root, ".index");
    }

    Path filterPath(ObjectId id) {
        return id.path(root, ".filter");
    }

    /** A writer for a new native object; the caller finishes it. */
    public NativeWriter newNative(ObjectId id, CommonWidthRule rule) throws IOException {
        Path p = nativePath(id);
        Files.createDirectories(p.getParent());
        return new NativeWriter(p, policy, rule);
    }

    synchronized NativeReader openNative(ObjectId id) throws IOException {
        NativeReader r = natives.get(id);
        if (r == null) {
            r = NativeReader.open(nativePath(id), policy, OpenMode.TYPED, verifyChecksums);
            natives.put(id, r);
        }
        return r;
    }

    synchronized IndexReader openIndex(ObjectId id) throws IOException {
        IndexReader r = indexes.get(id);
        if (r == null) {
            r = IndexReader.open(indexPath(id), policy);
            indexes.put(id, r);
        }
        return r;
    }

    /**
     * The key filter of native {@code id}, written first if the store keeps filters and it has
     * none yet; null for an empty native (nothing to filter) or when the store keeps no filters.
     */
    public synchronized KeyFilter filter(ObjectId id, NativeReader n) throws IOException {
        if (!filterPolicy.enabled() || n.recordCount() == 0) {
            return null;
        }
        KeyFilter f = filters.get(id);
        if (f != null) {
            return f;
        }
        Path p = filterPath(id);
        if (!Files.exists(p) || KeyFilter.stale(p, n)) {
            // Missing, or made for earlier bytes published under the same identity: filters are
            // derived data, so rebuild rather than trust or refuse it.
            KeyFilter.write(p, id, n, filterPolicy);
        }
        f = KeyFilter.open(p, id, n);
        filters.put(id, f);
        return f;
    }

    /**
     * Indexes native {@code nativeId} over the given targets (either may be null) under a fresh
     * identity and returns the bound catalog.
     */
    public Catalog index(ObjectId nativeId, Catalog main, ObjectId secondaryId) throws IOException {
        return index(nativeId, main, secondaryId, freshId());
    }

    /** As {@link #index(ObjectId, Catalog, ObjectId)}, under the given index identity. */
    public Catalog index(ObjectId nativeId, Catalog main, ObjectId secondaryId, ObjectId indexId) throws IOException {
        NativeReader n = openNative(nativeId);
        NativeReader s = secondaryId == null ? null : openNative(secondaryId);
        Path p = indexPath(indexId);
        Files.createDirectories(p.getParent());
        new IndexBuilder(policy).build(p, nativeId, n, main, secondaryId, s);
        filter(nativeId, n);
        if (secondaryId != null) {
            filter(secondaryId, s);
        }
        return new Catalog(nativeId, n, indexId, openIndex(indexId), main, secondaryId, s);
    }

    /** The one empty native that routing catalogs share (D10). */
    synchronized ObjectId emptyNative() throws IOException {
        if (emptyNative == null) {
            ObjectId id = freshId();
            try (NativeWriter w = newNative(id, CommonWidthRule.policy())) {
                w.finish();
            }
            emptyNative = id;
        }
        return emptyNative;
    }

    /**
     * Prepares a query head over level 0 (a main catalog and optionally a secondary leaf): with
     * no secondary and a main of at most K occurrences the main itself; otherwise one empty
     * catalog over both, then empty main-only parents until the head holds at most K.
     */
    public Catalog prepareHead(Catalog main, ObjectId secondaryId) throws IOException {
        long k = policy.groupSize();
        if (secondaryId == null && main != null && main.virtualCount() <= k) {
            return main;
        }
        Catalog head = index(emptyNative(), main, secondaryId);
        while (head.virtualCount() > k) {
            head = index(emptyNative(), head, null);
        }
        return head;
    }

    /**
     * Opens the chain whose head is the pair (native, index), following the main targets the
     * indexes record and opening each secondary; a repeated index identity is a cycle.
     */
    public Catalog openChain(ObjectId nativeId, ObjectId indexId) throws IOException {
        return openChain(nativeId, indexId, new HashSet<>(), null);
    }

    /** {@code parent}: the index that names this pair as its main target, or null for the head. */
    private Catalog openChain(ObjectId nativeId, ObjectId indexId, Set<ObjectId> seen, IndexReader parent) throws IOException {
        IndexReader ix = parent == null ? openIndex(indexId)
                : referenced(parent, IndexDirectory.MAIN_INDEX_ID, "main target index", indexId, () -> openIndex(indexId));
        ix.corruption().require(seen.add(indexId), IndexDirectory.inFile(IndexDirectory.MAIN_INDEX_ID), "index chain has a cycle through " + indexId);
        IndexDirectory d = ix.directory();
        Catalog main = d.present()[0] ? openChain(d.mainNativeId(), d.mainIndexId(), seen, ix) : null;
        ObjectId sid = d.present()[1] ? d.secondaryId() : null;
        NativeReader s = sid == null ? null : referenced(ix, IndexDirectory.SECONDARY_ID, "secondary", sid, () -> openNative(sid));
        NativeReader n = parent == null ? openNative(nativeId)
                : referenced(parent, IndexDirectory.MAIN_NATIVE_ID, "main target native", nativeId, () -> openNative(nativeId));
        return new Catalog(nativeId, n, indexId, ix, main, sid, s);
    }

    private interface Opener<T> {
        T open() throws IOException;
    }

    /**
     * Opens an object that an index names. A missing object is a dangling reference in that
     * (checksum-valid) index, reported as corruption of the index at the identity's offset
     * rather than as the store's {@link NoSuchFileException}.
     */
    private static <T> T referenced(IndexReader by, int directoryOffset, String what, ObjectId id, Opener<T> opener) throws IOException {
        try {
            return opener.open();
        } catch (NoSuchFileException e) {
            throw by.corruption().at(IndexDirectory.inFile(directoryOffset), "index names " + what + " " + id + ", which is not in the store");
        }
    }

    @Override
    public synchronized void close() {
        natives.values().forEach(NativeReader::close);
        indexes.values().forEach(IndexReader::close);
        filters.values().forEach(KeyFilter::close);
        natives.clear();
        indexes.clear();
        filters.clear();
    }
}

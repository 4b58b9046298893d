package dev.everett.segment.objects;

import dev.everett.api.CommonWidthRule;
import dev.everett.api.DurableDirectories;
import dev.everett.api.FilterPolicy;
import dev.everett.api.ObjectId;
import dev.everett.api.OpenMode;
import dev.everett.api.Policy;
import dev.everett.segment.fc.KeySamples;
import dev.everett.segment.fc.KeySource;
import dev.everett.segment.filter.KeyFilter;
import dev.everett.segment.index.Catalog;
import dev.everett.segment.index.IndexBuilder;
import dev.everett.segment.index.IndexDirectory;
import dev.everett.segment.index.IndexReader;
import dev.everett.segment.io.AtomicFile;
import dev.everett.segment.io.LittleEndian;
import dev.everett.segment.io.SmallCopies;
import dev.everett.segment.io.WrittenFiles;
import dev.everett.segment.natives.NativeReader;
import dev.everett.segment.natives.NativeWriter;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Everett objects under one root, named by identity: {@code ROOT/ab/cd/<28 hex>.kv} for natives
 * and {@code .index} for indexes. Opens each object once and shares the mapping; builds
 * catalogs (a native plus its index) and the empty-native routing heads that make a chain
 * queryable; reopens a chain from its head's identities.
 *
 * <p>Objects are immutable once published: a native or index is never written under an identity
 * that exists ({@link FileAlreadyExistsException}, decided atomically when the file is linked in).
 * The store counts how many open handles hold each object; {@link #delete} unmaps and deletes an
 * object at once if none does, else as soon as the last one is released, and refuses new opens
 * of it meanwhile.
 */
public final class OpenObjects implements AutoCloseable {
    private final Path root;
    private final Policy policy;
    private final Map<ObjectId, NativeReader> natives = new HashMap<>();
    private final Map<ObjectId, IndexReader> indexes = new HashMap<>();
    private final Map<ObjectId, KeyFilter> filters = new HashMap<>();
    /** The memory of every small file opened here (an index, the empty native, a small native): see {@link SmallCopies}. */
    private final SmallCopies copies = new SmallCopies();
    private final FilterPolicy filterPolicy;
    private final boolean verifyChecksums;
    private ObjectId emptyNative;
    /** Identities handed out for writing whose first open may skip the CRC pass (see {@link WrittenFiles}). */
    private final Set<ObjectId> writtenHere = new HashSet<>();
    /** Open handles per object (an object a chain uses at several catalogs counts once per use). */
    private final Map<ObjectId, Integer> holds = new HashMap<>();
    /** Objects {@link #delete}d while held: deleted when the last hold is released. */
    private final Set<ObjectId> deleting = new HashSet<>();
    private volatile boolean closed;
    /** Writes no key filter: {@link #filter} only opens those that are usable as they are. */
    private final boolean readOnly;
    /**
     * Where fresh identities come from, if a test fixes them (golden files); null: random, each
     * beside the native it is made for ({@link #freshId}).
     */
    private volatile Supplier<ObjectId> ids;

    public OpenObjects(Path root, Policy policy) {
        this(root, policy, FilterPolicy.none());
    }

    public OpenObjects(Path root, Policy policy, FilterPolicy filterPolicy) {
        this(root, policy, filterPolicy, true);
    }

    /** {@code verifyChecksums}: check each native's body CRC before its first read (see {@link NativeReader#typed()}). */
    public OpenObjects(Path root, Policy policy, FilterPolicy filterPolicy, boolean verifyChecksums) {
        this(root, policy, filterPolicy, verifyChecksums, false);
    }

    /** {@code readOnly}: never write a key filter (see {@link #filterUsable}). */
    public OpenObjects(Path root, Policy policy, FilterPolicy filterPolicy, boolean verifyChecksums, boolean readOnly) {
        this.root = root;
        this.policy = policy;
        this.filterPolicy = java.util.Objects.requireNonNull(filterPolicy);
        this.verifyChecksums = verifyChecksums;
        this.readOnly = readOnly;
        // The natives written here keep their keys' filter hashes, so that their filters are
        // built without walking them again (see filter).
        this.filtering = filterPolicy.enabled() && !readOnly;
        if (filtering) {
            WrittenFiles.filtering(root, true);
        }
    }

    /** Whether this store noted itself in {@link WrittenFiles#filtering} (undone on close). */
    private final boolean filtering;

    /**
     * Whether {@link #filter} can give native {@code id}'s filter without writing one: it is open,
     * or present and made for these bytes, or none is needed (no filters, an empty native).
     */
    public synchronized boolean filterUsable(ObjectId id, NativeReader n) throws IOException {
        if (!filterPolicy.enabled() || n.recordCount() == 0 || filters.containsKey(id)) {
            return true;
        }
        Path p = filterPath(id);
        return Files.exists(p) && !KeyFilter.stale(p, n);
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

    /**
     * A fresh identity for an object made for native {@code near} (its index, a routing head
     * above it, the empty native those share): random, in {@code near}'s directory
     * ({@link ObjectId#randomBeside}), so that a segment's objects take one directory to create
     * and force rather than one each; anywhere if {@code near} is null.
     */
    private synchronized ObjectId freshId(ObjectId near) {
        return ids != null ? ids.get() : near == null ? ObjectId.random() : ObjectId.randomBeside(near);
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

    /**
     * A writer for a new native object; the caller finishes it.
     *
     * @throws FileAlreadyExistsException if the object exists (the writer's publish refuses it
     *                                    atomically too, should another writer get there first)
     */
    public NativeWriter newNative(ObjectId id, CommonWidthRule rule) throws IOException {
        return newNative(id, rule, false);
    }

    /**
     * {@code fresh}: {@code id} was drawn here at random, so it names no object and is not looked
     * up first (as in {@link #index(ObjectId, Catalog, KeySource, ObjectId, ObjectId, boolean)}).
     */
    private NativeWriter newNative(ObjectId id, CommonWidthRule rule, boolean fresh) throws IOException {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(rule, "rule");
        Path p = nativePath(id);
        if (!fresh) {
            refuseExisting(p, id);
        }
        DurableDirectories.create(p.getParent());
        NativeWriter w = new NativeWriter(p, policy, rule);
        writing(id);
        return w;
    }

    /** Notes that this store hands {@code id}'s native path to a writer of this process. */
    synchronized void writing(ObjectId id) {
        requireOpen();
        writtenHere.add(id);
    }

    private static void refuseExisting(Path p, ObjectId id) throws FileAlreadyExistsException {
        if (Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
            throw new FileAlreadyExistsException(p.toString(), null, "object " + id + " exists and objects are immutable once published");
        }
    }

    synchronized NativeReader openNative(ObjectId id) throws IOException {
        Objects.requireNonNull(id, "id");
        requireOpenable(id);
        NativeReader r = natives.get(id);
        if (r == null) {
            Path p = nativePath(id);
            // A native this process sealed itself had its body CRC computed from the bytes it wrote.
            boolean vouched = writtenHere.contains(id) && WrittenFiles.stillAsSealed(p);
            r = NativeReader.open(p, policy, OpenMode.TYPED, verifyChecksums && !vouched, copies);
            writtenHere.remove(id);
            natives.put(id, r);
        }
        return r;
    }

    synchronized IndexReader openIndex(ObjectId id) throws IOException {
        Objects.requireNonNull(id, "id");
        requireOpenable(id);
        IndexReader r = indexes.get(id);
        if (r == null) {
            r = IndexReader.open(indexPath(id), policy, copies);
            indexes.put(id, r);
        }
        return r;
    }

    private void requireOpenable(ObjectId id) {
        requireOpen();
        if (deleting.contains(id)) {
            throw new IllegalStateException("object " + id + " under " + root + " is being deleted ("
                    + holds.getOrDefault(id, 0) + " open handles still hold it); it cannot be opened again");
        }
    }

    Path root() {
        return root;
    }

    /** How many generations of small-file copies this store holds open (tests). */
    int smallCopyGenerations() {
        return copies.openGenerations();
    }

    /** True once {@link #close()} ran (read without the lock: handles ask on every use). */
    boolean isClosed() {
        return closed;
    }

    /** Throws unless the store is open. */
    synchronized void requireOpen() {
        if (closed) {
            throw new IllegalStateException("the object store at " + root + " is closed");
        }
    }

    /** A handle takes a hold on each of {@code ids} (refused if one is being deleted). */
    synchronized void hold(Iterable<ObjectId> ids) {
        for (ObjectId id : ids) {
            requireOpenable(id);
        }
        for (ObjectId id : ids) {
            holds.merge(id, 1, Integer::sum);
        }
    }

    /** A handle closed: releases its holds and deletes any object it was the last to hold and that waits for it. */
    synchronized void release(Iterable<ObjectId> ids) throws IOException {
        for (ObjectId id : ids) {
            Integer n = holds.merge(id, -1, Integer::sum);
            if (n != null && n <= 0) {
                holds.remove(id);
                if (deleting.remove(id) && !closed) {
                    deleteNow(id);
                }
            }
        }
    }

    /**
     * Deletes object {@code id} (its native with its key filter, or its index): at once if no
     * open handle holds it, else when the last one is released; meanwhile nothing may open it.
     *
     * @return true if the files are gone when this returns, false if deletion waits for handles
     * @throws NoSuchFileException if the store has no object {@code id}
     */
    public synchronized boolean delete(ObjectId id) throws IOException {
        Objects.requireNonNull(id, "id");
        requireOpen();
        if (!Files.exists(nativePath(id), LinkOption.NOFOLLOW_LINKS) && !Files.exists(indexPath(id), LinkOption.NOFOLLOW_LINKS)) {
            throw new NoSuchFileException(nativePath(id).toString(), indexPath(id).toString(), "no object " + id + " in this store");
        }
        if (holds.getOrDefault(id, 0) > 0) {
            deleting.add(id);
            return false;
        }
        deleteNow(id);
        return true;
    }

    private void deleteNow(ObjectId id) throws IOException {
        NativeReader n = natives.remove(id);
        IndexReader ix = indexes.remove(id);
        KeyFilter f = filters.remove(id);
        if (n != null) {
            n.close();
        }
        if (ix != null) {
            ix.close();
        }
        if (f != null) {
            f.close();
        }
        if (id.equals(emptyNative)) {
            emptyNative = null;
        }
        writtenHere.remove(id);
        for (Path p : new Path[] {nativePath(id), filterPath(id), indexPath(id)}) {
            WrittenFiles.forget(p);
            Files.deleteIfExists(p);
        }
        DurableDirectories.force(nativePath(id).getParent());
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
            if (readOnly) {
                throw new IllegalStateException("read-only object store " + root + ": the key filter of " + id
                        + " is missing or stale (ask filterUsable first)");
            }
            // Missing, or made for earlier bytes published under the same identity: filters are
            // derived data, so rebuild rather than trust or refuse it.
            // From the hashes its writer took, if this process wrote these bytes; else by a walk.
            long[] hashes = WrittenFiles.takeHashes(nativePath(id), n.fileBytes(), KeyFilter.nativeCrc(n));
            KeyFilter.write(p, id, n, filterPolicy, hashes != null && hashes.length == n.recordCount() ? hashes : null);
        }
        f = KeyFilter.open(p, id, n, copies);
        filters.put(id, f);
        return f;
    }

    /**
     * Indexes native {@code nativeId} over the given targets (either may be null) under a fresh
     * identity and returns the bound catalog.
     */
    public Catalog index(ObjectId nativeId, Catalog main, ObjectId secondaryId) throws IOException {
        return index(nativeId, main, null, secondaryId, freshId(nativeId), ids == null);
    }

    /**
     * As {@link #index(ObjectId, Catalog, ObjectId)}, under the given index identity.
     *
     * @throws FileAlreadyExistsException if an index of that identity exists
     */
    public Catalog index(ObjectId nativeId, Catalog main, ObjectId secondaryId, ObjectId indexId) throws IOException {
        return index(nativeId, main, null, secondaryId, indexId);
    }

    /** As {@link #index(ObjectId, Catalog, ObjectId, ObjectId)}, with the main's samples if known. */
    private Catalog index(ObjectId nativeId, Catalog main, KeySource mainSamples, ObjectId secondaryId, ObjectId indexId) throws IOException {
        return index(nativeId, main, mainSamples, secondaryId, indexId, false);
    }

    /**
     * {@code fresh}: {@code indexId} was drawn here at random, so it names no object and is not
     * looked up first (publishing refuses an existing name atomically all the same).
     */
    private Catalog index(ObjectId nativeId, Catalog main, KeySource mainSamples, ObjectId secondaryId, ObjectId indexId,
                          boolean fresh) throws IOException {
        Objects.requireNonNull(nativeId, "nativeId");
        Objects.requireNonNull(indexId, "indexId");
        NativeReader n = openNative(nativeId);
        NativeReader s = secondaryId == null ? null : openNative(secondaryId);
        Path p = indexPath(indexId);
        if (!fresh) {
            refuseExisting(p, indexId);
        }
        // The index and the filters it writes lie in one or two directories: each is forced once.
        try (DurableDirectories.Batch forces = DurableDirectories.deferForces()) {
            DurableDirectories.create(p.getParent());
            new IndexBuilder(policy).build(p, nativeId, n, main, mainSamples, secondaryId, s);
            filter(nativeId, n);
            if (secondaryId != null) {
                filter(secondaryId, s);
            }
        }
        return new Catalog(nativeId, n, indexId, openIndex(indexId), main, secondaryId, s);
    }

    /** The one empty native that routing catalogs share (D10). */
    synchronized ObjectId emptyNative(ObjectId near) throws IOException {
        if (emptyNative == null) {
            ObjectId id = freshId(near);
            try (NativeWriter w = newNative(id, CommonWidthRule.policy(), ids == null)) {
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
        // The empty native and every routing head lie beside the main's native (freshId): one
        // directory, forced once when the head is ready rather than once per object.
        try (DurableDirectories.Batch forces = DurableDirectories.deferForces()) {
            return stackHeads(main, secondaryId, k);
        }
    }

    private Catalog stackHeads(Catalog main, ObjectId secondaryId, long k) throws IOException {
        KeySamples kept = secondaryId == null ? keptSamples(main) : null;
        ObjectId near = main != null ? main.nativeId : secondaryId;
        Catalog head = index(emptyNative(near), main, kept == null ? null : kept.source(), secondaryId, freshId(near), ids == null);
        // Each parent's virtual order is exactly the samples it borrowed (its native is empty and
        // it has no secondary), so the parent above it samples the kept keys at K times the stride.
        long stride = k;
        while (head.virtualCount() > k) {
            head = index(emptyNative(near), head, kept == null ? null : kept.source(stride), null, freshId(near), ids == null);
            stride = stride > Long.MAX_VALUE / k ? Long.MAX_VALUE : stride * k;
        }
        return head;
    }

    /**
     * The keys of records 0, K, 2K, … that the writer of {@code main}'s native kept, if
     * {@code main} is a terminal catalog (its virtual order is its native's records) over a native
     * this process sealed and has not changed since: its head then samples them without walking
     * every record again (the index bytes are the same). Else null, and the build walks.
     */
    private KeySamples keptSamples(Catalog main) throws IOException {
        if (main == null || main.main != null || main.secondary != null) {
            return null;
        }
        KeySamples samples = WrittenFiles.takeSamples(nativePath(main.nativeId));
        long records = main.nativeReader.recordCount();
        return samples != null && samples.count() == LittleEndian.ceilDiv(records, policy.groupSize()) ? samples : null;
    }

    /**
     * Opens the chain whose head is the pair (native, index), following the main targets the
     * indexes record and opening each secondary; a repeated index identity is a cycle.
     */
    public Catalog openChain(ObjectId nativeId, ObjectId indexId) throws IOException {
        Objects.requireNonNull(nativeId, "nativeId");
        Objects.requireNonNull(indexId, "indexId");
        return openChain(nativeId, indexId, new HashSet<>(), null);
    }

    /** {@code parent}: the index that names this pair as its main target, or null for the head. */
    private Catalog openChain(ObjectId nativeId, ObjectId indexId, Set<ObjectId> seen, IndexReader parent) throws IOException {
        IndexReader ix = parent == null ? openIndex(indexId)
                : referenced(parent, IndexDirectory.MAIN_INDEX_ID, "main target index", indexId, () -> openIndex(indexId));
        ix.corruption().require(seen.add(indexId), IndexDirectory.inFile(IndexDirectory.MAIN_INDEX_ID), () -> "index chain has a cycle through " + indexId);
        IndexDirectory d = ix.directory();
        if (parent == null && !d.nativeId().equals(nativeId) && describes(ix, d.nativeId())) {
            // The pair came from the caller, and the index is, by its checksum-valid directory,
            // that of another native the store holds: no catalog of this store pairs them. The
            // store cannot tell a wrong pairing from an index file replaced by another native's,
            // so the message names both. An index naming a native the store does not hold, or
            // one whose record count it does not describe, is damaged, and is refused as
            // corruption when the catalog is bound below.
            throw new IllegalArgumentException("catalog " + nativeId + "/" + indexId + " does not exist: index " + indexId
                    + " indexes native " + d.nativeId() + " (its checksum-valid directory names it and its "
                    + ix.nativeCount() + " records), not " + nativeId + "; pass a CatalogRef the store returned, or if it"
                    + " did, " + ix.path() + " was replaced by another native's index");
        }
        Catalog main = d.present()[0] ? openChain(d.mainNativeId(), d.mainIndexId(), seen, ix) : null;
        ObjectId sid = d.present()[1] ? d.secondaryId() : null;
        NativeReader s = sid == null ? null : referenced(ix, IndexDirectory.SECONDARY_ID, "secondary", sid, () -> openNative(sid));
        NativeReader n = parent == null ? openNative(nativeId)
                : referenced(parent, IndexDirectory.MAIN_NATIVE_ID, "main target native", nativeId, () -> openNative(nativeId));
        return new Catalog(nativeId, n, indexId, ix, main, sid, s);
    }

    /** True if the store holds native {@code id} and {@code ix} describes as many records as it has. */
    private boolean describes(IndexReader ix, ObjectId id) throws IOException {
        return Files.isRegularFile(nativePath(id), LinkOption.NOFOLLOW_LINKS) && openNative(id).recordCount() == ix.nativeCount();
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
        if (filtering && !closed) {
            WrittenFiles.filtering(root, false);
        }
        closed = true;
        try {
            natives.values().forEach(NativeReader::close);
            indexes.values().forEach(IndexReader::close);
            filters.values().forEach(KeyFilter::close);
        } finally {
            // Whatever a reader's close did, the small files' memory goes with the store.
            copies.close();
            natives.clear();
            indexes.clear();
            filters.clear();
            holds.clear();
            deleting.clear();
            writtenHere.clear();
        }
    }
}

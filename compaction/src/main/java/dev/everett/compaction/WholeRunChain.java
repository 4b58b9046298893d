package dev.everett.compaction;

import dev.everett.api.CatalogRef;
import dev.everett.api.Chain;
import dev.everett.api.Lookup;
import dev.everett.api.ObjectId;
import dev.everett.api.ObjectStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The one IX03 cascade over every run of a whole-run version, newest run on top, in a directory
 * of its own ({@code <tree>/chains/<id>/}, an object store). The runs' natives are hard links to
 * the files in their segment directories, so a chain costs only its indexes (and routing
 * catalogs). When an edit replaces runs, the catalogs of the unchanged runs below are linked from
 * the previous chain, and every run from the lowest changed one up is indexed again over the
 * catalog below it, then a routing head is prepared: the rebuild reads each of those runs once
 * and samples the catalog below each, so a flush (a new top run) or a merge of the top runs
 * indexes only the new run.
 */
final class WholeRunChain implements AutoCloseable {
    /**
     * What the manifest keeps of a chain.
     *
     * @param id       the chain's directory
     * @param catalogs one catalog per run, bottom (oldest) run first
     * @param head     the prepared head over the top catalog
     */
    record State(ObjectId id, List<CatalogRef> catalogs, CatalogRef head) {
        State {
            catalogs = List.copyOf(catalogs);
        }
    }

    private final State state;
    private final ObjectStore store;
    private final Chain chain;

    private WholeRunChain(State state, ObjectStore store, Chain chain) {
        this.state = state;
        this.store = store;
        this.chain = chain;
    }

    static Path directory(Path chains, ObjectId id) {
        return chains.resolve(id.hex());
    }

    /**
     * Builds the chain over {@code runs} (top, newest, first), reusing the catalogs of the runs at
     * the bottom that {@code previous} (over {@code previousRuns}) already indexes.
     */
    static State build(SegmentFiles segments, Path chains, State previous, List<SegmentMeta> previousRuns,
                       List<SegmentMeta> runs) throws IOException {
        StorageFiles files = segments.files();
        ObjectId id = ObjectId.random();
        Path dir = directory(chains, id);
        files.createDirectories(dir);
        boolean ok = false;
        try (ObjectStore store = segments.engine().openObjectStore(dir, segments.policy(), segments.options())) {
            List<CatalogRef> catalogs = new ArrayList<>();
            // Directories holding links made here: a link is a name, durable only once its directory is forced.
            Set<Path> linked = new LinkedHashSet<>();
            int reused = 0;
            if (previous != null) {
                Path from = directory(chains, previous.id());
                int n = Math.min(previousRuns.size(), runs.size());
                while (reused < n && previousRuns.get(previousRuns.size() - 1 - reused).id().equals(runs.get(runs.size() - 1 - reused).id())) {
                    CatalogRef c = previous.catalogs().get(reused);
                    linkObject(files, from, dir, c.nativeId(), ".kv", linked);
                    linkObject(files, from, dir, c.nativeId(), ".filter", linked);
                    linkObject(files, from, dir, c.indexId(), ".index", linked);
                    catalogs.add(c);
                    reused++;
                }
            }
            CatalogRef below = catalogs.isEmpty() ? null : catalogs.getLast();
            for (int i = runs.size() - 1 - reused; i >= 0; i--) {
                SegmentMeta run = runs.get(i);
                Path segmentDir = segments.segmentDirectory(run.id());
                linkObject(files, segmentDir, dir, run.id(), ".kv", linked);
                linkObject(files, segmentDir, dir, run.id(), ".filter", linked);
                below = store.index(run.id(), below, null);
                catalogs.add(below);
            }
            CatalogRef head = store.prepareHead(below, null);
            // Before the manifest edit that names the chain: a crash must not keep the edit and the
            // chain's directory but lose links in it (open rebuilds only a chain whose directory is gone).
            for (Path d : linked) {
                files.forceDirectory(d);
            }
            ok = true;
            return new State(id, catalogs, head);
        } finally {
            if (!ok) {
                segments.deleteTree(dir);
            }
        }
    }

    /** Links object {@code id}'s file with {@code extension} from one store root to another, if it exists. */
    private static void linkObject(StorageFiles files, Path fromRoot, Path toRoot, ObjectId id, String extension,
                                   Set<Path> linked) throws IOException {
        Path source = id.path(fromRoot, extension);
        if (!files.exists(source)) {
            if (extension.equals(".filter")) {
                return; // filters are optional: the store builds one if it keeps filters
            }
            throw new java.nio.file.NoSuchFileException(source.toString(), null, "object of a whole-run chain is missing");
        }
        Path target = id.path(toRoot, extension);
        files.createDirectories(target.getParent());
        files.link(target, source);
        linked.add(target.getParent());
    }

    static WholeRunChain open(SegmentFiles segments, Path chains, State state) throws IOException {
        ObjectStore store = segments.engine().openObjectStore(directory(chains, state.id()), segments.policy(), segments.options());
        try {
            return new WholeRunChain(state, store, store.openChain(state.head()));
        } catch (IOException | RuntimeException e) {
            store.close();
            throw e;
        }
    }

    State state() {
        return state;
    }

    Lookup get(byte[] key) {
        return chain.get(key);
    }

    Chain chain() {
        return chain;
    }

    @Override
    public void close() {
        store.close();
    }
}

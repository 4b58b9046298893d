package dev.everett.compaction;

import dev.everett.api.ObjectId;
import dev.everett.api.ValueMerger;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** The {@link LsmTree}: a manifest, the current version and the segments under one directory. */
final class EverettTree implements LsmTree {
    private final Path dir;
    private final TreeOptions options;

    private EverettTree(Path dir, TreeOptions options) {
        this.dir = dir;
        this.options = options;
    }

    static EverettTree open(Path dir, TreeOptions options) throws IOException {
        throw new UnsupportedOperationException("LsmTree.open is being implemented on branch compaction");
    }

    @Override
    public Path directory() {
        return dir;
    }

    @Override
    public TreeOptions options() {
        return options;
    }

    @Override
    public Version current() {
        throw new UnsupportedOperationException();
    }

    @Override
    public List<SegmentMeta> flush(SortedEntries entries, byte[] hostState) throws IOException {
        throw new UnsupportedOperationException();
    }

    @Override
    public void recordHostState(byte[] hostState) throws IOException {
        throw new UnsupportedOperationException();
    }

    @Override
    public Optional<CompactionPlan> pickCompaction() {
        throw new UnsupportedOperationException();
    }

    @Override
    public Set<ObjectId> compacting() {
        throw new UnsupportedOperationException();
    }

    @Override
    public CompactionJob compact(CompactionPlan plan, ValueMerger values) throws IOException {
        throw new UnsupportedOperationException();
    }

    @Override
    public int liveSegmentCount() {
        throw new UnsupportedOperationException();
    }

    @Override
    public void close() throws IOException {
    }
}

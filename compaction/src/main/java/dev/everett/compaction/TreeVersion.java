package dev.everett.compaction;

import dev.everett.api.KeyRange;
import dev.everett.api.Lookup;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/** One reference to a {@link VersionCore}, handed to a host. */
final class TreeVersion implements Version {
    private final EverettTree tree;
    final VersionCore core;
    /** Set once, by the one {@link #close} that releases this reference (two closers racing must not both release). */
    private final AtomicBoolean closed = new AtomicBoolean();

    TreeVersion(EverettTree tree, VersionCore core) {
        this.tree = tree;
        this.core = core;
    }

    private void requireOpen() {
        if (closed.get()) {
            throw new IllegalStateException("version " + core.levels.number() + " closed");
        }
    }

    @Override
    public long number() {
        return core.levels.number();
    }

    @Override
    public Layout layout() {
        return core.levels.layout();
    }

    @Override
    public int levelCount() {
        return core.levels.levels().size();
    }

    @Override
    public List<SegmentMeta> level(int level) {
        if (level < 0) {
            throw new IllegalArgumentException("level must be 0 or more, got " + level);
        }
        return core.levels.level(level);
    }

    @Override
    public long levelBytes(int level) {
        return core.levelBytes(level);
    }

    @Override
    public byte[] hostState() {
        return core.levels.hostState().clone();
    }

    @Override
    public Lookup get(byte[] key) {
        Objects.requireNonNull(key, "key");
        requireOpen();
        return core.get(key);
    }

    @Override
    public TreeCursor cursor(KeyRange range) {
        Objects.requireNonNull(range, "range");
        requireOpen();
        tree.retain(core);
        try {
            List<SegmentHandle> lone = core.loneLevel();
            if (lone != null) {
                return new LevelTreeCursor(lone, range, () -> tree.release(core));
            }
            return new MergedCursor(core.children(range), () -> tree.release(core));
        } catch (RuntimeException e) {
            tree.release(core);
            throw e;
        }
    }

    @Override
    public Version retain() {
        requireOpen();
        tree.retain(core);
        return new TreeVersion(tree, core);
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        tree.release(core);
    }
}

package dev.everett.compaction;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The files of a tree opened read-only: reads pass through, every change is refused. The tree
 * guards its own writing paths (flush, compaction, host state) before they start; this seam makes
 * sure nothing else it does writes either (a directory created, a manifest rolled over, garbage
 * swept), so that "read-only" is a property of the files and not only of the code paths someone
 * remembered. (The segment stores' own files are kept the same way by their read-only option.)
 * Creating a directory is skipped rather than refused: a missing one reads as empty.
 */
final class ReadOnlyFiles extends ForwardingStorageFiles {
    private final Path tree;

    ReadOnlyFiles(StorageFiles delegate, Path tree) {
        super(delegate);
        this.tree = tree;
    }

    private UnsupportedOperationException refused(String what, Path path) {
        return new UnsupportedOperationException("tree " + tree + " is open read-only: refused to " + what + " " + path);
    }

    /**
     * Makes nothing: a directory a read-only tree does not find stays missing, and reads of it
     * find nothing there (an empty tree, no segments), as a read-write open would have found it.
     */
    @Override
    public void createDirectories(Path dir) {
    }

    @Override
    public void append(Path file, byte[] bytes) {
        throw refused("append to", file);
    }

    @Override
    public void writeNew(Path file, byte[] bytes) {
        throw refused("write", file);
    }

    @Override
    public void move(Path from, Path to) {
        throw refused("rename " + from + " to", to);
    }

    @Override
    public void forceDirectory(Path dir) {
        throw refused("force the directory", dir);
    }

    @Override
    public void delete(Path path) {
        throw refused("delete", path);
    }

    @Override
    public void link(Path link, Path existing) {
        throw refused("link " + existing + " as", link);
    }
}

package dev.everett.compaction;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.BiPredicate;

/** The real file system, except that an operation on a path fails when the test says so. */
final class FaultyFiles extends ForwardingStorageFiles {
    /** (operation name, path) → fail? */
    volatile BiPredicate<String, Path> failWhen = (op, p) -> false;

    private void maybeFail(String op, Path p) throws IOException {
        if (failWhen.test(op, p)) {
            throw new IOException("injected failure: " + op + " " + p);
        }
    }

    @Override
    public void createDirectories(Path dir) throws IOException {
        maybeFail("createDirectories", dir);
        super.createDirectories(dir);
    }

    @Override
    public void append(Path file, byte[] bytes) throws IOException {
        maybeFail("append", file);
        super.append(file, bytes);
    }

    @Override
    public void writeNew(Path file, byte[] bytes) throws IOException {
        maybeFail("writeNew", file);
        super.writeNew(file, bytes);
    }

    @Override
    public void move(Path from, Path to) throws IOException {
        maybeFail("move", to);
        super.move(from, to);
    }

    @Override
    public void forceDirectory(Path dir) throws IOException {
        maybeFail("forceDirectory", dir);
        super.forceDirectory(dir);
    }

    @Override
    public void delete(Path path) throws IOException {
        maybeFail("delete", path);
        super.delete(path);
    }

    @Override
    public List<Path> list(Path dir) throws IOException {
        maybeFail("list", dir);
        return super.list(dir);
    }

    @Override
    public byte[] readAllBytes(Path file) throws IOException {
        maybeFail("readAllBytes", file);
        return super.readAllBytes(file);
    }

    @Override
    public void link(Path link, Path existing) throws IOException {
        maybeFail("link", link);
        super.link(link, existing);
    }
}

package dev.everett.compaction;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.BiPredicate;

/** The real file system, except that an operation on a path fails when the test says so. */
final class FaultyFiles implements StorageFiles {
    private final StorageFiles real = StorageFiles.system();
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
        real.createDirectories(dir);
    }

    @Override
    public void append(Path file, byte[] bytes) throws IOException {
        maybeFail("append", file);
        real.append(file, bytes);
    }

    @Override
    public void writeNew(Path file, byte[] bytes) throws IOException {
        maybeFail("writeNew", file);
        real.writeNew(file, bytes);
    }

    @Override
    public void move(Path from, Path to) throws IOException {
        maybeFail("move", to);
        real.move(from, to);
    }

    @Override
    public void forceDirectory(Path dir) throws IOException {
        maybeFail("forceDirectory", dir);
        real.forceDirectory(dir);
    }

    @Override
    public void delete(Path path) throws IOException {
        maybeFail("delete", path);
        real.delete(path);
    }

    @Override
    public List<Path> list(Path dir) throws IOException {
        maybeFail("list", dir);
        return real.list(dir);
    }

    @Override
    public byte[] readAllBytes(Path file) throws IOException {
        maybeFail("readAllBytes", file);
        return real.readAllBytes(file);
    }

    @Override
    public boolean exists(Path path) {
        return real.exists(path);
    }

    @Override
    public void link(Path link, Path existing) throws IOException {
        maybeFail("link", link);
        real.link(link, existing);
    }
}

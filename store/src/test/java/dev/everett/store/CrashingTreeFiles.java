package dev.everett.store;

import dev.everett.compaction.StorageFiles;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The tree's file system with a crash on cue: once armed, the next manifest append fails and so
 * does every operation after it, so whatever the flush or compaction had written stays on disk,
 * unreferenced, as a power cut between writing a segment and recording it would leave it.
 */
final class CrashingTreeFiles implements StorageFiles {

    private final StorageFiles real = StorageFiles.system();
    private volatile boolean armed;
    private volatile boolean crashed;
    private volatile boolean torn;

    void arm() {
        armed = true;
    }

    /** Like {@link #arm()}, but the failing append first writes half its record: a torn tail. */
    void armTorn() {
        torn = true;
        armed = true;
    }

    boolean crashed() {
        return crashed;
    }

    private void check() throws IOException {
        if (crashed) {
            throw new IOException("simulated crash: the file system is gone");
        }
    }

    @Override
    public void createDirectories(Path dir) throws IOException {
        check();
        real.createDirectories(dir);
    }

    @Override
    public void append(Path file, byte[] bytes) throws IOException {
        check();
        if (armed && file.getFileName().toString().startsWith("MANIFEST")) {
            crashed = true;
            if (torn) {
                real.append(file, java.util.Arrays.copyOf(bytes, bytes.length / 2));
            }
            check();
        }
        real.append(file, bytes);
    }

    @Override
    public void writeNew(Path file, byte[] bytes) throws IOException {
        check();
        real.writeNew(file, bytes);
    }

    @Override
    public void move(Path from, Path to) throws IOException {
        check();
        real.move(from, to);
    }

    @Override
    public void forceDirectory(Path dir) throws IOException {
        check();
        real.forceDirectory(dir);
    }

    @Override
    public void delete(Path path) throws IOException {
        check();
        real.delete(path);
    }

    @Override
    public List<Path> list(Path dir) throws IOException {
        check();
        return real.list(dir);
    }

    @Override
    public byte[] readAllBytes(Path file) throws IOException {
        check();
        return real.readAllBytes(file);
    }

    @Override
    public boolean exists(Path path) {
        return real.exists(path);
    }
}

package dev.everett.api;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Creates directories so that they survive a crash of the machine, not just of the process. A
 * new directory's name is an entry of its parent, as durable as the parent's forced state: a
 * file published below it (temporary file, force, atomic rename, force its directory) can
 * otherwise vanish with a directory the machine never wrote back. So each directory created here
 * is forced into its parent before this returns. Object stores, segment directories and stores
 * create theirs through this; a host that creates the root of a store should too.
 */
public final class DurableDirectories {
    private static final boolean WINDOWS = System.getProperty("os.name", "").startsWith("Windows");

    /** Forces one directory's entries to the device. */
    @FunctionalInterface
    interface Force {
        void directory(Path dir) throws IOException;
    }

    private DurableDirectories() {
    }

    /**
     * Creates {@code dir} and every missing parent, top down, then forces the parent of each one
     * created. An existing directory costs one stat and nothing else. The forces follow all the
     * creations rather than each one: on a journaling file system the first force commits every
     * creation at once, and the forces after it find little or nothing left to write.
     *
     * @throws FileAlreadyExistsException if {@code dir} or a parent exists and is not a directory
     */
    public static void create(Path dir) throws IOException {
        // Not deferred by a deferForces batch: a directory is in its parent before anything
        // below it is forced, as the class comment promises.
        create(dir, DurableDirectories::forceNow);
    }

    /** As {@link #create(Path)}, forcing through {@code force}. */
    static void create(Path dir, Force force) throws IOException {
        if (Files.isDirectory(dir)) {
            return;
        }
        Deque<Path> missing = new ArrayDeque<>();
        Path absolute = dir.toAbsolutePath();
        missing.push(absolute); // just asked: not a directory
        for (Path p = absolute.getParent(); p != null && !Files.isDirectory(p); p = p.getParent()) {
            missing.push(p);
        }
        for (Path p : missing) {
            try {
                Files.createDirectory(p);
            } catch (FileAlreadyExistsException e) {
                if (!Files.isDirectory(p)) {
                    throw e;
                }
                // Another thread or process created it: force its entry all the same, since
                // that creator may not have done so yet when this caller goes on to publish.
            }
        }
        for (Path p : missing) {
            force.directory(p.getParent());
        }
    }

    /**
     * Forces the entries of directory {@code dir} to the device. Windows cannot open a directory
     * for this (its renames are durable by themselves), so there a failure is ignored; anywhere
     * else it is real and thrown.
     */
    public static void force(Path dir) throws IOException {
        Deferred batch = DEFERRED.get();
        if (batch != null) {
            batch.dirs.add(dir.toAbsolutePath().normalize());
            return;
        }
        forceNow(dir);
    }

    private static void forceNow(Path dir) throws IOException {
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        } catch (IOException e) {
            if (!WINDOWS) {
                throw e;
            }
        }
    }

    /** The directories whose forces this thread's open {@link #deferForces} batch has put off, in first-asked order. */
    private static final ThreadLocal<Deferred> DEFERRED = new ThreadLocal<>();

    private static final class Deferred {
        final Set<Path> dirs = new LinkedHashSet<>();
    }

    /**
     * Puts off this thread's directory forces ({@link #force}; not those {@link #create} makes,
     * which happen at once) until the returned batch closes, then forces each directory asked for once. A writer that
     * publishes several files into one directory before it tells anyone of them (a segment's
     * index and routing heads) forces that directory once rather than once per file; every
     * publication is as durable as before when the batch closes, which must happen before the
     * files are named anywhere durable (a manifest, a returned reference). A batch opened inside
     * another is part of it: the outermost one forces.
     */
    public static Batch deferForces() {
        return deferForces(DurableDirectories::forceNow);
    }

    /** As {@link #deferForces()}, forcing through {@code force}. */
    static Batch deferForces(Force force) {
        if (DEFERRED.get() != null) {
            return new Batch(null, force);
        }
        Deferred d = new Deferred();
        DEFERRED.set(d);
        return new Batch(d, force);
    }

    /** An open {@link #deferForces} batch; closing it forces what it put off. */
    public static final class Batch implements AutoCloseable {
        private final Deferred owned;
        private final Force force;

        private Batch(Deferred owned, Force force) {
            this.owned = owned;
            this.force = force;
        }

        /** Forces each directory put off since the batch opened (nothing, for a batch inside another). */
        @Override
        public void close() throws IOException {
            if (owned == null || DEFERRED.get() != owned) {
                return;
            }
            DEFERRED.remove();
            for (Path dir : owned.dirs) {
                force.directory(dir);
            }
        }
    }
}

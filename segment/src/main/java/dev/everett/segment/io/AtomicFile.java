package dev.everett.segment.io;

import dev.everett.api.DurableDirectories;
import dev.everett.api.TemporaryFiles;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;


/**
 * A file written under a temporary name beside its target and published in one step: force the
 * data, link it in under the target's name, force the directory so the link itself survives a
 * crash. Until {@link #publish()} the target is untouched.
 *
 * <p>Objects are immutable once published: {@link #publish()} never replaces an object of an
 * object store (a file named {@code ROOT/ab/cd/<28 hex>.kv} or {@code .index} under a root
 * holding the store's descriptor, {@value dev.everett.api.ObjectStore#DESCRIPTOR_NAME}), whoever
 * writes it (a store's writer, a merge given {@code nativePath}, an index build). It hard-links
 * the temporary file to the target, which the file system refuses atomically if the name exists
 * (a rename would replace it silently), then removes the temporary name. Of two writers racing
 * for one object exactly one succeeds; the other gets {@link FileAlreadyExistsException} naming
 * the target, and its temporary file is gone. Any other target (a single segment file a host
 * names) is renamed over, as {@link dev.everett.api.SegmentWriter} documents, and so are derived
 * files that may be rebuilt in place (key filters: {@link #publishReplacing()}).
 */
public final class AtomicFile implements AutoCloseable {
    private final Path target;
    private final Path temp;
    private final FileChannel channel;
    private final boolean durable;
    /** {@link #isStoreObject(Path)} of the target, asked once (it costs a file-system call). */
    private final boolean storeObject;
    private boolean published;
    private boolean closed;

    public AtomicFile(Path target) throws IOException {
        this(target, true);
    }

    /**
     * {@code durable = false} skips both forces (data and directory) on publish: for scratch
     * files nobody relies on after a crash, such as the index {@code Catalog.verify()} rebuilds
     * to compare with the file it checks.
     */
    public AtomicFile(Path target, boolean durable) throws IOException {
        this.durable = durable;
        this.target = target.toAbsolutePath();
        this.temp = TemporaryFiles.beside(this.target);
        this.storeObject = isStoreObject(this.target);
        this.channel = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE);
    }

    public FileChannel channel() {
        return channel;
    }

    public Path temp() {
        return temp;
    }

    public Path target() {
        return target;
    }

    /**
     * Forces the data (if durable) and publishes the file: an object of an object store is linked
     * in as the target (the temporary name then removed), any other target renamed over; then
     * forces the directory (if durable).
     *
     * @throws FileAlreadyExistsException if the target is an object store's object and exists (it
     *                                    is left as it was, and the temporary file is deleted)
     */
    public void publish() throws IOException {
        if (!storeObject) {
            publishReplacing();
            return;
        }
        seal();
        try {
            Files.createLink(target, temp);
        } catch (FileAlreadyExistsException e) {
            discard();
            throw new FileAlreadyExistsException(target.toString(), null,
                    "an object is immutable once published: another file already has this name");
        } catch (UnsupportedOperationException e) {
            discard();
            throw new IOException("the file system cannot publish " + target + " without replacing: it has no hard links", e);
        } catch (IOException | RuntimeException e) {
            discard();
            throw e;
        }
        published = true;
        closed = true;
        // One unlink call: Files.delete asks for the file's attributes first, which this
        // temporary file, a regular file this object created, does not need. java.io.File
        // reaches the default file system only; any other (a test's fault-injecting one) deletes
        // as usual.
        if (temp.getFileSystem() != java.nio.file.FileSystems.getDefault() || !temp.toFile().delete()) {
            Files.deleteIfExists(temp); // throws the reason, if there is one
        }
        if (durable) {
            DurableDirectories.force(target.getParent());
        }
    }

    /**
     * As {@link #publish()}, but renames over the target, replacing any file of that name: only
     * for derived files whose old content is worthless (a key filter made for earlier bytes).
     */
    public void publishReplacing() throws IOException {
        seal();
        try {
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            discard();
            throw new IOException("the file system cannot rename atomically: " + target.getParent(), e);
        } catch (IOException | RuntimeException e) {
            discard();
            throw e;
        }
        published = true;
        closed = true;
        if (durable) {
            DurableDirectories.force(target.getParent());
        }
    }

    /** True if the target is an object store's object ({@link #isStoreObject(Path)}, asked when this was made). */
    public boolean storeObject() {
        return storeObject;
    }

    /**
     * True if {@code file} is named as an object of an object store: {@code ab/cd/<28 hex>} with
     * the {@code .kv} or {@code .index} extension, under a root that holds the store's descriptor.
     */
    public static boolean isStoreObject(Path file) {
        Path cd = file.getParent();
        Path ab = cd == null ? null : cd.getParent();
        Path root = ab == null ? null : ab.getParent();
        if (root == null) {
            return false;
        }
        String name = file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        String ext = dot < 0 ? "" : name.substring(dot);
        return (ext.equals(".kv") || ext.equals(".index")) && hex(name.substring(0, dot), 28) && hex(cd.getFileName().toString(), 2)
                && hex(ab.getFileName().toString(), 2) && Files.exists(root.resolve(dev.everett.api.ObjectStore.DESCRIPTOR_NAME));
    }

    private static boolean hex(String s, int length) {
        if (s.length() != length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            char c = s.charAt(i);
            if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
                return false;
            }
        }
        return true;
    }

    /** Forces the data (if durable) and closes the channel; the temporary file keeps its name. */
    private void seal() throws IOException {
        if (closed) {
            throw new IllegalStateException("temporary file of " + target + " was already published or discarded");
        }
        if (durable) {
            channel.force(true);
        }
        channel.close();
    }

    /** A publish failed: nothing of it may stay behind, whether or not the caller closes this. */
    private void discard() throws IOException {
        closed = true;
        Files.deleteIfExists(temp);
    }


    /** Discards the temporary file unless it was published. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            channel.close();
        } finally {
            if (!published) {
                Files.deleteIfExists(temp);
            }
        }
    }
}

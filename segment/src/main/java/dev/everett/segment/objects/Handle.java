package dev.everett.segment.objects;

import dev.everett.api.ObjectId;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * Something an object store hands out (a reader, a chain, a segment, a cursor of one): a view of
 * the store's shared mappings with a life of its own. Closing it ends this handle only (and
 * releases the holds it took on its objects); every later use of it, or any use once its parent
 * or the store is closed, throws {@link IllegalStateException} naming it.
 */
abstract class Handle implements AutoCloseable {
    private final OpenObjects store;
    /** The handle this one was made from (a segment for its native's reader), or null. */
    private final Handle parent;
    /** Objects this handle holds against deletion; released once, on close. */
    private final List<ObjectId> held;
    private volatile boolean closed;

    Handle(OpenObjects store, Handle parent, List<ObjectId> held) {
        this.store = store;
        this.parent = parent;
        this.held = List.copyOf(held);
        store.hold(this.held);
    }

    /** What this handle is, for messages: its kind, its object's identity and the file or store root. */
    abstract String describe();

    /** Throws unless this handle, its parents and the store are open. */
    final void live() {
        if (closed) {
            throw new IllegalStateException(describe() + " is closed");
        }
        if (parent != null) {
            parent.live();
        } else if (store.isClosed()) {
            throw new IllegalStateException(describe() + " was handed out by an object store that is now closed (" + store.root() + ")");
        }
    }

    /** Ends this handle; idempotent, and harmless to every other handle on the same objects. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        try {
            store.release(held);
        } catch (IOException e) {
            throw new UncheckedIOException("deleting an object released by " + describe(), e);
        }
    }
}

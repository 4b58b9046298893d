package dev.everett.segment.objects;

import dev.everett.api.ObjectId;
import dev.everett.api.Policy;
import dev.everett.api.RecordLocation;
import dev.everett.api.SegmentCursor;
import dev.everett.api.SegmentReader;
import dev.everett.api.VerifyReport;
import dev.everett.segment.natives.NativeReader;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;

/**
 * A native as an object store hands it out ({@code openNative}, {@code IndexedSegment.natives()}):
 * a {@link Handle} over the store's one shared {@link NativeReader}. Closing it never unmaps the
 * file that chains and other handles read.
 */
public final class ReaderHandle extends Handle implements SegmentReader {
    private final ObjectId id;
    private final NativeReader reader;

    ReaderHandle(OpenObjects store, Handle parent, ObjectId id, NativeReader reader) {
        super(store, parent, parent == null ? List.of(id) : List.of());
        this.id = id;
        this.reader = reader;
    }

    /** The shared reader behind this handle (for the merge's encoded view), once the handle is checked to be open. */
    public NativeReader nativeReader() {
        live();
        return reader;
    }

    @Override
    String describe() {
        return "reader of native " + id + " (" + reader.path() + ")";
    }

    @Override
    public Path path() {
        return reader.path();
    }

    @Override
    public Policy policy() {
        return reader.policy();
    }

    @Override
    public long recordCount() {
        live();
        return reader.recordCount();
    }

    @Override
    public long commonValueWidth() {
        live();
        return reader.commonValueWidth();
    }

    @Override
    public long fileBytes() {
        live();
        return reader.fileBytes();
    }

    @Override
    public SegmentCursor cursor() {
        live();
        return new Cursor(reader.cursor());
    }

    @Override
    public RecordLocation recordAt(long ordinal) {
        live();
        return reader.recordAt(ordinal);
    }

    @Override
    public VerifyReport verify() {
        live();
        return reader.verify();
    }

    @Override
    public void verifyChecksum() {
        live();
        reader.verifyChecksum();
    }

    @Override
    public String toString() {
        return "ReaderHandle[" + reader.path() + "]";
    }

    /** A cursor that checks, at every step, that its reader is still open (one volatile read). */
    private final class Cursor implements SegmentCursor {
        // Its delegation repeats MappedObjectStore's seek-cursor wrapper on purpose: the two cursor interfaces share no supertype.
        private final SegmentCursor c;

        Cursor(SegmentCursor c) {
            this.c = c;
        }

        @Override
        public boolean next() {
            live();
            return c.next();
        }

        @Override
        public long ordinal() {
            live();
            return c.ordinal();
        }

        @Override
        public int keyLength() {
            live();
            return c.keyLength();
        }

        @Override
        public MemorySegment keyBuffer() {
            live();
            return c.keyBuffer();
        }

        @Override
        public boolean isTombstone() {
            live();
            return c.isTombstone();
        }

        @Override
        public MemorySegment valueSource() {
            live();
            return c.valueSource();
        }

        @Override
        public long valueOffset() {
            live();
            return c.valueOffset();
        }

        @Override
        public long valueLength() {
            live();
            return c.valueLength();
        }

        @Override
        public void close() {
            c.close();
        }
    }
}

package dev.everett.segment;

import dev.everett.api.ObjectId;
import dev.everett.api.Policy;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A memory-mapped IX03 index: one catalog's two borrowed routes (0 = main target, 1 =
 * secondary leaf), each with its front-coded key stream, rank directory, false-borrow bits and
 * cut-LCP words. Opening checks the envelope and the shape of every section; the payload is
 * read only by queries (which check what they touch) and by {@code verify}.
 */
final class IndexReader implements AutoCloseable {
    static final int MAIN = 0;
    static final int SECONDARY = 1;

    private final Path path;
    private final Arena arena;
    private final MemorySegment file;
    private final Envelope envelope;
    private final IndexDirectory directory;
    private final Corruption corruption;
    private final Route[] routes = new Route[2];
    private final long k;
    private final AtomicBoolean closed = new AtomicBoolean();

    /** One borrowed route's sections. */
    record Route(FcStream stream, RankDirectory ranks, long flagsAt, long cutsAt, long count, boolean present) {
    }

    private IndexReader(Path path, Arena arena, MemorySegment file, Envelope envelope) {
        this.path = path;
        this.arena = arena;
        this.file = file;
        this.envelope = envelope;
        this.corruption = new Corruption(path);
        this.directory = IndexDirectory.parse(corruption, file, envelope);
        this.k = envelope.groupSize();
        long body = Envelope.BYTES;
        long groups = IndexDirectory.groups(directory.virtualCount(), k);
        int bits = IndexDirectory.classBits(k);
        for (int r = 0; r < 2; r++) {
            long[] off = directory.offsets();
            int fc = IndexDirectory.fcSlot(r);
            long count = directory.counts()[r];
            long n = Le.ceilDiv(count, envelope.blockWidth()) + 1;
            EliasFanoReader ef = new EliasFanoReader(file, corruption, n, directory.universes()[r], directory.lowWidths()[r],
                    body + off[fc + 1], body + off[fc + 2], body + off[fc + 3], body + off[fc + 4], directory.lengths()[fc + 4]);
            long start = body + off[fc];
            FcStream stream = new FcStream(file, corruption, start, start + directory.extents()[r], ef, count,
                    envelope.blockWidth(), 0, false, directory.terminalLengths()[r], body + 48 + 8L * r);
            RankDirectory ranks = new RankDirectory(file, corruption, body + off[IndexDirectory.classSlot(r)],
                    body + off[IndexDirectory.checkpointSlot(r)], groups, bits, count);
            routes[r] = new Route(stream, ranks, body + off[IndexDirectory.flagSlot(r)], body + off[IndexDirectory.cutSlot(r)],
                    count, directory.present()[r]);
        }
    }

    static IndexReader open(Path path, Policy policy) throws IOException {
        Arena arena = Arena.ofShared();
        try {
            MemorySegment mapped;
            try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
                mapped = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena);
            }
            Envelope env = Envelope.parse(path, mapped);
            Corruption c = new Corruption(path);
            c.require(env.kind() == Envelope.Kind.INDEX, 0, "a native object (EVRT.KV) is not an index");
            String name = path.getFileName() == null ? "" : path.getFileName().toString();
            c.require(!name.endsWith(".kv"), 0, "index object stored under a .kv name");
            env.requirePolicy(path, policy);
            return new IndexReader(path, arena, mapped, env);
        } catch (RuntimeException | IOException | Error e) {
            arena.close();
            throw e;
        }
    }

    Path path() {
        return path;
    }

    MemorySegment file() {
        return file;
    }

    Corruption corruption() {
        return corruption;
    }

    Envelope envelope() {
        return envelope;
    }

    IndexDirectory directory() {
        return directory;
    }

    Route route(int r) {
        return routes[r];
    }

    long virtualCount() {
        return directory.virtualCount();
    }

    long groups() {
        return IndexDirectory.groups(directory.virtualCount(), k);
    }

    long groupSize() {
        return k;
    }

    /** The native count this index describes: V less both borrowed counts. */
    long nativeCount() {
        return directory.virtualCount() - directory.counts()[0] - directory.counts()[1];
    }

    ObjectId nativeId() {
        return directory.nativeId();
    }

    /** True if borrowed key i of route r also occurs among this catalog's own native keys. */
    boolean falseBorrow(int r, long i) {
        byte b = file.get(ValueLayout.JAVA_BYTE, routes[r].flagsAt() + (i >>> 3));
        return ((b >>> (i & 7)) & 1) != 0;
    }

    /** Bit LCP between route r's last borrow before cut g and the occurrence at the cut. */
    long cut(int r, long g) {
        return Le.u64(file, routes[r].cutsAt() + 8 * g);
    }

    long cutOffset(int r, long g) {
        return routes[r].cutsAt() + 8 * g;
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            arena.close();
        }
    }

    @Override
    public String toString() {
        return "IndexReader[" + path + ", V=" + virtualCount() + "]";
    }
}

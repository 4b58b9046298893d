package dev.everett.segment.index;

import dev.everett.api.ObjectId;
import dev.everett.api.Policy;
import dev.everett.segment.bits.EliasFano;
import dev.everett.segment.bits.EliasFanoReader;
import dev.everett.segment.fc.FcStream;
import dev.everett.segment.fc.Framing;
import dev.everett.segment.fc.FullScan;
import dev.everett.segment.io.Corruption;
import dev.everett.segment.io.Envelope;
import dev.everett.segment.io.LittleEndian;
import dev.everett.segment.io.MappedFile;
import dev.everett.segment.io.SmallCopies;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A memory-mapped IX03 index: one catalog's two borrowed routes (0 = main target, 1 =
 * secondary leaf), each with its front-coded key stream, rank directory, false-borrow bits and
 * cut-LCP words. Opening checks the envelope, the body CRC and the shape of every section; the
 * payload is then read by queries (which check what they touch) and by {@code verify}.
 */
public final class IndexReader implements AutoCloseable {
    public static final int MAIN = 0;
    public static final int SECONDARY = 1;

    private final Path path;
    /** Releases {@link #file}'s memory: closes the reader's own arena, or gives back a store's copy. */
    private final Runnable release;
    private final MemorySegment file;
    private final Envelope envelope;
    private final IndexDirectory directory;
    private final Corruption corruption;
    private final Route[] routes = new Route[2];
    private final long k;
    private final AtomicBoolean closed = new AtomicBoolean();

    /** One borrowed route's sections. */
    public record Route(FcStream stream, RankDirectory ranks, long flagsAt, long cutsAt, long count, boolean present) {
    }

    private IndexReader(Path path, Runnable release, MemorySegment file, Envelope envelope, Policy policy) {
        this.path = path;
        this.release = release;
        this.file = file;
        this.envelope = envelope;
        this.corruption = new Corruption(path);
        // Unlike a native, an index is checked against its body CRC when it is opened. Queries
        // trust what they read of the routes (a changed borrowed key, rank class, false-borrow
        // bit or cut word routes a lookup wrongly without breaking any framing rule), so a
        // damaged index could otherwise answer wrongly before verify() sees the damage. Index
        // files are small (about 1.14 bytes per occurrence of their catalog), so one CRC32C pass
        // at open costs little next to mapping the file.
        FullScan.bodyCrc(file, envelope, corruption);
        this.directory = IndexDirectory.parse(corruption, file, envelope);
        this.k = envelope.groupSize();
        long body = Envelope.BYTES;
        long groups = IndexDirectory.groups(directory.virtualCount(), k);
        int bits = IndexDirectory.classBits(k);
        Framing framing = Framing.ofBorrowedKeys(policy);
        for (int r = 0; r < 2; r++) {
            long[] off = directory.offsets();
            int fc = IndexDirectory.fcSlot(r);
            long count = directory.counts()[r];
            long n = LittleEndian.ceilDiv(count, envelope.blockWidth()) + 1;
            EliasFanoReader ef = new EliasFanoReader(file, corruption, n, directory.universes()[r], directory.lowWidths()[r],
                    body + off[fc + 1], body + off[fc + 2], body + off[fc + 3], body + off[fc + 4], directory.lengths()[fc + 4]);
            long start = framing.units().position(body + off[fc]);
            FcStream stream = new FcStream(file, corruption, start, start + directory.extents()[r], ef, count,
                    envelope.blockWidth(), 0, false, directory.terminalLengths()[r], body + IndexDirectory.TERMINAL_LENGTHS + 8L * r, framing);
            RankDirectory ranks = new RankDirectory(file, corruption, body + off[IndexDirectory.classSlot(r)],
                    body + off[IndexDirectory.checkpointSlot(r)], groups, bits, count);
            routes[r] = new Route(stream, ranks, body + off[IndexDirectory.flagSlot(r)], body + off[IndexDirectory.cutSlot(r)],
                    count, directory.present()[r]);
        }
    }

    public static IndexReader open(Path path, Policy policy) throws IOException {
        return open(path, policy, MappedFile.inOwnArena(arena -> MappedFile.readOnly(path, arena)));
    }

    /** As {@link #open(Path, Policy)}, a small file copied into {@code copies} (an object store's, shared by its small files). */
    public static IndexReader open(Path path, Policy policy, SmallCopies copies) throws IOException {
        return open(path, policy, MappedFile.readOnly(path, copies));
    }

    /** Opens the index whose bytes are {@code loaded}; releases them if it fails. */
    private static IndexReader open(Path path, Policy policy, MappedFile.Loaded loaded) {
        try {
            Envelope env = Envelope.parse(path, loaded.bytes());
            env.requireKind(path, Envelope.Kind.INDEX, policy);
            return new IndexReader(path, loaded.release(), loaded.bytes(), env, policy);
        } catch (RuntimeException | Error e) {
            loaded.releaseAfter(e);
            throw e;
        }
    }

    public Path path() {
        return path;
    }

    MemorySegment file() {
        return file;
    }

    /** The index file's size in bytes (its mapping's). */
    public long fileBytes() {
        return file.byteSize();
    }

    public Corruption corruption() {
        return corruption;
    }

    Envelope envelope() {
        return envelope;
    }

    public IndexDirectory directory() {
        return directory;
    }

    public Route route(int r) {
        return routes[r];
    }

    public long virtualCount() {
        return directory.virtualCount();
    }

    public long groups() {
        return IndexDirectory.groups(directory.virtualCount(), k);
    }

    public long groupSize() {
        return k;
    }

    /** The native count this index describes: V less both borrowed counts. */
    public long nativeCount() {
        return directory.virtualCount() - directory.counts()[0] - directory.counts()[1];
    }

    ObjectId nativeId() {
        return directory.nativeId();
    }

    /** True if borrowed key i of route r also occurs among this catalog's own native keys. */
    public boolean falseBorrow(int r, long i) {
        byte b = file.get(ValueLayout.JAVA_BYTE, routes[r].flagsAt() + (i >>> 3));
        return ((b >>> (i & 7)) & 1) != 0;
    }

    /** Bit LCP between route r's last borrow before cut g and the occurrence at the cut. */
    public long cut(int r, long g) {
        return LittleEndian.u64(file, routes[r].cutsAt() + 8 * g);
    }

    public long cutOffset(int r, long g) {
        return routes[r].cutsAt() + 8 * g;
    }

    /**
     * Checks the index file on its own: body CRC, zero gaps, each borrowed stream walked
     * (framing, non-decreasing keys, extent, terminal length) with its Elias–Fano directory
     * rebuilt and compared word for word, every rank class against its group's width, the rank
     * words and checkpoints rebuilt from the classes, route totals, and zero flag padding. What
     * depends on the keys of the native and the targets is checked by {@link Catalog#verify()}.
     *
     * @return the number of borrowed keys walked
     */
    long verify() {
        FullScan.bodyCrc(file, envelope, corruption);
        FullScan.zeroGaps(file, corruption, IndexDirectory.BYTES, directory.offsets(), directory.lengths());
        long body = Envelope.BYTES;
        for (int r = 0; r < 2; r++) {
            Route route = routes[r];
            int fc = IndexDirectory.fcSlot(r);
            route.stream().framing().units().checkPadding(file, corruption, body + directory.offsets()[fc], directory.extents()[r], "route " + r + " key stream");
            EliasFano ef = FullScan.walk(route.stream(), null, null);
            long[] at = new long[4];
            long[] lengths = new long[4];
            for (int i = 0; i < 4; i++) {
                at[i] = body + directory.offsets()[fc + 1 + i];
                lengths[i] = directory.lengths()[fc + 1 + i];
            }
            FullScan.sameEliasFano(file, corruption, ef, directory.universes()[r], body + IndexDirectory.UNIVERSES + 8L * r, directory.lowWidths()[r], body + IndexDirectory.LOW_WIDTHS + r, at, lengths);
        }
        long groups = groups();
        long v = virtualCount();
        IndexBuilder.ClassPacker[] rebuilt = {new IndexBuilder.ClassPacker(IndexDirectory.classBits(k)), new IndexBuilder.ClassPacker(IndexDirectory.classBits(k))};
        for (long g = 0; g < groups; g++) {
            long width = Math.min(k, v - g * k);
            int pop0 = routes[0].ranks().classOf(g);
            int pop1 = routes[1].ranks().classOf(g);
            if (pop0 + pop1 > width) {
                throw corruption.at(body + directory.offsets()[IndexDirectory.classSlot(0)] + (g * IndexDirectory.classBits(k)) / 8,
                        "group " + g + " holds " + (pop0 + pop1) + " borrowed keys but only " + width + " occurrences");
            }
            rebuilt[0].add(pop0);
            rebuilt[1].add(pop1);
        }
        for (int r = 0; r < 2; r++) {
            if (rebuilt[r].total() != routes[r].count()) {
                throw corruption.at(body + IndexDirectory.BORROWED_COUNTS + 8L * r, "route " + r + " classes add up to " + rebuilt[r].total() + " but it holds " + routes[r].count() + " keys");
            }
            FullScan.sameWords(file, corruption, body + directory.offsets()[IndexDirectory.classSlot(r)], directory.lengths()[IndexDirectory.classSlot(r)],
                    rebuilt[r].words(), "route " + r + " rank class word");
            FullScan.sameWords(file, corruption, body + directory.offsets()[IndexDirectory.checkpointSlot(r)], directory.lengths()[IndexDirectory.checkpointSlot(r)],
                    rebuilt[r].checkpoints(), "route " + r + " rank checkpoint");
            long count = routes[r].count();
            if ((count & 7) != 0) {
                long last = routes[r].flagsAt() + (count >>> 3);
                int pad = (file.get(ValueLayout.JAVA_BYTE, last) & 0xFF) >>> (count & 7);
                if (pad != 0) {
                    throw corruption.at(last, "route " + r + " false-borrow padding bits must be 0");
                }
            }
        }
        return routes[0].count() + routes[1].count();
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            release.run();
        }
    }

    @Override
    public String toString() {
        return "IndexReader[" + path + ", V=" + virtualCount() + "]";
    }
}

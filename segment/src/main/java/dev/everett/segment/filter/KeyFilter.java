package dev.everett.segment.filter;

import dev.everett.api.FilterPolicy;
import dev.everett.api.ObjectId;
import dev.everett.api.SegmentCursor;
import dev.everett.segment.io.AtomicFile;
import dev.everett.segment.io.Corruption;
import dev.everett.segment.io.Envelope;
import dev.everett.segment.io.MappedFile;
import dev.everett.segment.io.SmallCopies;
import dev.everett.segment.natives.NativeReader;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.zip.CRC32C;

/**
 * A blocked Bloom filter over the keys of one native segment, in its sidecar file
 * {@code <native identity>.filter} (layout: docs/format.md, "Key filters"). Every key's probes
 * fall in one 64-byte block, so a query touches one cache line per filter.
 *
 * <p>Opening checks the whole file: its shape against the native it names (identity, file bytes,
 * record count) and its CRC32C, so a damaged filter is refused before it can hide a key.
 * {@link #verify} rebuilds it from the native's keys and compares every word.
 */
public final class KeyFilter implements AutoCloseable {
    static final int HEADER = 64;
    static final int BLOCK_BYTES = 64;
    private static final int BLOCK_WORDS = BLOCK_BYTES / 8;
    /** "EVJ.KF1\0": this project's key filter, version 1 (not an Everett object). */
    static final long MAGIC = 0x0031464B2E4A5645L;
    /** Odd multiplier that draws each probe's 9-bit position from the top of the product. */
    private static final long PROBE_STEP = 0xD6E8FEB86659FD93L;
    static final int MAX_PROBES = 16;
    private static final ValueLayout.OfLong LONG_LE = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt INT_LE = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** Releases {@link #file}'s memory: closes the filter's own arena, or gives back a store's copy. */
    private final Runnable release;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final MemorySegment file;
    private final Corruption corruption;
    private final int probes;
    private final long blocks;

    private KeyFilter(Runnable release, MemorySegment file, Corruption corruption, int probes, long blocks) {
        this.release = release;
        this.file = file;
        this.corruption = corruption;
        this.probes = probes;
        this.blocks = blocks;
    }

    /** Probes per key for {@code bitsPerKey}: about 0.62 × bits per key, near the optimum for 512-bit blocks. */
    static int probesFor(int bitsPerKey) {
        return Math.max(1, Math.min(MAX_PROBES, Math.round(bitsPerKey * 0.62f)));
    }

    /** Blocks for {@code keys} records at {@code bitsPerKey}: enough 512-bit blocks for the bits, at least one. */
    static long blocksFor(long keys, int bitsPerKey) {
        long bits = Math.multiplyExact(keys, (long) bitsPerKey);
        return Math.max(1, (bits + BLOCK_BYTES * 8 - 1) / (BLOCK_BYTES * 8));
    }

    /** True if a key of hash {@code h} may be in the native; false means it is certainly not. */
    public boolean mayContain(long h) {
        long base = HEADER + Math.unsignedMultiplyHigh(h, blocks) * BLOCK_BYTES;
        long x = h * PROBE_STEP;
        for (int i = 0; i < probes; i++) {
            int pos = (int) (x >>> 55);
            if ((file.get(LONG_LE, base + ((pos >>> 6) << 3)) & (1L << pos)) == 0) {
                return false;
            }
            x *= PROBE_STEP;
        }
        return true;
    }

    /** The filter file's size in bytes (its mapping's). */
    public long fileBytes() {
        return file.byteSize();
    }

    /** The filter words of {@code natives}' keys, {@code blocks} blocks of {@code probes} probes per key. */
    private static long[] words(NativeReader natives, long blocks, int probes) {
        long[] words = new long[Math.toIntExact(Math.multiplyExact(blocks, (long) BLOCK_WORDS))];
        try (SegmentCursor c = natives.cursor()) {
            while (c.next()) {
                add(words, KeyHash.of(c.keyBuffer(), 0, c.keyLength()), blocks, probes);
            }
        }
        return words;
    }

    /** The filter words of the keys of hashes {@code hashes}. */
    private static long[] words(long[] hashes, long blocks, int probes) {
        long[] words = new long[Math.toIntExact(Math.multiplyExact(blocks, (long) BLOCK_WORDS))];
        for (long h : hashes) {
            add(words, h, blocks, probes);
        }
        return words;
    }

    /** Sets the probes of a key of hash {@code h}: the bits {@link #mayContain} tests. */
    private static void add(long[] words, long h, long blocks, int probes) {
        int base = (int) Math.unsignedMultiplyHigh(h, blocks) * BLOCK_WORDS;
        long x = h * PROBE_STEP;
        for (int i = 0; i < probes; i++) {
            int pos = (int) (x >>> 55);
            words[base + (pos >>> 6)] |= 1L << pos;
            x *= PROBE_STEP;
        }
    }

    /**
     * Writes the filter of native {@code nativeId} ({@code natives}) under {@code policy} to
     * {@code target}: temporary file, forced, renamed over the target, directory forced.
     */
    public static void write(Path target, ObjectId nativeId, NativeReader natives, FilterPolicy policy) throws IOException {
        write(target, nativeId, natives, policy, null);
    }

    /**
     * As {@link #write(Path, ObjectId, NativeReader, FilterPolicy)}, from the {@link KeyHash}es of
     * the native's keys in record order, as its writer kept them (null: walk the native). The
     * file is the same either way.
     *
     * @throws IllegalArgumentException if {@code hashes} are not one per record
     */
    public static void write(Path target, ObjectId nativeId, NativeReader natives, FilterPolicy policy, long[] hashes) throws IOException {
        int bitsPerKey = policy.bitsPerKey();
        if (bitsPerKey == 0) {
            throw new IllegalArgumentException("no filter to write under FilterPolicy.none()");
        }
        if (hashes != null && hashes.length != natives.recordCount()) {
            throw new IllegalArgumentException(hashes.length + " key hashes for the " + natives.recordCount() + " records of " + natives.path());
        }
        int probes = probesFor(bitsPerKey);
        long blocks = blocksFor(natives.recordCount(), bitsPerKey);
        long[] words = hashes != null ? words(hashes, blocks, probes) : words(natives, blocks, probes);
        ByteBuffer header = header(probes, bitsPerKey, natives.recordCount(), blocks, nativeId, natives);
        // The body goes out in chunks after the header's place, its CRC taken chunk by chunk (one
        // buffer of the whole body would overflow an int for natives of a billion keys and more);
        // the header, which holds the CRC, is written last at position 0.
        ByteBuffer chunk = ByteBuffer.allocate(CHUNK_WORDS * 8).order(ByteOrder.LITTLE_ENDIAN);
        CRC32C crc = new CRC32C();
        crc.update(header.array(), 0, 60);
        try (AtomicFile out = new AtomicFile(target)) {
            FileChannel ch = out.channel();
            long at = HEADER;
            for (int from = 0; from < words.length; from += CHUNK_WORDS) {
                int n = Math.min(CHUNK_WORDS, words.length - from);
                chunk.clear();
                chunk.asLongBuffer().put(words, from, n);
                crc.update(chunk.array(), 0, n * 8);
                at += writeFully(ch, chunk, n * 8, at);
            }
            header.putInt(60, (int) crc.getValue());
            writeFully(ch, header, HEADER, 0);
            out.publishReplacing();
        }
    }

    /** Words per write and per CRC update when a filter is written. */
    private static final int CHUNK_WORDS = 1 << 14;

    /** The native's header CRC32C: it covers the native's body CRC, so it names the native's exact bytes. */
    public static int nativeCrc(NativeReader natives) {
        return natives.file().get(INT_LE, Envelope.HEADER_CRC_OFFSET);
    }

    private static ByteBuffer header(int probes, int bitsPerKey, long keys, long blocks, ObjectId nativeId, NativeReader natives) {
        ByteBuffer h = ByteBuffer.allocate(HEADER).order(ByteOrder.LITTLE_ENDIAN);
        h.putLong(0, MAGIC);
        h.putInt(8, probes);
        h.putInt(12, bitsPerKey);
        h.putLong(16, keys);
        h.putLong(24, blocks);
        byte[] id = new byte[16];
        nativeId.toBytes(id, 0);
        h.put(32, id);
        h.putLong(48, natives.fileBytes());
        h.putInt(56, nativeCrc(natives));
        return h;
    }

    /** Writes the first {@code n} bytes of {@code b} at {@code position}; returns {@code n}. */
    private static int writeFully(FileChannel ch, ByteBuffer b, int n, long position) throws IOException {
        b.clear().limit(n);
        while (b.hasRemaining()) {
            ch.write(b, position + b.position());
        }
        return n;
    }

    /**
     * Maps and checks the filter at {@code path} of native {@code nativeId} ({@code natives}).
     *
     * @throws dev.everett.api.CorruptSegmentException naming the filter file, the offset and the rule broken
     */
    public static KeyFilter open(Path path, ObjectId nativeId, NativeReader natives) throws IOException {
        return open(path, nativeId, natives, MappedFile.inOwnArena(arena -> MappedFile.readOnly(path, arena)));
    }

    /** As {@link #open(Path, ObjectId, NativeReader)}, a small filter copied into {@code copies} (an object store's, shared by its small files). */
    public static KeyFilter open(Path path, ObjectId nativeId, NativeReader natives, SmallCopies copies) throws IOException {
        return open(path, nativeId, natives, MappedFile.readOnly(path, copies));
    }

    /** Checks the filter whose bytes are {@code loaded}; releases them if it fails. */
    private static KeyFilter open(Path path, ObjectId nativeId, NativeReader natives, MappedFile.Loaded loaded) {
        try {
            MemorySegment f = loaded.bytes();
            Corruption c = new Corruption(path);
            long size = f.byteSize();
            c.require(size >= HEADER, size, () -> "a key filter has a " + HEADER + "-byte header, the file has " + size + " bytes");
            c.require(f.get(LONG_LE, 0) == MAGIC, 0, "key filter magic \"EVJ.KF1\\0\"");
            int probes = f.get(INT_LE, 8);
            c.require(probes >= 1 && probes <= MAX_PROBES, 8, () -> "probes per key in 1.." + MAX_PROBES + ", found " + probes);
            int bitsPerKey = f.get(INT_LE, 12);
            c.require(bitsPerKey >= 1 && bitsPerKey <= FilterPolicy.MAX_BITS_PER_KEY, 12,
                    () -> "bits per key in 1.." + FilterPolicy.MAX_BITS_PER_KEY + ", found " + bitsPerKey);
            long keys = f.get(LONG_LE, 16);
            c.require(keys == natives.recordCount(), 16, () -> "key count " + keys + " equals the native's record count " + natives.recordCount());
            long blocks = f.get(LONG_LE, 24);
            long expected = blocksFor(keys, bitsPerKey);
            c.require(blocks == expected, 24, () -> "block count " + blocks + " equals ceil(keys × bits per key / 512) = " + expected);
            c.require(size == HEADER + blocks * BLOCK_BYTES, size,
                    () -> "file bytes equal the header plus " + blocks + " blocks of " + BLOCK_BYTES + " (" + (HEADER + blocks * BLOCK_BYTES) + "), found " + size);
            byte[] id = f.asSlice(32, 16).toArray(ValueLayout.JAVA_BYTE);
            ObjectId named = ObjectId.fromBytes(id, 0);
            c.require(named.equals(nativeId), 32, () -> "filter names native " + named + ", not " + nativeId);
            long nativeBytes = f.get(LONG_LE, 48);
            c.require(nativeBytes == natives.fileBytes(), 48, () -> "native file bytes " + nativeBytes + " equal the native's " + natives.fileBytes());
            int crc = f.get(INT_LE, 56);
            c.require(crc == nativeCrc(natives), 56, () -> "native header CRC32C " + Integer.toHexString(crc)
                    + " equals the native's " + Integer.toHexString(nativeCrc(natives)));
            c.require(checksumHolds(f), 60, "CRC32C of the filter");
            return new KeyFilter(loaded.release(), f, c, probes, blocks);
        } catch (RuntimeException | Error e) {
            loaded.releaseAfter(e);
            throw e;
        }
    }

    /** True if the file's CRC32C (bytes 0–59, then every block) is the one it records; false if it is too short to hold one. */
    private static boolean checksumHolds(MemorySegment f) {
        if (f.byteSize() < HEADER) {
            return false;
        }
        CRC32C crc = new CRC32C();
        crc.update(f.asSlice(0, 60).asByteBuffer());
        // Slices of at most 1 GiB: a ByteBuffer view holds at most 2 GiB.
        for (long at = HEADER; at < f.byteSize(); at += 1L << 30) {
            crc.update(f.asSlice(at, Math.min(1L << 30, f.byteSize() - at)).asByteBuffer());
        }
        return (int) crc.getValue() == f.get(INT_LE, 60);
    }

    /**
     * True if {@code path} holds an intact filter (its own checksum holds) made for other bytes
     * than {@code natives} now has under the same identity, as after a native is published again
     * over the same name: such a filter is out of date, not damaged, and is rebuilt. A damaged
     * file is not stale: {@link #open} refuses it.
     */
    public static boolean stale(Path path, NativeReader natives) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment f = MappedFile.readOnly(path, arena);
            if (!checksumHolds(f) || f.get(LONG_LE, 0) != MAGIC) {
                return false;
            }
            return f.get(LONG_LE, 16) != natives.recordCount() || f.get(LONG_LE, 48) != natives.fileBytes()
                    || f.get(INT_LE, 56) != nativeCrc(natives);
        }
    }

    /** Rebuilds the filter from {@code natives}' keys and compares it word by word. */
    public void verify(NativeReader natives) {
        long[] words = words(natives, blocks, probes);
        for (int i = 0; i < words.length; i++) {
            long at = HEADER + 8L * i;
            if (file.get(LONG_LE, at) != words[i]) {
                throw corruption.at(at, "filter word disagrees with the native's keys");
            }
        }
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            release.run();
        }
    }
}

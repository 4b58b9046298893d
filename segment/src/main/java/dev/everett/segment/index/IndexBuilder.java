package dev.everett.segment.index;

import dev.everett.api.ObjectId;
import dev.everett.api.Policy;
import dev.everett.segment.fc.Framing;
import dev.everett.segment.fc.StreamUnits;
import dev.everett.segment.bits.EliasFano;
import dev.everett.segment.fc.KeySamples;
import dev.everett.segment.fc.KeySource;
import dev.everett.segment.io.AtomicFile;
import dev.everett.segment.io.Envelope;
import dev.everett.segment.io.FileOutput;
import dev.everett.segment.io.LittleEndian;
import dev.everett.segment.io.LongList;
import dev.everett.segment.io.Sealer;
import dev.everett.segment.natives.NativeReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Builds the IX03 index of one catalog: its native stream, optionally a main target (a catalog
 * whose virtual order is sampled at positions 0, K, 2K, …) and optionally a secondary leaf (a
 * native whose records 0, K, 2K, … are sampled). It walks the three sources in merged order
 * once, streaming both borrowed key streams and the cut-LCP words to spill files, so memory
 * holds only per-group classes, per-borrow flag bits and one residual per block.
 */
public final class IndexBuilder {
    private final Policy policy;
    private final long k;
    /** The keys' unit: logical bit strings with lengths in bits, or bytes. */
    private final StreamUnits units;

    /** Whether {@link #build} forces the file it publishes (see {@link #scratch()}). */
    private boolean durable = true;

    public IndexBuilder(Policy policy) {
        this.policy = policy;
        this.k = policy.groupSize();
        this.units = Framing.ofBorrowedKeys(policy).units();
    }

    /**
     * Builds without forcing the file to disk: for a rebuild that is compared and deleted
     * ({@link Catalog#verify()}), where a forced write per catalog would dominate the check.
     */
    IndexBuilder scratch() {
        durable = false;
        return this;
    }

    /** What a built index describes. */
    record Built(Path path, long virtualCount, long mainCount, long secondaryCount) {
    }

    /** Every K-th key of {@code all}: positions 0, K, 2K, …. */
    private KeySource everyKth(KeySource all) {
        return new KeySource() {
            boolean started;

            public boolean next() {
                long steps = started ? k : 1;
                started = true;
                for (long i = 0; i < steps; i++) {
                    if (!all.next()) {
                        return false;
                    }
                }
                return true;
            }

            public byte[] keyBuffer() {
                return all.keyBuffer();
            }

            public long keyUnits() {
                return all.keyUnits();
            }
        };
    }

    /**
     * Writes the index of {@code natives} (identity {@code nativeId}) to {@code target}.
     *
     * @param main      the main target, or null
     * @param secondary the secondary leaf, or null
     */
    public Built build(Path target, ObjectId nativeId, NativeReader natives, Catalog main, ObjectId secondaryId, NativeReader secondary) throws IOException {
        return build(target, nativeId, natives, main, null, secondaryId, secondary);
    }

    /**
     * As {@link #build(Path, ObjectId, NativeReader, Catalog, ObjectId, NativeReader)}, with the
     * main target's occurrences 0, K, 2K, … given by {@code mainSamples} (if not null) instead of
     * walked: the keys a terminal main's writer kept ({@link KeySamples}). The index is the same.
     */
    public Built build(Path target, ObjectId nativeId, NativeReader natives, Catalog main, KeySource mainSamples,
                       ObjectId secondaryId, NativeReader secondary) throws IOException {
        Path dir = target.toAbsolutePath().getParent();
        int bits = IndexDirectory.classBits(k);
        try (AtomicFile out = new AtomicFile(target, durable);
             Spill fc0 = new Spill(dir); Spill fc1 = new Spill(dir); Spill cuts0 = new Spill(dir); Spill cuts1 = new Spill(dir)) {
            KeyStreamEncoder[] streams = {KeyStreamEncoder.of(fc0.out(), policy), KeyStreamEncoder.of(fc1.out(), policy)};
            Spill[] cuts = {cuts0, cuts1};
            ClassPacker[] classes = {new ClassPacker(bits), new ClassPacker(bits)};
            BitVector[] flags = {new BitVector(), new BitVector()};
            long v;
            if (main == null && secondary == null) {
                // A terminal index reads no keys: every class and cut word is 0.
                v = natives.recordCount();
                long groups = IndexDirectory.groups(v, k);
                for (int r = 0; r < 2; r++) {
                    for (long g = 0; g < groups; g++) {
                        classes[r].add(0);
                        cuts[r].out().write(ZERO_WORD, 0, 8);
                    }
                }
            } else {
                KeySource[] sources = {
                        natives.typed().stream().keys(),
                        main == null ? null : mainSamples != null ? mainSamples : everyKth(new AugmentedKeys(main)),
                        secondary == null ? null : everyKth(secondary.typed().stream().keys())};
                v = merge(sources, streams, cuts, classes, flags);
            }
            return write(out, target, nativeId, main, secondaryId, secondary, v, streams, new Spill[] {fc0, fc1}, cuts, classes, flags);
        }
    }

    private static final byte[] ZERO_WORD = new byte[8];

    /** One pass over the three sources in virtual order. */
    private long merge(KeySource[] sources, KeyStreamEncoder[] streams, Spill[] cuts, ClassPacker[] classes, BitVector[] flags) throws IOException {
        boolean[] live = new boolean[3];
        for (int i = 0; i < 3; i++) {
            live[i] = sources[i] != null && sources[i].next();
        }
        byte[] previous = new byte[64];
        long previousLength = 0;
        long count = 0;
        long width = 0;
        boolean nativeEqual = false;
        long[] borrowed = new long[2];
        long[] cutCommon = new long[2];
        int[] pop = new int[2];
        byte[] word = new byte[8];
        while (true) {
            int origin = -1;
            for (int i = 0; i < 3; i++) {
                if (live[i] && (origin < 0 || compare(sources[i].keyBuffer(), sources[i].keyUnits(), sources[origin].keyBuffer(), sources[origin].keyUnits()) < 0)) {
                    origin = i;
                }
            }
            if (origin < 0) {
                break;
            }
            byte[] key = sources[origin].keyBuffer();
            long length = sources[origin].keyUnits();
            boolean equal = false;
            long lcp = 0;
            if (count > 0) {
                int cmp = compare(previous, previousLength, key, length);
                if (cmp > 0) {
                    throw new IllegalStateException("index sources are out of order at occurrence " + count);
                }
                equal = cmp == 0;
                if (equal && origin == 0) {
                    throw new IllegalStateException("duplicate native key at occurrence " + count);
                }
                lcp = units.commonPrefixBits(previous, previousLength, key, length);
            }
            for (int r = 0; r < 2; r++) {
                if (borrowed[r] > 0) {
                    cutCommon[r] = Math.min(cutCommon[r], lcp);
                }
            }
            if (width == 0) {
                for (int r = 0; r < 2; r++) {
                    LittleEndian.putU64(word, 0, borrowed[r] > 0 ? cutCommon[r] : 0);
                    cuts[r].out().write(word, 0, 8);
                }
            }
            nativeEqual = origin == 0 || (equal && nativeEqual);
            if (origin > 0) {
                int r = origin - 1;
                streams[r].append(key, length);
                flags[r].add(nativeEqual);
                borrowed[r]++;
                pop[r]++;
                cutCommon[r] = units.bits(length);
            }
            int bytes = units.arrayBytes(length);
            if (previous.length < bytes) {
                previous = Arrays.copyOf(previous, Math.max(bytes, 2 * previous.length));
            }
            System.arraycopy(key, 0, previous, 0, bytes);
            previousLength = length;
            live[origin] = sources[origin].next();
            count++;
            width++;
            if (width == k) {
                for (int r = 0; r < 2; r++) {
                    classes[r].add(pop[r]);
                    pop[r] = 0;
                }
                width = 0;
            }
        }
        if (width > 0) {
            for (int r = 0; r < 2; r++) {
                classes[r].add(pop[r]);
            }
        }
        return count;
    }

    /** Key order in the policy's unit (bit strings' unused tail bits are zero). */
    private int compare(byte[] a, long aLength, byte[] b, long bLength) {
        return units.compare(a, aLength, b, bLength);
    }

    private Built write(AtomicFile out, Path target, ObjectId nativeId, Catalog main, ObjectId secondaryId, NativeReader secondary,
                        long v, KeyStreamEncoder[] streams, Spill[] fc, Spill[] cuts, ClassPacker[] classes, BitVector[] flags) throws IOException {
        long body = Envelope.BYTES;
        long sectionsStart = body + IndexDirectory.BYTES;
        FileOutput o = new FileOutput(out.channel(), sectionsStart);
        long[] offsets = new long[IndexDirectory.SECTIONS];
        long[] lengths = new long[IndexDirectory.SECTIONS];
        EliasFano[] ef = new EliasFano[2];
        int slot = 0;
        for (int r = 0; r < 2; r++) {
            streams[r].finish();
            ef[r] = streams[r].directory();
            Spill payload = fc[r];
            slot = section(o, offsets, lengths, slot, () -> payload.copyTo(o));
            long[][] words = {ef[r].low(), ef[r].high(), ef[r].samples(), ef[r].sparse()};
            for (long[] w : words) {
                slot = section(o, offsets, lengths, slot, () -> o.write(w));
            }
        }
        for (int r = 0; r < 2; r++) {
            ClassPacker p = classes[r];
            slot = section(o, offsets, lengths, slot, () -> o.write(p.words()));
            slot = section(o, offsets, lengths, slot, () -> o.write(p.checkpoints()));
        }
        for (int r = 0; r < 2; r++) {
            BitVector f = flags[r];
            slot = section(o, offsets, lengths, slot, () -> f.writeTo(o));
        }
        for (int r = 0; r < 2; r++) {
            Spill c = cuts[r];
            slot = section(o, offsets, lengths, slot, () -> c.copyTo(o));
        }
        long[] counts = {streams[0].count(), streams[1].count()};
        long[] extents = {streams[0].extent(), streams[1].extent()};
        long[] terminals = {streams[0].terminalLength(), streams[1].terminalLength()};
        long[] universes = {ef[0].universe(), ef[1].universe()};
        int[] lows = {ef[0].lowWidth(), ef[1].lowWidth()};
        boolean[] present = {main != null, secondary != null};
        IndexDirectory d = new IndexDirectory(v, counts, extents, terminals, universes, lows, present, nativeId,
                main == null ? ObjectId.NONE : main.nativeId, main == null ? ObjectId.NONE : main.indexId,
                secondary == null ? ObjectId.NONE : secondaryId, offsets, lengths);
        byte[] directory = d.encode();
        FileOutput head = new FileOutput(out.channel(), body);
        head.write(directory, 0, IndexDirectory.BYTES);
        head.flush();
        Sealer.BodyCrc crc = Sealer.BodyCrc.of(directory, o, sectionsStart);
        if (crc.length() != d.bodyBytes()) {
            throw new IllegalStateException("wrote " + crc.length() + " index body bytes, directory says " + d.bodyBytes());
        }
        Sealer.seal(out, Envelope.Kind.INDEX, policy, 0, counts[0] + counts[1], crc);
        return new Built(out.target(), v, counts[0], counts[1]);
    }

    private interface SectionBody {
        void write() throws IOException;
    }

    /** Pads to the next 8-byte boundary, writes one section and records its place. */
    private static int section(FileOutput o, long[] offsets, long[] lengths, int slot, SectionBody content) throws IOException {
        long at = o.position();
        o.zeros(LittleEndian.align8(at) - at);
        long start = o.position();
        content.write();
        offsets[slot] = start - Envelope.BYTES;
        lengths[slot] = o.position() - start;
        return slot + 1;
    }

    /** Rank classes packed b bits each, LSB-first, with a checkpoint every 128 groups. */
    static final class ClassPacker {
        private final int bits;
        private final LongList words = new LongList();
        private final LongList checkpoints = new LongList();
        private long groups;
        private long total;

        ClassPacker(int bits) {
            this.bits = bits;
        }

        void add(long value) {
            if (groups % 128 == 0) {
                checkpoints.add(total);
            }
            long bit = groups * bits;
            int word = (int) (bit >>> 6);
            int shift = (int) (bit & 63);
            while (words.size() <= word + 1) {
                words.add(0);
            }
            words.array()[word] |= value << shift;
            if (shift + bits > 64) {
                words.array()[word + 1] |= value >>> (64 - shift);
            }
            total += value;
            groups++;
        }

        long[] words() {
            return Arrays.copyOf(words.array(), (int) LittleEndian.ceilDiv(groups * bits, 64));
        }

        long[] checkpoints() {
            return Arrays.copyOf(checkpoints.array(), checkpoints.size());
        }

        long total() {
            return total;
        }
    }

    /** False-borrow bits, LSB-first within each byte. */
    static final class BitVector {
        private byte[] bytes = new byte[16];
        private long size;

        void add(boolean bit) {
            int at = (int) (size >>> 3);
            if (at >= bytes.length) {
                bytes = Arrays.copyOf(bytes, bytes.length * 2);
            }
            if (bit) {
                bytes[at] |= (byte) (1 << (size & 7));
            }
            size++;
        }

        void writeTo(FileOutput o) throws IOException {
            o.write(bytes, 0, (int) LittleEndian.ceilDiv(size, 8));
        }
    }
}

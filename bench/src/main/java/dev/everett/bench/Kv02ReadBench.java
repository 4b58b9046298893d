package dev.everett.bench;

import dev.everett.api.RecordLocation;
import dev.everett.api.SegmentCursor;
import dev.everett.api.SegmentEngine;
import dev.everett.api.SegmentInfo;
import dev.everett.api.SegmentReader;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.rocksdb.EnvOptions;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDBException;
import org.rocksdb.SstFileReader;
import org.rocksdb.SstFileReaderIterator;

/**
 * Reading the 1M-record data set: full sequential walks (scores in ns/record through
 * {@code @OperationsPerInvocation(1_000_000)}) and single random accesses (ns/lookup).
 *
 * <p>Every walk consumes each record the same way on both sides: the key's first and last byte,
 * the key length, the value's first and last byte and the value length are folded into a checksum
 * that the benchmark returns (so JMH's blackhole consumes it), and the record count is checked.
 * Everett's cursor exposes the key in a reused buffer and the value in place in the mapping;
 * RocksJava either allocates a {@code byte[]} per key and per value ({@code key()}/{@code value()})
 * or copies into caller-supplied direct buffers ({@code key(ByteBuffer)}/{@code value(ByteBuffer)},
 * its cheapest path, the fair comparison).
 *
 * <p>Both files are written once per fork in the trial set-up, in the same directory, so both are
 * in the page cache (a warm-cache measurement).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 5, jvmArgsAppend = {"-Xms4g", "-Xmx4g", "--enable-native-access=ALL-UNNAMED"})
@Warmup(iterations = 4, time = 2)
@Measurement(iterations = 5, time = 2)
public class Kv02ReadBench {
    /** Random ordinals per table; cycled. */
    private static final int LOOKUPS = 1 << 16;

    /** Where to write the files: a directory, or "auto" for /dev/shm (else java.io.tmpdir). */
    @Param({"auto"})
    public String dir;

    private Path work;
    private SegmentReader everett;
    private Options options;
    private SstFileReader sst;
    private ReadOptions readOptions;
    private SstFileReaderIterator seekIterator;
    private ByteBuffer keyBuffer;
    private ByteBuffer valueBuffer;
    private ByteBuffer seekKey;

    private int[] randomOrdinals;
    private int[] blockStartOrdinals;
    private int next;

    @Setup(Level.Trial)
    public void setUp() throws IOException, RocksDBException {
        SegmentEngine engine = SegmentEngine.load();
        work = Kv02Data.workDir(dir, "everett-bench-read-");
        Path kv02 = work.resolve("data.kv02");
        Path sstPath = work.resolve("data.sst");
        SegmentInfo info = Kv02Data.writeEverett(engine, kv02, Kv02Data.policy(), Kv02Data.widthRule());
        options = Kv02Data.rocksOptions();
        long sstBytes;
        try (EnvOptions env = new EnvOptions()) {
            sstBytes = Kv02Data.writeSstArrays(env, options, sstPath);
        }
        System.out.printf("%n[sizes] KV02 %d bytes, SST %d bytes, ratio %.4f (dir %s)%n",
                info.fileBytes(), sstBytes, (double) info.fileBytes() / sstBytes, work);

        everett = Kv02Data.openEverett(engine, kv02);
        if (everett.recordCount() != Kv02Data.RECORDS) {
            throw new IllegalStateException("KV02 file has " + everett.recordCount() + " records");
        }
        sst = new SstFileReader(options);
        sst.open(sstPath.toString());
        readOptions = new ReadOptions();
        seekIterator = sst.newIterator(readOptions);
        keyBuffer = ByteBuffer.allocateDirect(64);
        valueBuffer = ByteBuffer.allocateDirect(64);
        seekKey = ByteBuffer.allocateDirect(Kv02Data.KEY_BYTES);

        int w = everett.policy().blockWidth();
        int blocks = (Kv02Data.RECORDS + w - 1) / w;
        SplittableRandom random = new SplittableRandom(0x5EED_0002L);
        randomOrdinals = new int[LOOKUPS];
        blockStartOrdinals = new int[LOOKUPS];
        for (int i = 0; i < LOOKUPS; i++) {
            randomOrdinals[i] = random.nextInt(Kv02Data.RECORDS);
            blockStartOrdinals[i] = random.nextInt(blocks) * w;
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        seekIterator.close();
        readOptions.close();
        sst.close();
        options.close();
        everett.close();
        Kv02Data.deleteTree(work);
    }

    private static void checkCount(long n) {
        if (n != Kv02Data.RECORDS) {
            throw new IllegalStateException("walked " + n + " records, expected " + Kv02Data.RECORDS);
        }
    }

    /** Everett cursor: key from the reused key buffer, value read in place from the mapping. */
    @Benchmark
    @OperationsPerInvocation(Kv02Data.RECORDS)
    public long everettWalk() {
        return walk(everett);
    }

    /**
     * The same data written in a bit profile ({@link Kv02Data#bitPolicy}), opened typed: KV03
     * (Everett's string policy) or KV02 with bit units. Written once per fork in the trial
     * set-up, beside the KV02 file and the SST, so it is in the page cache as they are.
     */
    @State(Scope.Benchmark)
    public static class BitFile {
        /** kv03: {@code Policy.stringPolicy()}; kv02bit: the same policy writing KV02. */
        @Param({"kv03", "kv02bit"})
        public String profile;

        SegmentReader reader;

        @Setup(Level.Trial)
        public void setUp(Kv02ReadBench bench) throws IOException {
            var policy = Kv02Data.bitPolicy(profile);
            Path file = bench.work.resolve("data." + profile);
            SegmentEngine engine = SegmentEngine.load();
            SegmentInfo info = Kv02Data.writeEverett(engine, file, policy, Kv02Data.widthRule());
            System.out.printf("%n[sizes] %s %d bytes%n", profile, info.fileBytes());
            reader = Kv02Data.openEverett(engine, file, policy);
            if (reader.recordCount() != Kv02Data.RECORDS) {
                throw new IllegalStateException(profile + " file has " + reader.recordCount() + " records");
            }
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            reader.close();
        }
    }

    /** {@link #everettWalk} over the bit-profile file: the cursor rebuilds each key from its bits. */
    @Benchmark
    @OperationsPerInvocation(Kv02Data.RECORDS)
    public long bitWalk(BitFile f) {
        return walk(f.reader);
    }

    /**
     * Per record: the key's first and last byte and length from the key buffer, the value's first
     * and last byte and length in place (for a bit-unit value off a byte boundary, from the
     * cursor's reused copy).
     */
    private static long walk(SegmentReader reader) {
        long acc = 0;
        long n = 0;
        try (SegmentCursor c = reader.cursor()) {
            while (c.next()) {
                MemorySegment k = c.keyBuffer();
                int kl = c.keyLength();
                MemorySegment vs = c.valueSource();
                long vo = c.valueOffset();
                long vl = c.valueLength();
                acc += k.get(ValueLayout.JAVA_BYTE, 0) + 31L * k.get(ValueLayout.JAVA_BYTE, kl - 1) + kl
                        + 17L * vs.get(ValueLayout.JAVA_BYTE, vo) + 7L * vs.get(ValueLayout.JAVA_BYTE, vo + vl - 1) + vl;
                n++;
            }
        }
        checkCount(n);
        return acc;
    }

    /** RocksDB SstFileReader iterator, {@code key()}/{@code value()} (a new byte[] each). */
    @Benchmark
    @OperationsPerInvocation(Kv02Data.RECORDS)
    public long rocksWalkBytes() {
        long acc = 0;
        long n = 0;
        try (SstFileReaderIterator it = sst.newIterator(readOptions)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                byte[] k = it.key();
                byte[] v = it.value();
                int kl = k.length;
                int vl = v.length;
                acc += k[0] + 31L * k[kl - 1] + kl + 17L * v[0] + 7L * v[vl - 1] + vl;
                n++;
            }
        }
        checkCount(n);
        return acc;
    }

    /** RocksDB SstFileReader iterator, {@code key(ByteBuffer)}/{@code value(ByteBuffer)} into reused direct buffers. */
    @Benchmark
    @OperationsPerInvocation(Kv02Data.RECORDS)
    public long rocksWalkDirect() {
        long acc = 0;
        long n = 0;
        ByteBuffer kb = keyBuffer;
        ByteBuffer vb = valueBuffer;
        try (SstFileReaderIterator it = sst.newIterator(readOptions)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                kb.clear();
                int kl = it.key(kb);
                vb.clear();
                int vl = it.value(vb);
                acc += kb.get(0) + 31L * kb.get(kl - 1) + kl + 17L * vb.get(0) + 7L * vb.get(vl - 1) + vl;
                n++;
            }
        }
        checkCount(n);
        return acc;
    }

    private static long consume(RecordLocation r) {
        MemorySegment suffix = r.suffix();
        MemorySegment value = r.value();
        return r.keyLength() + 31L * suffix.get(ValueLayout.JAVA_BYTE, suffix.byteSize() - 1)
                + 17L * value.get(ValueLayout.JAVA_BYTE, 0) + value.byteSize();
    }

    /** {@code recordAt} of a random ordinal: one Elias–Fano select plus up to W − 1 record headers. */
    @Benchmark
    public long everettRecordAtRandom() {
        int i = next = (next + 1) & (LOOKUPS - 1);
        return consume(everett.recordAt(randomOrdinals[i]));
    }

    /**
     * {@code recordAt} of a random block-start ordinal (a multiple of W): the select-dominated
     * case, one Elias–Fano select plus one record header. (There is no public select API.)
     */
    @Benchmark
    public long everettRecordAtBlockStart() {
        int i = next = (next + 1) & (LOOKUPS - 1);
        return consume(everett.recordAt(blockStartOrdinals[i]));
    }

    /**
     * Context only, not a like-for-like comparison: RocksDB cannot address a record by ordinal, so
     * its nearest random access is {@code seek(key)} on an open iterator, then key and value into
     * direct buffers.
     */
    @Benchmark
    public long rocksSeekRandom() {
        int i = next = (next + 1) & (LOOKUPS - 1);
        ByteBuffer sk = seekKey;
        sk.clear();
        for (int b = 0; b < 8; b++) {
            sk.put((byte) 'p');
        }
        sk.putLong(randomOrdinals[i]).flip();
        SstFileReaderIterator it = seekIterator;
        it.seek(sk);
        ByteBuffer kb = keyBuffer;
        ByteBuffer vb = valueBuffer;
        kb.clear();
        int kl = it.key(kb);
        vb.clear();
        int vl = it.value(vb);
        return kl + 31L * kb.get(kl - 1) + 17L * vb.get(0) + vl;
    }
}

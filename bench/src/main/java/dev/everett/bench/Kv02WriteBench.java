package dev.everett.bench;

import dev.everett.api.Policy;
import dev.everett.api.SegmentEngine;
import dev.everett.api.SegmentInfo;
import dev.everett.api.CommonWidthRule;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
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
import org.rocksdb.RocksDBException;

/**
 * Writing the whole 1M-record data set, from the first put to a published, fsynced file. One
 * operation is one record ({@code @OperationsPerInvocation(1_000_000)}), so scores are ns/record;
 * the summariser turns them into records/s and MB/s of input (48 bytes per record).
 *
 * <p>Both sides generate the same keys and values into reused arrays inside the timed loop, and
 * both finish with a sync: Everett forces the file and its directory, {@code SstFileWriter.finish()}
 * syncs the file. By default the files live under {@code /dev/shm}, so the syncs cost no device
 * time and the figure is the encoder's (see {@code docs/benchmarks/README.md}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 5, jvmArgsAppend = {"-Xms4g", "-Xmx4g", "--enable-native-access=ALL-UNNAMED"})
@Warmup(iterations = 4, time = 2)
@Measurement(iterations = 5, time = 2)
public class Kv02WriteBench {
    /** Where to write: a directory, or "auto" for /dev/shm (else java.io.tmpdir). */
    @Param({"auto"})
    public String dir;

    private SegmentEngine engine;
    private Policy policy;
    private CommonWidthRule rule;
    private Path work;
    private Path everettTarget;
    private Path sstTarget;
    private EnvOptions envOptions;
    private Options options;
    private ByteBuffer directKey;
    private ByteBuffer directValue;
    private byte[] key;
    private byte[] value;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        engine = SegmentEngine.load();
        policy = Kv02Data.policy();
        rule = Kv02Data.widthRule();
        work = Kv02Data.workDir(dir, "everett-bench-write-");
        everettTarget = work.resolve("write.kv02");
        sstTarget = work.resolve("write.sst");
        envOptions = new EnvOptions();
        options = Kv02Data.rocksOptions();
        directKey = ByteBuffer.allocateDirect(Kv02Data.KEY_BYTES);
        directValue = ByteBuffer.allocateDirect(Kv02Data.VALUE_BYTES);
        key = Kv02Data.newKey();
        value = new byte[Kv02Data.VALUE_BYTES];
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        options.close();
        envOptions.close();
        Kv02Data.deleteTree(work);
    }

    /** Everett KV02 writer, {@code put(byte[], byte[])}, then {@code finish()}. */
    @Benchmark
    @OperationsPerInvocation(Kv02Data.RECORDS)
    public long everettWrite() throws IOException {
        SegmentInfo info = Kv02Data.writeEverett(engine, everettTarget, policy, rule);
        return info.fileBytes();
    }

    /** A bit profile to write the same records in ({@link Kv02Data#bitPolicy}). */
    @State(Scope.Benchmark)
    public static class BitProfile {
        /** kv03: {@code Policy.stringPolicy()}; kv02bit: the same policy writing KV02. */
        @Param({"kv03", "kv02bit"})
        public String profile;

        Policy policy;

        @Setup(Level.Trial)
        public void setUp() {
            policy = Kv02Data.bitPolicy(profile);
        }
    }

    /** {@link #everettWrite} in a bit profile: the same records, loop, finish and target. */
    @Benchmark
    @OperationsPerInvocation(Kv02Data.RECORDS)
    public long bitWrite(BitProfile p) throws IOException {
        SegmentInfo info = Kv02Data.writeEverett(engine, everettTarget, p.policy, rule);
        return info.fileBytes();
    }

    /** RocksDB {@code SstFileWriter.put(byte[], byte[])}, then {@code finish()}. */
    @Benchmark
    @OperationsPerInvocation(Kv02Data.RECORDS)
    public long rocksWriteBytes() throws RocksDBException {
        return Kv02Data.writeSstArrays(envOptions, options, sstTarget);
    }

    /** RocksDB {@code SstFileWriter.put(ByteBuffer, ByteBuffer)} from direct buffers, then {@code finish()}. */
    @Benchmark
    @OperationsPerInvocation(Kv02Data.RECORDS)
    public long rocksWriteDirect() throws RocksDBException {
        return Kv02Data.writeSstDirect(envOptions, options, sstTarget, directKey, directValue, key, value);
    }
}

package dev.everett.bench;

import dev.everett.api.CommonWidthRule;
import dev.everett.api.OpenMode;
import dev.everett.api.Policy;
import dev.everett.api.SegmentFormat;
import dev.everett.api.SegmentEngine;
import dev.everett.api.SegmentInfo;
import dev.everett.api.SegmentReader;
import dev.everett.api.SegmentWriter;
import dev.everett.api.ValueGrammar;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.Stream;
import org.rocksdb.CompressionType;
import org.rocksdb.EnvOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.SstFileWriter;

/**
 * The "KV02 foundation" data set, shared by every benchmark and by {@link SizeReport}: one million
 * records, 16-byte keys ({@code 8 × 'p'} then the record's ordinal as a big-endian 8-byte long,
 * so the keys arrive in strictly increasing unsigned order) and 32-byte values (SplitMix64 of the
 * ordinal, four words, so they are deterministic and incompressible). 48 bytes of input per record,
 * 48,000,000 bytes per file.
 *
 * <p>The Everett policy is {@link Policy#defaultBytes()} (byte unit, W = K = 15, variable values)
 * with the {@link ValueGrammar#RAW RAW} grammar, because the values are raw bytes with no
 * tombstones (RocksDB's {@code SstFileWriter} gets only puts too), written under
 * {@link CommonWidthRule#policy()}: the policy fixes no width, so every record keeps its one-byte
 * value length, as every RocksDB entry keeps its value-length varint.
 *
 * <p>RocksDB gets {@code CompressionType.NO_COMPRESSION} and otherwise default options: default
 * {@code BlockBasedTableConfig} (4 KiB blocks, restart interval 16, no filter), default
 * {@code EnvOptions}, default {@code ReadOptions} (checksums verified, block cache filled).
 */
public final class Kv02Data {
    /** Records per file. */
    public static final int RECORDS = 1_000_000;
    public static final int KEY_BYTES = 16;
    public static final int VALUE_BYTES = 32;
    /** Input bytes per file: keys plus values. */
    public static final long INPUT_BYTES = (long) RECORDS * (KEY_BYTES + VALUE_BYTES);

    private static final VarHandle BE_LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle LE_LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    static {
        RocksDB.loadLibrary();
    }

    private Kv02Data() {
    }

    /** The Everett policy measured (see the class comment). */
    public static Policy policy() {
        return Policy.defaultBytes().withGrammar(ValueGrammar.RAW);
    }

    /**
     * The bit profiles measured beside {@link #policy()} on the same records, with the same RAW
     * grammar and width rule: "kv03" is Everett's string policy ({@link Policy#stringPolicy()}:
     * bit unit, K = W = 15, EG0 backspaces; KV03 frames each value as EG0(byte count) and the
     * bytes), "kv02bit" the same policy writing KV02 with bit units (an EG0 VLEN of the value's
     * bits, then the bytes).
     */
    public static Policy bitPolicy(String profile) {
        Policy kv03 = Policy.stringPolicy().withGrammar(ValueGrammar.RAW);
        return switch (profile) {
            case "kv03" -> kv03;
            case "kv02bit" -> kv03.withFormat(SegmentFormat.KV02);
            default -> throw new IllegalArgumentException("profile must be kv03 or kv02bit, got " + profile);
        };
    }

    public static CommonWidthRule widthRule() {
        return CommonWidthRule.policy();
    }

    /** A fresh key buffer: the 'p' prefix is filled in, the ordinal is set by {@link #key}. */
    public static byte[] newKey() {
        byte[] k = new byte[KEY_BYTES];
        Arrays.fill(k, 0, 8, (byte) 'p');
        return k;
    }

    /** Writes the ordinal into bytes 8–15 of a buffer from {@link #newKey()}. */
    public static void key(byte[] k, long ordinal) {
        BE_LONG.set(k, 8, ordinal);
    }

    /** Fills the 32-byte value of {@code ordinal}. */
    public static void value(byte[] v, long ordinal) {
        long x = ordinal * 4;
        LE_LONG.set(v, 0, mix(x));
        LE_LONG.set(v, 8, mix(x + 1));
        LE_LONG.set(v, 16, mix(x + 2));
        LE_LONG.set(v, 24, mix(x + 3));
    }

    /** The SplitMix64 finaliser of {@code (i + 1) · golden gamma}. */
    static long mix(long i) {
        long z = (i + 1) * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** Writes the whole data set as a KV02 segment at {@code target} under the given policy. */
    public static SegmentInfo writeEverett(SegmentEngine engine, Path target, Policy policy, CommonWidthRule rule) throws IOException {
        byte[] k = newKey();
        byte[] v = new byte[VALUE_BYTES];
        try (SegmentWriter w = engine.newWriter(target, policy, rule)) {
            for (int i = 0; i < RECORDS; i++) {
                key(k, i);
                value(v, i);
                w.put(k, v);
            }
            return w.finish();
        }
    }

    /** Options for both SstFileWriter and SstFileReader: defaults, no compression. */
    public static Options rocksOptions() {
        return new Options().setCompressionType(CompressionType.NO_COMPRESSION);
    }

    /** Writes the whole data set with {@code SstFileWriter.put(byte[], byte[])}; returns the file size. */
    public static long writeSstArrays(EnvOptions env, Options options, Path target) throws RocksDBException {
        byte[] k = newKey();
        byte[] v = new byte[VALUE_BYTES];
        try (SstFileWriter w = new SstFileWriter(env, options)) {
            w.open(target.toString());
            for (int i = 0; i < RECORDS; i++) {
                key(k, i);
                value(v, i);
                w.put(k, v);
            }
            w.finish();
            return w.fileSize();
        }
    }

    /**
     * Writes the whole data set with {@code SstFileWriter.put(ByteBuffer, ByteBuffer)} from direct
     * buffers (no JNI array pinning or copying of Java arrays); returns the file size.
     */
    public static long writeSstDirect(EnvOptions env, Options options, Path target, ByteBuffer kb, ByteBuffer vb,
                                      byte[] k, byte[] v) throws RocksDBException {
        try (SstFileWriter w = new SstFileWriter(env, options)) {
            w.open(target.toString());
            for (int i = 0; i < RECORDS; i++) {
                key(k, i);
                value(v, i);
                kb.clear();
                kb.put(k).flip();
                vb.clear();
                vb.put(v).flip();
                w.put(kb, vb);
            }
            w.finish();
            return w.fileSize();
        }
    }

    /** Opens an Everett segment written by {@link #writeEverett} under {@link #policy()}. */
    public static SegmentReader openEverett(SegmentEngine engine, Path file) throws IOException {
        return openEverett(engine, file, policy());
    }

    /** Opens an Everett segment written by {@link #writeEverett} under {@code policy}. */
    public static SegmentReader openEverett(SegmentEngine engine, Path file, Policy policy) throws IOException {
        return engine.open(file, policy, OpenMode.TYPED);
    }

    /**
     * The working directory: {@code dir} if it names one, else {@code /dev/shm} when present (so
     * the writers' fsync and RocksDB's fadvise do not hit a device), else {@code java.io.tmpdir}.
     */
    public static Path workDir(String dir, String prefix) throws IOException {
        Path base;
        if (dir != null && !dir.isBlank() && !dir.equals("auto")) {
            base = Path.of(dir);
        } else if (Files.isDirectory(Path.of("/dev/shm")) && Files.isWritable(Path.of("/dev/shm"))) {
            base = Path.of("/dev/shm");
        } else {
            base = Path.of(System.getProperty("java.io.tmpdir"));
        }
        Files.createDirectories(base);
        return Files.createTempDirectory(base, prefix);
    }

    /** Deletes a work directory and everything in it. */
    public static void deleteTree(Path dir) throws IOException {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}

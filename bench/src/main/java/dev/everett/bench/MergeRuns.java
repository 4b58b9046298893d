package dev.everett.bench;

import dev.everett.api.CommonWidthRule;
import dev.everett.api.OpenMode;
import dev.everett.api.Policy;
import dev.everett.api.SegmentCursor;
import dev.everett.api.SegmentEngine;
import dev.everett.api.SegmentReader;
import dev.everett.api.SegmentWriter;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Arrays;
import org.rocksdb.EnvOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.SstFileWriter;

/**
 * Overlapping sorted runs over the KV02 data set's one million keys ({@link Kv02Data}: 16-byte keys
 * {@code 8 × 'p'} ∥ big-endian ordinal, 32-byte SplitMix64 values), for the large merge benchmarks.
 * Every ordinal {@code i < 1,000,000} is in at least one run, so every merge outputs exactly one
 * million distinct keys; a key held by several runs takes the value of the newest (highest-numbered)
 * one. Run {@code r}'s copy of a value is the data set's value with its first byte XOR
 * {@code 0x21 · (r + 1)}, so every version of a key differs and "newer wins" is checked.
 *
 * <ul>
 *   <li>{@link #twoWay()}: older = {@code i % 3 != 1}, newer = {@code i % 3 != 0}; the keys with
 *       {@code i % 3 == 2} (every third key) are in both. 666,667 + 666,666 input records.</li>
 *   <li>{@link #kWay(int)}: run {@code r} holds {@code i % k == r}, and every third key
 *       ({@code i % 3 == 0}) also sits in the next run {@code (i % k + 1) % k}. The runs interleave
 *       key by key (an LSM's shape under scattered writes); 1,333,334 input records in all.</li>
 * </ul>
 */
public final class MergeRuns {
    public static final int KEYS = Kv02Data.RECORDS;

    private final int runs;
    private final int k;

    private MergeRuns(int runs, int k) {
        this.runs = runs;
        this.k = k;
    }

    public static MergeRuns twoWay() {
        return new MergeRuns(2, 0);
    }

    public static MergeRuns kWay(int k) {
        if (k < 2) {
            throw new IllegalArgumentException("k must be ≥ 2");
        }
        return new MergeRuns(k, k);
    }

    public int runs() {
        return runs;
    }

    /** True if run {@code r} (0 = oldest) holds ordinal {@code i}. */
    public boolean holds(int r, long i) {
        if (k == 0) {
            return r == 0 ? i % 3 != 1 : i % 3 != 0;
        }
        int home = (int) (i % k);
        return home == r || (i % 3 == 0 && (home + 1) % k == r);
    }

    /** The newest run holding ordinal {@code i}. */
    public int newest(long i) {
        for (int r = runs - 1; r >= 0; r--) {
            if (holds(r, i)) {
                return r;
            }
        }
        throw new IllegalStateException("no run holds " + i);
    }

    /** Records in run {@code r}. */
    public long size(int r) {
        long n = 0;
        for (long i = 0; i < KEYS; i++) {
            if (holds(r, i)) {
                n++;
            }
        }
        return n;
    }

    /** Run {@code r}'s value of ordinal {@code i}, into {@code v} (32 bytes). */
    public static void value(byte[] v, long i, int r) {
        Kv02Data.value(v, i);
        v[0] ^= (byte) (0x21 * (r + 1));
    }

    /** Writes run {@code r} as an Everett segment. */
    public void writeEverett(SegmentEngine engine, Path target, Policy policy, int r) throws IOException {
        byte[] key = Kv02Data.newKey();
        byte[] value = new byte[Kv02Data.VALUE_BYTES];
        try (SegmentWriter w = engine.newWriter(target, policy, CommonWidthRule.policy())) {
            for (long i = 0; i < KEYS; i++) {
                if (holds(r, i)) {
                    Kv02Data.key(key, i);
                    value(value, i, r);
                    w.put(key, value);
                }
            }
            w.finish();
        }
    }

    /** Writes run {@code r} as an SST file with {@code SstFileWriter}. */
    public void writeSst(EnvOptions env, Options options, Path target, int r) throws RocksDBException {
        byte[] key = Kv02Data.newKey();
        byte[] value = new byte[Kv02Data.VALUE_BYTES];
        try (SstFileWriter w = new SstFileWriter(env, options)) {
            w.open(target.toString());
            for (long i = 0; i < KEYS; i++) {
                if (holds(r, i)) {
                    Kv02Data.key(key, i);
                    value(value, i, r);
                    w.put(key, value);
                }
            }
            w.finish();
        }
    }

    /**
     * Walks a merged Everett segment once and checks it holds exactly the one million keys, in
     * order, each with the newest run's value.
     */
    public void checkEverett(SegmentEngine engine, Path merged, Policy policy) throws IOException {
        byte[] key = Kv02Data.newKey();
        byte[] value = new byte[Kv02Data.VALUE_BYTES];
        try (SegmentReader r = engine.open(merged, policy, OpenMode.TYPED); SegmentCursor c = r.cursor()) {
            long n = 0;
            while (c.next()) {
                if (n >= KEYS) {
                    throw new IllegalStateException(merged + ": more than " + KEYS + " records");
                }
                Kv02Data.key(key, n);
                value(value, n, newest(n));
                MemorySegment kb = c.keyBuffer();
                if (c.keyLength() != key.length || MemorySegment.mismatch(kb, 0, key.length, MemorySegment.ofArray(key), 0, key.length) != -1
                        || c.valueLength() != value.length
                        || MemorySegment.mismatch(c.valueSource(), c.valueOffset(), c.valueOffset() + value.length, MemorySegment.ofArray(value), 0, value.length) != -1) {
                    throw new IllegalStateException(merged + ": record " + n + " differs from the expected key/value");
                }
                n++;
            }
            if (n != KEYS || r.recordCount() != KEYS) {
                throw new IllegalStateException(merged + ": " + n + " records walked, " + r.recordCount() + " counted, expected " + KEYS);
            }
        }
    }

    /** Walks a compacted RocksDB once and checks the same. */
    public void checkRocks(RocksDB db) {
        byte[] key = Kv02Data.newKey();
        byte[] value = new byte[Kv02Data.VALUE_BYTES];
        try (RocksIterator it = db.newIterator()) {
            long n = 0;
            for (it.seekToFirst(); it.isValid(); it.next()) {
                if (n >= KEYS) {
                    throw new IllegalStateException("RocksDB: more than " + KEYS + " keys");
                }
                Kv02Data.key(key, n);
                value(value, n, newest(n));
                if (!Arrays.equals(it.key(), key) || !Arrays.equals(it.value(), value)) {
                    throw new IllegalStateException("RocksDB: key " + n + " differs from the expected key/value");
                }
                n++;
            }
            if (n != KEYS) {
                throw new IllegalStateException("RocksDB: " + n + " keys walked, expected " + KEYS);
            }
        }
    }
}

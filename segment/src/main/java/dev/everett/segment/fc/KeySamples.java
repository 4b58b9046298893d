package dev.everett.segment.fc;

import dev.everett.segment.filter.KeyHash;
import dev.everett.segment.io.ShortCopy;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * The keys of records 0, K, 2K, … of a byte-unit stream, kept by its writer as the records go
 * by. They are what the routing catalog above a just-written native samples from it, so that
 * indexing the native does not walk every record again to find them. The writer stops keeping
 * them past {@link #MAX_BYTES} (the index build then walks the native as it always could).
 *
 * <p>Where the native's store keeps key filters, the writer also keeps every key's filter hash
 * ({@link KeyHash}), so that the filter is built from them instead of from a walk of the native;
 * up to {@link #MAX_HASHES} keys (past that the filter build walks the native).
 */
public final class KeySamples {
    /** Past this many key bytes the samples are given up: the writer's memory stays bounded. */
    static final int MAX_BYTES = 16 << 20;
    /** Past this many keys the hashes are given up: 32 MiB of them. */
    static final int MAX_HASHES = 1 << 22;

    private final long k;
    /** Records until the next sampled one (0: the next record is sampled). */
    private long untilNext;
    /** The previous key of an encoded stream (only its retained prefix is read). */
    private byte[] running = new byte[64];
    private byte[] bytes = new byte[256];
    private int used;
    /** End offset in {@link #bytes} of each sample. */
    private int[] ends = new int[16];
    private int count;
    private boolean givenUp;
    /** Every key's filter hash so far (the first {@link #hashCount}); null when not kept or given up. */
    private long[] hashes;
    private int hashCount;

    public KeySamples(long k) {
        this(k, false);
    }

    /** Samples every K-th key, and with {@code hashKeys} keeps every key's filter hash too. */
    public KeySamples(long k, boolean hashKeys) {
        this.k = k;
        if (hashKeys) {
            hashes = new long[256];
        }
    }

    /** A record of host key {@code key[0 .. length)}. */
    void key(byte[] key, int length) {
        hash(key, length);
        if (givenUp) {
            return;
        }
        if (untilNext-- == 0) {
            untilNext = k - 1;
            keep(key, length);
        }
    }

    /**
     * The previous key, {@code key[0 .. length)}, when encoded records follow records given by
     * their host keys ({@link #key}, which keeps no running key): the next encoded record keeps a
     * prefix of it.
     */
    void previousKey(byte[] key, int length) {
        if (running.length < length + ShortCopy.MAX) {
            running = Arrays.copyOf(running, Math.max(length + ShortCopy.MAX, running.length * 2));
        }
        System.arraycopy(key, 0, running, 0, length);
    }

    /**
     * A record that keeps {@code retained} bytes of the previous key and adds
     * {@code literal[at .. at + length)}: the running key is carried on every record, since a
     * sample's prefix comes from the records before it.
     */
    void encoded(long retained, MemorySegment literal, long at, long length) {
        if (givenUp && hashes == null) {
            return; // nothing more is kept, so the running key is not needed either
        }
        int r = (int) retained;
        int n = (int) length;
        int keyLength = r + n;
        // Room for a short copy's whole words past the key: the bytes there are never read.
        if (running.length < keyLength + ShortCopy.MAX) {
            running = Arrays.copyOf(running, Math.max(keyLength + ShortCopy.MAX, running.length * 2));
        }
        if (n <= ShortCopy.MAX && at + ShortCopy.MAX <= literal.byteSize()) {
            ShortCopy.words(literal, at, running, r);
        } else {
            MemorySegment.copy(literal, ValueLayout.JAVA_BYTE, at, running, r, n);
        }
        hash(running, keyLength);
        if (!givenUp && untilNext-- == 0) {
            untilNext = k - 1;
            keep(running, keyLength);
        }
    }

    private void hash(byte[] key, int length) {
        if (hashes == null) {
            return;
        }
        if (hashCount == hashes.length) {
            if (hashCount == MAX_HASHES) {
                hashes = null;
                return;
            }
            hashes = Arrays.copyOf(hashes, Math.min(MAX_HASHES, hashCount * 2));
        }
        hashes[hashCount++] = KeyHash.of(key, length);
    }

    /**
     * Every key's filter hash, in record order, handed over once (the samples then hold none), or
     * null if they were not kept (the store keeps no filters) or were given up (more than
     * {@link #MAX_HASHES} keys). Called when the stream has ended.
     */
    public long[] takeHashes() {
        long[] h = hashes == null ? null : hashCount == hashes.length ? hashes : Arrays.copyOf(hashes, hashCount);
        hashes = null;
        return h;
    }

    private void keep(byte[] key, int length) {
        if (used + length > MAX_BYTES) {
            givenUp = true;
            bytes = null;
            ends = null;
            return;
        }
        if (bytes.length < used + length) {
            bytes = Arrays.copyOf(bytes, Math.max(used + length, bytes.length * 2));
        }
        System.arraycopy(key, 0, bytes, used, length);
        used += length;
        if (count == ends.length) {
            ends = Arrays.copyOf(ends, count * 2);
        }
        ends[count++] = used;
    }

    /** False once the samples outgrew {@link #MAX_BYTES}: nothing is kept. */
    public boolean complete() {
        return !givenUp;
    }

    /** The samples kept: {@code ceil(records / K)} for a complete stream. */
    public int count() {
        return count;
    }

    /** Bytes of memory the samples hold. */
    public long bytes() {
        return givenUp ? 0 : (long) bytes.length + 4L * ends.length;
    }

    /** The samples in order, each key at the start of the buffer, lengths in bytes. */
    public KeySource source() {
        return source(1);
    }

    /**
     * Samples 0, {@code stride}, 2 × {@code stride}, … in order: the keys of records 0, K × stride,
     * …, which a routing catalog above the one sampling these borrows in turn.
     */
    public KeySource source(long stride) {
        if (givenUp) {
            throw new IllegalStateException("the key samples were given up");
        }
        if (stride < 1) {
            throw new IllegalArgumentException("stride must be at least 1, got " + stride);
        }
        return new KeySource() {
            /** The sample the next call reads, or {@code count} past the last. */
            private int following;
            private byte[] key = new byte[64];
            private int length;

            @Override
            public boolean next() {
                if (following >= count) {
                    return false;
                }
                int at = following;
                following = count - at <= stride ? count : (int) (at + stride);
                int from = at == 0 ? 0 : ends[at - 1];
                length = ends[at] - from;
                if (key.length < length) {
                    key = new byte[Math.max(length, key.length * 2)];
                }
                System.arraycopy(bytes, from, key, 0, length);
                return true;
            }

            @Override
            public byte[] keyBuffer() {
                return key;
            }

            @Override
            public long keyUnits() {
                return length;
            }
        };
    }
}

package dev.everett.segment.filter;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The 64-bit key hash of the key filters ({@link KeyFilter}). Part of the {@code .filter} layout
 * (docs/format.md, "Key filters"): a filter written with one hash cannot be read with another.
 *
 * <p>Keys are read as little-endian 8-byte words, the last one zero-padded; each word is folded
 * in with a multiply and a rotation, the length is folded in first, and a final avalanche (the
 * finaliser of MurmurHash3) spreads keys that differ only in their last bits, such as the
 * big-endian counters of structured keys, over all 64 bits. The query side hashes a
 * {@code byte[]}, the build side a key buffer; both overloads give the same value.
 */
public final class KeyHash {
    private static final long P1 = 0x9E3779B97F4A7C15L;
    private static final long P2 = 0xC2B2AE3D27D4EB4FL;
    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong SEG_LONG_LE = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private KeyHash() {
    }

    /** The hash of {@code key[0 .. n)}. */
    public static long of(byte[] key, int n) {
        long h = n * P1;
        int i = 0;
        for (; i + 8 <= n; i += 8) {
            h = fold(h, (long) LONG_LE.get(key, i));
        }
        if (i < n) {
            long w = 0;
            for (int j = n - 1; j >= i; j--) {
                w = (w << 8) | (key[j] & 0xFF);
            }
            h = fold(h, w);
        }
        return avalanche(h);
    }

    /** The hash of the {@code n} bytes of {@code key} at {@code at}. */
    public static long of(MemorySegment key, long at, int n) {
        long h = n * P1;
        int i = 0;
        for (; i + 8 <= n; i += 8) {
            h = fold(h, key.get(SEG_LONG_LE, at + i));
        }
        if (i < n) {
            long w = 0;
            for (int j = n - 1; j >= i; j--) {
                w = (w << 8) | (key.get(ValueLayout.JAVA_BYTE, at + j) & 0xFF);
            }
            h = fold(h, w);
        }
        return avalanche(h);
    }

    private static long fold(long h, long word) {
        return Long.rotateLeft(h ^ (word * P2), 29) * P1;
    }

    private static long avalanche(long h) {
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        h *= 0xC4CEB9FE1A85EC53L;
        h ^= h >>> 33;
        return h;
    }
}

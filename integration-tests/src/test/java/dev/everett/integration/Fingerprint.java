package dev.everett.integration;

/**
 * Everett's world fingerprint: {@code C = Σ h_K(key) · h_V(value)} over the live bindings, in u64
 * with wrapping arithmetic (an absent value contributes nothing). {@code h_K} is FNV-1a-64 of the key
 * bytes followed by the SplitMix64 finaliser; {@code h_V} is the finaliser applied to FNV-1a-64 of the
 * value bytes XOR {@code 0xd6e8feb86659fd93}. Because it is a sum it does not depend on order, so two
 * systems holding the same resolved map give the same C however their files are laid out, and a
 * compaction (which preserves the resolved map) leaves it unchanged. It is a lint check, not a proof.
 */
final class Fingerprint {
    private Fingerprint() {}

    static final long FNV_OFFSET = 0xcbf29ce484222325L;
    static final long FNV_PRIME = 0x100000001b3L;
    static final long VALUE_SALT = 0xd6e8feb86659fd93L;

    private long sum;
    private long count;

    static Fingerprint start() {
        return new Fingerprint();
    }

    /** Adds one live binding. */
    Fingerprint add(byte[] key, byte[] value) {
        sum += keyHash(key) * valueHash(value);
        count++;
        return this;
    }

    long value() {
        return sum;
    }

    long bindings() {
        return count;
    }

    static long fnv1a(byte[] b) {
        long h = FNV_OFFSET;
        for (byte x : b) {
            h ^= x & 0xff;
            h *= FNV_PRIME;
        }
        return h;
    }

    /** The SplitMix64 finaliser. */
    static long mix(long x) {
        x ^= x >>> 30;
        x *= 0xbf58476d1ce4e5b9L;
        x ^= x >>> 27;
        x *= 0x94d049bb133111ebL;
        x ^= x >>> 31;
        return x;
    }

    static long keyHash(byte[] key) {
        return mix(fnv1a(key));
    }

    static long valueHash(byte[] value) {
        return mix(fnv1a(value) ^ VALUE_SALT);
    }
}

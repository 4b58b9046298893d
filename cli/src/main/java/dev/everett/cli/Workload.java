package dev.everett.cli;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * The demo's operation stream: a seeded, repeatable mix of inserts, overwrites and deletes over
 * structured keys, replayed identically for each store (the stream is regenerated from the seed,
 * so two million operations never sit in memory).
 *
 * <p>Keys are numbered in insertion order and spelled by family, as an application's keys are:
 * user profiles under a hashed id ({@code user/4611686018427387904/profile}), orders by date and number
 * ({@code order/2026-11-28/0000123456}), sensor events by region and timestamp
 * ({@code event/eu-west/1764806400123/07}), and binary keys (a {@code 0x00 0xFF} tag and eight
 * hashed bytes). Overwrites are skewed: half of them hit the most recent tenth of the keys
 * (hot rows), the rest follow a power law over all keys. Deletes pick keys uniformly, some of
 * them already deleted. Values are 16 to 112 bytes of seeded random data.
 */
final class Workload {
    /** What an operation does. */
    enum Kind { PUT, DELETE }

    /** Shares, in percent, of inserts and overwrites; deletes take the rest. */
    static final int INSERT_PERCENT = 55;
    static final int OVERWRITE_PERCENT = 30;
    /** Value sizes in bytes, inclusive (about 64 on average, as a small row or document). */
    static final int VALUE_MIN = 16;
    static final int VALUE_MAX = 112;
    private static final String[] REGIONS = {"eu-west", "us-east", "ap-south", "sa-east"};

    private final long seed;
    private final long operations;
    private SplittableRandom random;
    private long done;
    private long keysInserted;

    /** The current operation: its kind, key and (for a put) value. Reused between operations. */
    Kind kind;
    byte[] key;
    byte[] value;

    Workload(long seed, long operations) {
        this.seed = seed;
        this.operations = operations;
        restart();
    }

    /** Back to the first operation. */
    void restart() {
        random = new SplittableRandom(seed);
        done = 0;
        keysInserted = 0;
    }

    long operations() {
        return operations;
    }

    /** Distinct keys inserted so far (ids 0 … keysInserted − 1). */
    long keysInserted() {
        return keysInserted;
    }

    /** Moves to the next operation; false once all have been produced. */
    boolean next() {
        if (done == operations) {
            return false;
        }
        done++;
        int roll = random.nextInt(100);
        if (keysInserted == 0 || roll < INSERT_PERCENT) {
            kind = Kind.PUT;
            key = key(keysInserted++);
            value = value(random);
        } else if (roll < INSERT_PERCENT + OVERWRITE_PERCENT) {
            kind = Kind.PUT;
            key = key(skewedId(random, keysInserted));
            value = value(random);
        } else {
            kind = Kind.DELETE;
            key = key(random.nextLong(keysInserted));
            value = null;
        }
        return true;
    }

    /** An id among the first {@code n}: half the time among the newest tenth, else a power law favouring low ids. */
    static long skewedId(SplittableRandom random, long n) {
        if (random.nextBoolean()) {
            long hot = Math.max(1, n / 10);
            return n - 1 - random.nextLong(hot);
        }
        double u = random.nextDouble();
        return Math.min(n - 1, (long) (n * u * u * u));
    }

    /** The key with the given id: a pure function, so overwrites and deletes find earlier keys. */
    static byte[] key(long id) {
        long h = mix(id);
        long n = id >>> 2;
        StringBuilder b = new StringBuilder(40);
        switch ((int) (id & 3)) {
            case 0 -> digits(b.append("user/"), h >>> 1, 19).append("/profile");
            case 1 -> digits(digits(digits(b.append("order/2026-"), 1 + n / 400_000 % 12, 2).append('-'), 1 + n / 16_000 % 28, 2)
                    .append('/'), n, 10);
            case 2 -> digits(digits(b.append("event/").append(REGIONS[(int) (h >>> 62)]).append('/'), 1_764_806_400_000L + n * 37, 13)
                    .append('/'), h & 63, 2);
            default -> {
                byte[] k = new byte[10];
                k[0] = 0x00;
                k[1] = (byte) 0xFF;
                for (int i = 0; i < 8; i++) {
                    k[2 + i] = (byte) (h >>> (56 - 8 * i));
                }
                return k;
            }
        }
        return b.toString().getBytes(StandardCharsets.US_ASCII);
    }

    /** Appends {@code v} (≥ 0) in decimal, zero-padded to {@code width} digits. */
    private static StringBuilder digits(StringBuilder b, long v, int width) {
        String s = Long.toString(v);
        for (int i = s.length(); i < width; i++) {
            b.append('0');
        }
        return b.append(s);
    }

    private static byte[] value(SplittableRandom random) {
        byte[] v = new byte[VALUE_MIN + random.nextInt(VALUE_MAX - VALUE_MIN + 1)];
        for (int i = 0; i < v.length; i += 8) {
            long r = random.nextLong();
            for (int j = 0; j < 8 && i + j < v.length; j++) {
                v[i + j] = (byte) (r >>> (8 * j));
            }
        }
        return v;
    }

    /** SplitMix64's finaliser: a bijection on longs, so distinct ids give distinct hashes. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}

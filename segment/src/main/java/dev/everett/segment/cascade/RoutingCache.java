package dev.everett.segment.cascade;

import dev.everett.segment.bits.BitStrings;
import dev.everett.segment.fc.FcStream;
import dev.everett.segment.fc.KeyWalker;
import dev.everett.segment.fc.StreamUnits;
import dev.everett.segment.index.Catalog;
import dev.everett.segment.index.IndexReader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The main-route samples of the catalogs at the top of a chain, decoded once and searched in
 * memory, so that a lookup can enter the cascade below the catalogs it has no business in.
 *
 * <p>The cascade visits a catalog for two things: a match among its native and leaf records, and
 * the last main sample ≤ Q, which names the group to enter one level down. When no catalog from
 * the head down to some catalog C can hold Q, only the second matters, and only at C: the last
 * sample ≤ Q among all of C's main samples is exactly the one the cascade would reach (it finds
 * the last one ≤ Q level by level), so a binary search over C's decoded samples gives the same
 * group and, from the key found, the same comparison context (common prefix, order, length).
 *
 * <p>Which catalogs cannot hold Q: routing catalogs (an empty native, no leaf: what
 * {@code prepareHead} stacks on top of a chain) never can; with key filters, also any catalog
 * whose native and leaf filters both rule Q out. A filter never misses a key it was built from,
 * so skipping such a catalog never skips an answer.
 *
 * <p>The samples come from indexes whose body CRC was checked when they were opened, and the walk
 * that decodes them checks their framing and their order. Catalogs are decoded from the head
 * down while their samples fit the store's routing cache ({@link dev.everett.api.ObjectStoreOptions}:
 * the keys, plus about 12.5 bytes per sample, 16.5 in bit units), all of them together except
 * that only the deepest of the routing catalogs on top is kept (lookups always skip the others).
 */
final class RoutingCache {
    /** The catalogs decoded, from the head down. */
    private final Catalog[] catalogs;
    /**
     * Their main-route samples, decoded; null for a routing catalog with a decoded routing
     * catalog below it (a lookup always skips past it to that one).
     */
    private final Samples[] samples;
    /** Catalogs at the top with an empty native and no leaf. */
    private final int emptyTop;

    /** No catalog decoded: every lookup starts at the head. */
    static final RoutingCache NONE = new RoutingCache(new Catalog[0], new Samples[0], 0);

    private RoutingCache(Catalog[] catalogs, Samples[] samples, int emptyTop) {
        this.catalogs = catalogs;
        this.samples = samples;
        this.emptyTop = emptyTop;
    }

    /**
     * Decodes the main samples of the catalogs from {@code head} down while they fit
     * {@code maxBytes}; null if not even the head's fit (or it has no main route).
     */
    static RoutingCache of(Catalog head, long maxBytes) {
        int empty = 0;
        for (Catalog c = head; c != null && c.main != null && c.secondary == null && c.nativeReader.recordCount() == 0; c = c.main) {
            empty++;
        }
        List<Catalog> catalogs = new ArrayList<>();
        List<Samples> samples = new ArrayList<>();
        long left = maxBytes;
        int d = 0;
        for (Catalog c = head; c != null && c.main != null; c = c.main, d++) {
            // A lookup skips every routing catalog, so once a deeper one is decoded the samples
            // of the one above it are never searched: they are dropped, and their bytes freed.
            boolean supersedes = d > 0 && d < empty;
            long freed = supersedes ? samples.get(d - 1).bytes() : 0;
            Samples s = Samples.decode(c.index.route(IndexReader.MAIN).stream(), left + freed);
            if (s == null) {
                break;
            }
            if (supersedes) {
                samples.set(d - 1, null);
                left += freed;
            }
            catalogs.add(c);
            samples.add(s);
            left -= s.bytes();
        }
        if (catalogs.isEmpty()) {
            return null;
        }
        return new RoutingCache(catalogs.toArray(Catalog[]::new), samples.toArray(Samples[]::new), empty);
    }

    /**
     * The deepest decoded catalog (levels below the head) such that neither it nor any catalog
     * above it can hold Q, by structure or by {@code holders} (as {@link Cascade#get(byte[], int,
     * long)} takes it); -1 if the head itself may.
     */
    int jumpLevel(long holders) {
        int d = 0;
        int n = samples.length;
        while (d < n && (d < emptyTop || (d < Cascade.MASK_DEPTH && ((holders >>> (2 * d)) & 3) == 0))) {
            d++;
        }
        return d - 1;
    }

    /** The catalog {@code level} levels below the head. */
    Catalog catalog(int level) {
        return catalogs[level];
    }

    /**
     * Finds the last main sample ≤ Q of the catalog {@code level} levels below the head and makes
     * {@code ctx} (started with Q) its context; returns the sample's ordinal, the group to enter
     * in that catalog's main target, or -1 if every sample follows Q (then nothing below can hold
     * Q, nor precede it).
     */
    long enter(int level, QueryContext ctx) {
        return samples[level].enter(ctx);
    }

    /** Catalogs decoded. */
    int levels() {
        return samples.length;
    }

    /** Catalogs at the top with an empty native and no leaf. */
    int emptyTop() {
        return emptyTop;
    }

    /** Bytes the decoded samples take (as the budget counts them). */
    long bytes() {
        long b = 0;
        for (Samples s : samples) {
            b += s == null ? 0 : s.bytes();
        }
        return b;
    }

    /**
     * One catalog's main samples: every key, one after another, each a whole number of bytes
     * (bit-unit keys MSB-first with zero tail bits), and beside each the eight bytes that follow
     * the prefix all of them share, so that most steps of the binary search compare two longs.
     */
    static final class Samples {
        private final byte[] keys;
        /** Where sample i's key starts in {@link #keys}; one more entry marks the end. */
        private final int[] starts;
        /** Bit-unit chains: sample i's length in bits; null for bytes (the length is the span). */
        private final int[] bitLengths;
        /** Bytes every sample's key starts with: the first and last samples' common bytes. */
        private final int shared;
        /**
         * Sample i's bytes {@code [shared, shared + 8)}, big-endian, zero past its end. Two keys
         * that share the prefix and whose words differ are ordered as their words: where one key
         * has ended its word holds zeros, so it orders first unless the other key holds zeros
         * there too, and then the words do not differ there. Equal words decide nothing.
         */
        private final long[] words;
        /**
         * Every {@value #STRIDE}th word: searched first, it names the run of {@value #STRIDE}
         * words (two cache lines) the search then finishes in, so that a search over many
         * samples touches a small, mostly cached array and then one or two lines of
         * {@link #words}, instead of a dozen scattered lines.
         */
        private final long[] summary;
        static final int STRIDE = 16;
        /** Byte units: the length every sample has, if they all have one (fixed-size keys); else -1. */
        private final int sameLength;

        private Samples(byte[] keys, int[] starts, int[] bitLengths) {
            this.keys = keys;
            this.starts = starts;
            this.bitLengths = bitLengths;
            int n = starts.length - 1;
            int last = starts[n - 1];
            int m = Arrays.mismatch(keys, 0, starts[1], keys, last, starts[n]);
            this.shared = m < 0 ? starts[1] : m;
            this.words = new long[n];
            for (int i = 0; i < n; i++) {
                words[i] = word(keys, starts[i] + shared, starts[i + 1]);
            }
            this.summary = new long[(n + STRIDE - 1) / STRIDE];
            for (int b = 0; b < summary.length; b++) {
                summary[b] = words[b * STRIDE];
            }
            int same = bitLengths == null ? starts[1] - starts[0] : -1;
            for (int i = 1; i < n && same >= 0; i++) {
                if (starts[i + 1] - starts[i] != same) {
                    same = -1;
                }
            }
            this.sameLength = same;
        }

        /** The first sample whose word is ≥ {@code x} (unsigned), or {@code words.length}; with {@code strict}, > x. */
        private int firstWord(long x, boolean strict) {
            int block = first(summary, 0, summary.length, x, strict);
            // Block {@code block}'s first word is the first summary word at or past x, so the
            // answer lies after the first word of the block before and at or before its own.
            if (block == 0) {
                return 0;
            }
            return first(words, (block - 1) * STRIDE + 1, Math.min(block * STRIDE, words.length), x, strict);
        }

        /** The first index in [from, to) of sorted {@code a} whose value is ≥ x (> x if strict), else {@code to}. */
        private static int first(long[] a, int from, int to, long x, boolean strict) {
            while (from < to) {
                int mid = (from + to) >>> 1;
                int c = Long.compareUnsigned(a[mid], x);
                if (c < 0 || (strict && c == 0)) {
                    from = mid + 1;
                } else {
                    to = mid;
                }
            }
            return from;
        }

        /** Memory besides the key bytes: the starts, the words, the summary and (bit units) the lengths. */
        static long fixedBytes(long n, boolean lengths) {
            return 4 * (n + 1) + 8 * n + 8 * ((n + STRIDE - 1) / STRIDE) + (lengths ? 4 * n : 0);
        }

        /** The keys of a borrowed stream, or null if they take more than {@code maxBytes}. */
        static Samples decode(FcStream s, long maxBytes) {
            long n = s.count();
            StreamUnits units = s.framing().units();
            boolean lengths = units.partialBytes();
            long fixed = fixedBytes(n, lengths);
            if (n == 0 || fixed > maxBytes) {
                return null;
            }
            int[] starts = new int[(int) n + 1];
            int[] bitLengths = lengths ? new int[(int) n] : null;
            byte[] keys = new byte[(int) Math.min(maxBytes - fixed, Math.max(64, n * 16))];
            int at = 0;
            KeyWalker w = s.keys();
            int i = 0;
            while (w.next()) {
                long u = w.keyUnits();
                long bytes = units.arrayBytes(u);
                if (at + bytes + fixed > maxBytes) {
                    return null;
                }
                if (at + bytes > keys.length) {
                    keys = Arrays.copyOf(keys, (int) Math.min(maxBytes - fixed, Math.max(at + bytes, 2L * keys.length)));
                }
                System.arraycopy(w.keyBuffer(), 0, keys, at, (int) bytes);
                starts[i] = at;
                if (lengths) {
                    bitLengths[i] = (int) u;
                }
                at += (int) bytes;
                i++;
            }
            starts[i] = at;
            return new Samples(at == keys.length ? keys : Arrays.copyOf(keys, at), starts, bitLengths);
        }

        /** Bytes {@code [from, from + 8)} of {@code b}, big-endian, zero at and past {@code end}. */
        private static long word(byte[] b, int from, int end) {
            long x = 0;
            for (int j = 0; j < 8; j++) {
                int at = from + j;
                x = x << 8 | (at < end ? b[at] & 0xFF : 0);
            }
            return x;
        }

        private long units(int i) {
            return bitLengths == null ? starts[i + 1] - starts[i] : bitLengths[i];
        }

        /** The last sample ≤ Q, made {@code ctx}'s boundary; -1 if none (see {@link RoutingCache#enter}). */
        long enter(QueryContext ctx) {
            int lo = 0;
            int hi = words.length;
            byte[] k = keys;
            int[] s = starts;
            byte[] q = ctx.query;
            int qBytes = BitStrings.bytes(ctx.queryBits);
            int p = shared;
            boolean sharesPrefix = qBytes >= p && Arrays.equals(k, 0, p, q, 0, p);
            long qw = 0;
            if (sharesPrefix) {
                // Q starts with the shared prefix too: samples whose word is below Q's precede
                // Q, those whose word is above follow it, and only those with an equal word (a
                // run, usually empty) need their keys compared.
                qw = word(q, p, qBytes);
                lo = firstWord(qw, false);
                hi = lo < words.length && words[lo] == qw ? firstWord(qw, true) : lo;
            }
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (ctx.compareWith(k, s[mid], units(mid)) <= 0) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            int i = lo - 1;
            if (i >= 0 && !(sharesPrefix && boundaryFromWord(ctx, i, qw, qBytes))) {
                ctx.boundary(k, s[i], units(i));
            }
            return i;
        }

        /**
         * Byte units, Q sharing the prefix (its word {@code qw}, its length {@code qBytes}): makes
         * sample i Q's boundary from the two words alone when they decide it, that is when they
         * differ or either key ends within them, so that the key itself (and, with fixed-size
         * keys, its start) is not read; false, having done nothing, when they do not. The result
         * is what {@link QueryContext#boundary(byte[], int, long)} gives from the key: bits in
         * common, order (a proper prefix first) and length.
         */
        private boolean boundaryFromWord(QueryContext ctx, int i, long qw, int qBytes) {
            if (bitLengths != null) {
                return false;
            }
            int length = sameLength >= 0 ? sameLength : starts[i + 1] - starts[i];
            long keyRest = 8L * (length - shared);
            long queryRest = 8L * (qBytes - shared);
            long limit = Math.min(keyRest, queryRest);
            long w = words[i];
            long d = w ^ qw;
            if (d == 0 && limit > Long.SIZE) {
                return false; // the words agree and both keys go on past them
            }
            // Past a key's end its word holds zeros, so bits beyond the shorter key decide nothing.
            long c = Math.min(Long.numberOfLeadingZeros(d), limit);
            int order;
            if (c == keyRest) {
                order = c == queryRest ? 0 : -1;
            } else if (c == queryRest) {
                order = 1;
            } else {
                order = (w << c) < 0 ? 1 : -1; // the sample's bit where they first differ
            }
            ctx.boundary(8L * shared + c, order, length);
            return true;
        }

        int size() {
            return words.length;
        }

        /** The keys plus {@link #fixedBytes}: what the budget counts. */
        long bytes() {
            return keys.length + fixedBytes(words.length, bitLengths != null);
        }
    }
}

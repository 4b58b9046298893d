package dev.everett.merge;

import dev.everett.segment.encoded.BitSpans;
import dev.everett.segment.encoded.EncodedRecords;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A {@link SpanKey} of a bit-unit input (KV02 bit, KV03): spans of bits at file bit offsets,
 * lengths and LCPs in bits of the host key (a KV03 sort code is left out by
 * {@link EncodedRecords}; every key has the same one). Canonical bit front coding keeps the exact
 * bit LCP, so the old key's bit at r is 0 and the literal's first bit is 1: one bit decides. Runs
 * are compared 56 bits at a time.
 */
final class BitSpanKey extends SpanKey {
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;
    private static final long LOWS = 0x7F7F7F7F7F7F7F7FL;
    private static final ValueLayout.OfLong BIG_ENDIAN_WORD = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    /** Keys are stored in their ordered string form (KV02 in bits), which {@link #checkForm} checks. */
    private final boolean orderedStrings;

    BitSpanKey(EncodedRecords records, int index) {
        super(records, index, 0);
        this.orderedStrings = records.orderedStrings();
    }

    /**
     * The ordered string form (KV02 in bits): whole bytes, each {@code 0x00} followed by
     * {@code 0xFF}, except the final {@code 0x00 0x00}, which ends the key and nothing else.
     *
     * <p>The old key passed this check, and the new one keeps its first r bits, so only the bytes
     * from the one that holds bit r need checking, and of the kept bytes only whether the last
     * whole one is a {@code 0x00} waiting for its partner. Where the front coding is canonical
     * (the LCP is r: the old key's bit r is 0, the new one's 1) the old key's byte holding bit r
     * is not the {@code 0xFF} of a pair, so the kept byte before it is a {@code 0x00} only if it
     * is the first byte of the old key's terminator; the byte holding bit r cannot be
     * {@code 0x00}, and every byte after it is the literal's, checked straight from the file by
     * {@link #checkLiteral}, so the check never walks the spans. Under conservative front coding
     * (an LCP beyond r) it reads from the byte before the one holding bit r through the spans
     * instead. A key that extends the old one whole cannot be canonical: the old key's terminator
     * would lie inside it.
     */
    @Override
    void checkForm(long r, long lcp, long lit, long oldLength) {
        if (!orderedStrings) {
            return;
        }
        long bytes = length >>> 3;
        if ((length & 7) != 0 || bytes < 2 || (r == oldLength && r > 0)) {
            throw records.notOrderedForm();
        }
        long q = r >>> 3;
        if (lcp != r) {
            checkFromSpans(Math.max(q - 1, 0), bytes, r, lit);
            return;
        }
        boolean pending = q > 0 && q == (oldLength >>> 3) - 1;
        long j = q;
        if ((r & 7) != 0) {
            if (pending) {
                // Byte q keeps bits of the old key's second terminator byte, 0x00, and the new
                // bit r = 1 after them: a byte that neither completes a pair nor ends the key.
                throw records.notOrderedForm();
            }
            j = q + 1; // byte q holds the new key's bit r, a 1: not 0x00, a token of its own
        }
        long base = lit - r; // key byte j (j ≥ its first whole literal byte) lies at file bit base + 8j
        if (pending) {
            // Key byte j - 1 is the old key's 0x00, kept: byte j must complete it.
            if (j >= bytes) {
                throw records.notOrderedForm();
            }
            if (pairEnds(j - 1, BitSpans.read(source, base + 8 * j, 8), bytes)) {
                return;
            }
            j++;
        }
        checkLiteral(j, bytes, base);
    }

    /**
     * Key byte j is 0x00 and {@code next} the byte after it: true if the two are the terminator
     * and end the key, false if they are a pair ({@code 0xFF}); otherwise the key is not canonical.
     */
    private boolean pairEnds(long j, long next, long bytes) {
        if (next == 0xFF) {
            return false;
        }
        if (next != 0 || j + 2 != bytes) {
            throw records.notOrderedForm();
        }
        return true;
    }

    /**
     * Checks key bytes [j, bytes), all in the literal (key byte i at file bit base + 8i), where no
     * pair begun before j is open: the key must end in the terminator {@code 0x00 0x00}, and every
     * other {@code 0x00} must be followed by {@code 0xFF}. In that form a {@code 0x00} always
     * starts a token, so the rule is local to each byte and its successor, and eight bytes are
     * checked at once in a register: a word's zero-byte flags, moved one byte on, must fall on
     * its {@code 0xFF} flags (the last byte's flag carries into the next word). Pairs cost
     * nothing extra, so keys full of escaped zeros are checked at the speed of any other.
     */
    private void checkLiteral(long j, long bytes, long base) {
        if (bytes - j < 2) {
            throw records.notOrderedForm(); // no room for the terminator
        }
        long p = base + 8 * j;
        long k = p >>> 3;
        int shift = (int) (p & 7);
        long last = source.byteSize() - 16;
        // Whole words of key bytes before the terminator, shifted onto the key's byte grid from
        // one new word read each; a counted loop, so the segment's bounds are checked once.
        long words = k > last ? 0 : Math.min((bytes - 2 - j) >>> 3, ((last - k) >>> 3) + 1);
        long carry = 0;
        if (words > 0) {
            long current = source.get(BIG_ENDIAN_WORD, k);
            for (long t = 0; t < words; t++) {
                long next = source.get(BIG_ENDIAN_WORD, k + 8 * t + 8);
                long v = (current << shift) | (next >>> 1 >>> (63 - shift));
                current = next;
                // Most words hold no 0x00 and close no pair: one test (exact for "any zero").
                if ((((v - ONES) & ~v & HIGHS) | carry) != 0) {
                    long zeroFlags = ~(((v & LOWS) + LOWS) | v | LOWS);
                    long ffFlags = ((v & LOWS) + ONES) & v & HIGHS;
                    if ((((zeroFlags >>> 8) | carry) & ~ffFlags) != 0) {
                        throw records.notOrderedForm(); // a 0x00 not followed by 0xFF
                    }
                    carry = zeroFlags << 56;
                }
            }
        }
        j += 8 * words;
        // The rest, a byte at a time: fewer than ten bytes, or a key at the end of the file.
        boolean open = carry != 0;
        for (; j < bytes - 2; j++) {
            long c = BitSpans.read(source, base + 8 * j, 8);
            if (open && c != 0xFF) {
                throw records.notOrderedForm();
            }
            open = c == 0;
        }
        if (open || BitSpans.read(source, base + 8 * j, 16) != 0) {
            throw records.notOrderedForm(); // a pair left open, or no terminator at the end
        }
    }

    /**
     * The form check through the spans, from key byte i to the end. Byte i may be the
     * {@code 0xFF} of a pair begun before it, which the old key's check covered; as a non-zero
     * byte it is passed over like any other.
     */
    private void checkFromSpans(long i, long bytes, long r, long lit) {
        while (i < bytes) {
            if (keyWordByte(i, r, lit) != 0) {
                i++;
                continue;
            }
            if (i + 1 >= bytes) {
                throw records.notOrderedForm();
            }
            if (pairEnds(i, keyWordByte(i + 1, r, lit), bytes)) {
                return;
            }
            i += 2;
        }
        throw records.notOrderedForm(); // no terminator
    }

    /** Key byte i, which starts at most 15 bits before the end of the kept prefix r or after it (then in the literal at lit). */
    private long keyWordByte(long i, long r, long lit) {
        long u = 8 * i;
        if (u >= r) {
            return BitSpans.read(source, lit + (u - r), 8);
        }
        int kept = (int) Math.min(8, r - u);
        long head = keyBits(u, kept);
        return kept == 8 ? head : (head << (8 - kept)) | BitSpans.read(source, lit, 8 - kept);
    }

    /** {@code count} ≤ 56 key bits from key bit u (u + count ≤ length), across spans. */
    private long keyBits(long u, int count) {
        long v = 0;
        int got = 0;
        while (got < count) {
            long at = u + got;
            int s = spanOf(at);
            int take = (int) Math.min(count - got, end[s] - at);
            v = (v << take) | BitSpans.read(source, this.at[s] + (at - start[s]), take);
            got += take;
        }
        return v;
    }

    @Override
    long keyBytes() {
        return length >>> 3;
    }

    @Override
    void track(long lit, long r, long n) {
        // Bit keys are compared through their spans only.
    }

    @Override
    int compareCached(SpanKey other, long[] common) {
        throw new AssertionError("bit keys cache no units");
    }

    @Override
    void build(long lit, long r, long n) {
        long bytes = (length + 7) >>> 3;
        if (built.length < bytes) {
            built = Arrays.copyOf(built, (int) Math.max(bytes, 2L * built.length));
        }
        copyRun(lit, built, r, n);
    }

    /** The bit at position p of the input. */
    private int bit(long p) {
        return (int) BitSpans.read(source, p, 1);
    }

    @Override
    long successorLcp(long r, long lit, long n) {
        int incoming = bit(lit);
        int top = spanFromTop(r);
        int old = bit(at[top] + (r - start[top]));
        if (incoming > old) {
            return r;
        }
        if (incoming < old) {
            throw sortsBefore();
        }
        // Conservative front coding: compare the rest of the old key with the literal, span by span.
        long limit = Math.min(length - r, n);
        long m = 1;
        while (m < limit) {
            long u = r + m;
            int s = spanOf(u);
            long chunk = Math.min(end[s] - u, limit - m);
            long oldAt = at[s] + (u - start[s]);
            long d = mismatch(lit + m, source, oldAt, chunk);
            if (d >= 0) {
                if (bit(lit + m + d) == 0) {
                    throw sortsBefore();
                }
                return r + m + d;
            }
            m += chunk;
        }
        if (n <= length - r) {
            throw notGreater();
        }
        return r + limit;
    }

    @Override
    long mismatch(long aAt, MemorySegment b, long bAt, long n) {
        return BitSpans.mismatch(source, aAt, b, bAt, n);
    }

    @Override
    int compareUnit(long aAt, MemorySegment b, long bAt) {
        return bit(aAt) == 1 ? 1 : -1;
    }

    @Override
    void copyRun(long from, byte[] dst, long dstAt, long n) {
        BitSpans.copy(source, from, dst, dstAt, n);
    }
}

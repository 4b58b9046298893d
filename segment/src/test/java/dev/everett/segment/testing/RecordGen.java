package dev.everett.segment.testing;

import dev.everett.api.ValueGrammar;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;

/**
 * Draws record sets as a sorted run must be: keys unique and strictly increasing in unsigned
 * lexicographic order (a proper prefix first). The keys are shaped to stress front coding: the
 * empty key, keys that are proper prefixes of others, long shared prefixes (up to 300 bytes, so
 * retention counts need two-byte varints), bytes either side of 0x80 (where signed comparison
 * goes wrong) and random lengths. Everything comes from the given {@link Random}, so a seed
 * replays the same records.
 */
public final class RecordGen {
    /** Bytes at the edges of signed and unsigned order, drawn more often than chance would. */
    private static final byte[] EDGE_BYTES = {0x00, 0x01, 0x7F, (byte) 0x80, (byte) 0xFE, (byte) 0xFF};

    private final Random rnd;

    public RecordGen(Random rnd) {
        this.rnd = rnd;
    }

    /**
     * How values are drawn.
     *
     * @param grammar      RAW, or OPTIONAL (values may be tombstones)
     * @param encodedWidth -1 for any length, else the byte-unit encoded width every value must have
     *                     (1 + length for a present OPTIONAL value, 1 for a tombstone, the length for RAW)
     * @param present      for an OPTIONAL width of 1: null draws tombstones and empty values, TRUE
     *                     only empty values, FALSE only tombstones (bit units encode the two with
     *                     different widths); ignored otherwise
     */
    public record Values(ValueGrammar grammar, long encodedWidth, Boolean present) {
        public static Values variable(ValueGrammar grammar) {
            return new Values(grammar, -1, null);
        }

        public static Values uniform(ValueGrammar grammar, long encodedWidth) {
            return new Values(grammar, encodedWidth, null);
        }

        /** Present values of {@code bytes} bytes only. */
        public static Values present(ValueGrammar grammar, int bytes) {
            return new Values(grammar, grammar == ValueGrammar.OPTIONAL ? 1 + bytes : bytes, Boolean.TRUE);
        }

        /** Tombstones only. */
        public static Values tombstones() {
            return new Values(ValueGrammar.OPTIONAL, 1, Boolean.FALSE);
        }
    }

    /** {@code n} records with keys from {@link #keys(int)} and values drawn as {@code values} says. */
    public List<Rec> records(int n, Values values) {
        List<Rec> out = new ArrayList<>(n);
        for (byte[] key : keys(n)) {
            out.add(new Rec(key, value(values)));
        }
        return out;
    }

    /** {@code n} distinct keys in unsigned lexicographic order. */
    public List<byte[]> keys(int n) {
        TreeSet<byte[]> sorted = new TreeSet<>(Arrays::compareUnsigned);
        List<byte[]> made = new ArrayList<>(n);
        List<byte[]> stems = stems();
        if (n > 0 && rnd.nextInt(3) == 0) {
            sorted.add(new byte[0]);
            made.add(new byte[0]);
        }
        while (sorted.size() < n) {
            byte[] key = switch (rnd.nextInt(10)) {
                // Longer than a key we have, which becomes its proper prefix.
                case 0, 1 -> made.isEmpty() ? bytes(rnd.nextInt(8)) : concat(pick(made), bytes(1 + rnd.nextInt(4)));
                // A proper prefix of a key we have.
                case 2 -> made.isEmpty() ? bytes(rnd.nextInt(8)) : truncate(pick(made));
                // A long shared prefix, then a short tail.
                case 3, 4, 5 -> concat(pick(stems), bytes(rnd.nextInt(25)));
                // Short keys from a small alphabet: many collide (dropped) or share prefixes.
                case 6, 7 -> smallAlphabet(rnd.nextInt(7));
                default -> bytes(rnd.nextInt(41));
            };
            if (sorted.add(key)) {
                made.add(key);
            }
        }
        return new ArrayList<>(sorted);
    }

    /**
     * A few shared prefixes, 0 to 300 bytes, some of them extending others. The first is at least
     * 128 bytes, so sets of any size tend to need multi-byte retention counts.
     */
    private List<byte[]> stems() {
        List<byte[]> stems = new ArrayList<>();
        int count = 1 + rnd.nextInt(8);
        for (int i = 0; i < count; i++) {
            byte[] stem = bytes(i == 0 ? 128 + rnd.nextInt(173) : rnd.nextInt(301));
            if (!stems.isEmpty() && rnd.nextInt(3) == 0) {
                byte[] base = pick(stems);
                stem = concat(base, bytes(rnd.nextInt(Math.max(1, 301 - base.length))));
            }
            stems.add(stem);
        }
        return stems;
    }

    /** One value, or null for a tombstone. */
    byte[] value(Values values) {
        boolean optional = values.grammar() == ValueGrammar.OPTIONAL;
        long width = values.encodedWidth();
        if (width >= 0) {
            if (!optional) {
                return bytes(Math.toIntExact(width));
            }
            if (width == 0) {
                throw new IllegalArgumentException("an OPTIONAL value is at least one byte encoded");
            }
            // Encoded width 1 is either the tombstone (00) or the empty value (01).
            if (width == 1) {
                boolean present = values.present() != null ? values.present() : rnd.nextBoolean();
                return present ? new byte[0] : null;
            }
            return bytes(Math.toIntExact(width - 1));
        }
        if (optional && rnd.nextInt(100) < 15) {
            return null;
        }
        int roll = rnd.nextInt(1000);
        int length;
        if (roll < 100) {
            length = 0;
        } else if (roll < 650) {
            length = 1 + rnd.nextInt(8);
        } else if (roll < 880) {
            length = 9 + rnd.nextInt(56);
        } else if (roll < 997) {
            length = 100 + rnd.nextInt(201); // VLEN across the one/two-byte varint boundary
        } else {
            length = 16_380 + rnd.nextInt(20); // and across the two/three-byte boundary
        }
        return bytes(length);
    }

    public byte[] bytes(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = rnd.nextInt(5) < 2 ? EDGE_BYTES[rnd.nextInt(EDGE_BYTES.length)] : (byte) rnd.nextInt(256);
        }
        return b;
    }

    private byte[] smallAlphabet(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = EDGE_BYTES[rnd.nextInt(3) * 2]; // 0x00, 0x7F or 0xFE
        }
        return b;
    }

    private byte[] truncate(byte[] key) {
        return Arrays.copyOf(key, key.length == 0 ? 0 : rnd.nextInt(key.length));
    }

    private <T> T pick(List<T> list) {
        return list.get(rnd.nextInt(list.size()));
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] c = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }

    /** Encoded value width in bytes under the grammar: 1 + length or 1 (OPTIONAL), length (RAW). */
    static long encodedWidth(ValueGrammar grammar, Rec r) {
        if (grammar == ValueGrammar.OPTIONAL) {
            return r.tombstone() ? 1 : 1L + r.value().length;
        }
        return r.value().length;
    }
}

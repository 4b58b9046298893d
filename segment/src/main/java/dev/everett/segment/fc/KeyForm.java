package dev.everett.segment.fc;

import dev.everett.segment.bits.BitStrings;
import dev.everett.segment.bits.OrderedStrings;
import dev.everett.segment.io.Corruption;

/**
 * How a host's key relates to the key its natives store, for one policy
 * ({@link Framing#keyForm}): byte units store the host key itself ({@link #BYTES}); bit units
 * store a logical key ({@link Logical}), the sort code in front and, for KV02 in bits, the
 * host key's ordered string form behind it. Queries go in through {@link #logicalQuery}; keys
 * come out through {@link #host} and {@link #hostLength}. Stateless: one instance serves every
 * reader, cursor and query of the policy.
 */
public abstract sealed class KeyForm permits KeyForm.Bytes, KeyForm.Logical {
    /** Byte units: the stored key is the host key. */
    public static final KeyForm BYTES = new Bytes();

    private KeyForm() {
    }

    /** The stored key's length in units for a stored form of {@code storedBytes} bytes. */
    public abstract long units(int storedBytes);

    /** The key stored for host key {@code q[0 .. n)}, in the stream's units: a fresh array in bit units, {@code q} itself in bytes (so pass all of it). */
    public abstract byte[] logicalQuery(byte[] q, int n);

    /** Bytes of the stored form inside {@code logical}, a key {@link #logicalQuery} made (no second pass over the query). */
    public abstract int storedBytes(byte[] logical);

    /** Bytes a scratch array needs to hold the host key of a stored key of {@code units} units ({@link #host}). */
    public abstract int scratchBytes(long units);

    /**
     * The host key's bytes for stored key {@code key} of {@code units} units: {@code key} itself,
     * or {@code scratch} (at least {@link #scratchBytes} long) filled with them. Its length is
     * {@link #hostLength}.
     */
    public abstract byte[] host(byte[] key, long units, byte[] scratch);

    /**
     * The length of the host key that {@link #host} gave ({@code host}, for a stored key of
     * {@code units} units), decoding an ordered string form in place.
     *
     * @throws dev.everett.api.CorruptSegmentException at {@code byteOffset} if the form is not canonical
     */
    public abstract int hostLength(byte[] host, long units, Corruption c, long byteOffset);

    static final class Bytes extends KeyForm {
        @Override
        public long units(int storedBytes) {
            return storedBytes;
        }

        @Override
        public byte[] logicalQuery(byte[] q, int n) {
            return q;
        }

        @Override
        public int storedBytes(byte[] logical) {
            return logical.length;
        }

        @Override
        public int scratchBytes(long units) {
            return 0;
        }

        @Override
        public byte[] host(byte[] key, long units, byte[] scratch) {
            return key;
        }

        @Override
        public int hostLength(byte[] host, long units, Corruption c, long byteOffset) {
            return (int) units;
        }
    }

    /** Bit units: the sort code ({@code pathBits} bits, the single bit 0) then the stored form. */
    public static final class Logical extends KeyForm {
        private final int pathBits;
        private final boolean orderedStrings;

        Logical(int pathBits, boolean orderedStrings) {
            if (pathBits != Framing.KV03_PATH_BITS) {
                throw new IllegalArgumentException("a logical key has a " + Framing.KV03_PATH_BITS + "-bit sort code, not " + pathBits);
            }
            this.pathBits = pathBits;
            this.orderedStrings = orderedStrings;
        }

        @Override
        public long units(int storedBytes) {
            return 8L * storedBytes + pathBits;
        }

        @Override
        public byte[] logicalQuery(byte[] q, int n) {
            byte[] stored = orderedStrings ? OrderedStrings.encode(q, n) : q;
            long bits = orderedStrings ? 8L * stored.length : 8L * n;
            return BitStrings.shiftedRight(stored, bits, pathBits);
        }

        @Override
        public int storedBytes(byte[] logical) {
            return (8 * logical.length - pathBits) >>> 3;
        }

        @Override
        public int scratchBytes(long units) {
            return (int) ((units - pathBits) >>> 3);
        }

        @Override
        public byte[] host(byte[] key, long units, byte[] scratch) {
            BitStrings.dropFirstBit(key, scratch, scratchBytes(units));
            return scratch;
        }

        @Override
        public int hostLength(byte[] host, long units, Corruption c, long byteOffset) {
            int n = scratchBytes(units);
            if (!orderedStrings) {
                return n;
            }
            int h = OrderedStrings.decodeInPlace(host, n);
            if (h < 0) {
                throw c.at(byteOffset, OrderedStrings.NOT_CANONICAL);
            }
            return h;
        }
    }
}

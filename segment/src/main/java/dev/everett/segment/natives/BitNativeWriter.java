package dev.everett.segment.natives;

import dev.everett.api.BackspaceCode;
import dev.everett.api.CommonWidthRule;
import dev.everett.api.KeyOrderException;
import dev.everett.api.Policy;
import dev.everett.api.SegmentFormat;
import dev.everett.api.SegmentInfo;
import dev.everett.api.ValueGrammar;
import dev.everett.segment.bits.BitOutput;
import dev.everett.segment.bits.BitStrings;
import dev.everett.segment.bits.EliasFano;
import dev.everett.segment.fc.BitFrame;
import dev.everett.segment.fc.FcStream;
import dev.everett.segment.fc.Framing;
import dev.everett.segment.io.AtomicFile;
import dev.everett.segment.io.Corruption;
import dev.everett.segment.io.Envelope;
import dev.everett.segment.io.FileOutput;
import dev.everett.segment.io.LongList;
import dev.everett.segment.io.Sealer;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * Streams sorted records into a bit-unit native file, KV02 or KV03 as the policy says; the
 * {@link NativeWriter} a host holds delegates to it for bit-unit policies and keeps the writer's
 * state machine (refusal poisons it).
 *
 * <p>Keys come as byte strings: KV03's are the host's, KV02's already in their ordered string
 * form ({@link dev.everett.segment.bits.OrderedStrings}; {@link NativeWriter} encodes them). Both
 * store the logical key, the string sort's code {@code 0} then those bytes. Retention is the
 * exact maximal shared prefix of the logical keys in bits: KV03's record 0 keeps the code, KV02's
 * keeps nothing and spells the code in its literal.
 * The record stream goes straight to a temporary file at its final offset through a 64-bit
 * reservoir; memory holds the previous key and one block start per block. At {@link #finish()}
 * the stream is padded with zero bits to a byte, and the Elias–Fano directory (over bit
 * positions), the KV03 dictionary sections, the directory and the envelope follow.
 *
 * <p>KV02: counts are EG0, backspaces use the policy's code, each record carries EG0 of its
 * value's bit length unless the file has a common width. KV03 (docs/format.md, "KV03 body"): block
 * starts store EG0(retained), other records the backspace; then EG0 of the suffix bits, the
 * suffix, and the value, which delimits itself.
 */
final class BitNativeWriter {
    private static final HexFormat HEX = HexFormat.of();

    private final Policy policy;
    private final CommonWidthRule rule;
    private final boolean kv03;
    private final boolean optional;
    private final long blockWidth;
    private final boolean golomb;
    private final long parameter;
    /** The bit width every encoded value must have while streaming, or -1 (no common width yet). */
    private final long streamWidth;
    private final long fcStart;

    private AtomicFile out;
    private FileOutput fc;
    private BitOutput bits;
    /** Bit offsets (in the stream) of the block starts. */
    private final LongList blockStarts = new LongList();
    private byte[] previous = new byte[64];
    private int previousLength;
    private long count;
    private long firstWidth = -1;
    private boolean widthsAgree = true;

    BitNativeWriter(Path target, Policy policy, CommonWidthRule rule, long streamWidth) throws IOException {
        this.policy = policy;
        this.rule = rule;
        this.kv03 = policy.format() == SegmentFormat.KV03;
        this.optional = policy.grammar() == ValueGrammar.OPTIONAL;
        this.blockWidth = policy.blockWidth();
        this.golomb = policy.backspace().code() == BackspaceCode.GOLOMB;
        this.parameter = policy.backspace().parameter();
        this.streamWidth = streamWidth;
        this.fcStart = Envelope.BYTES + (kv03 ? Kv03Directory.BYTES : Kv02Directory.BYTES);
        this.out = new AtomicFile(target);
        this.fc = new FileOutput(out.channel(), fcStart);
        this.bits = new BitOutput(fc);
    }

    long recordCount() {
        return count;
    }

    Path temp() {
        return out.temp();
    }

    /** The encoded bit width of a value of {@code n} bytes ({@code present} false: a tombstone). */
    private long encodedWidth(boolean present, long n) {
        if (!present) {
            return 1;
        }
        long string = BitOutput.eg0Bits(n) + 8 * n;
        if (optional) {
            return 1 + string;
        }
        return kv03 ? string : 8 * n;
    }

    void append(byte[] key, int keyLength, byte[] value, int valueLength, boolean present) throws IOException {
        long encoded = encodedWidth(present, valueLength);
        if (streamWidth >= 0 && encoded != streamWidth) {
            throw new IllegalArgumentException("value of encoded width " + encoded + " bits where every value must be " + streamWidth
                    + " bits wide (key " + hex(key, keyLength) + ")");
        }
        long lcp = 0;
        if (count > 0) {
            int cmp = Arrays.compareUnsigned(previous, 0, previousLength, key, 0, keyLength);
            if (cmp >= 0) {
                throw new KeyOrderException(cmp == 0
                        ? "duplicate key " + hex(key, keyLength) + " (record " + count + ")"
                        : "key " + hex(key, keyLength) + " (record " + count + ") is not greater than the previous key " + hex(previous, previousLength));
            }
            lcp = BitStrings.commonPrefixBits(previous, previousLength, key, keyLength);
        }
        int path = Framing.KV03_PATH_BITS;
        long retained = count > 0 ? path + lcp : firstRetained();
        long length = path + 8L * keyLength;
        long previousBits = path + 8L * previousLength;
        BitOutput o = bits;
        header(retained, previousBits, length - retained, encoded);
        writeLiteral(key, retained, length - retained);
        if (optional) {
            o.writeBits(present ? 1 : 0, 1);
        }
        if (present) {
            if (optional || kv03) {
                o.writeEg0(valueLength);
            }
            o.writeBitsOf(value, 0, 8L * valueLength);
        }
        trackWidth(encoded);
        if (previous.length < keyLength) {
            previous = Arrays.copyOf(previous, Math.max(keyLength, previous.length * 2));
        }
        int keep = (int) (lcp >>> 3);
        System.arraycopy(key, keep, previous, keep, keyLength - keep);
        previousLength = keyLength;
        count++;
    }

    /**
     * Appends a record whose framing the caller worked out (the native merger), as
     * {@link NativeWriter#appendEncoded} describes, in bits: it keeps {@code retained} bits of the
     * previous host key and adds {@code literalLength} bits from bit {@code literalAt} of
     * {@code literal}; the encoded value is the bit span {@code [valueAt, valueAt + valueLength)}
     * of {@code value}, copied as is. A KV03 sort code is not part of these counts: this adds it,
     * so the framing is what {@link #append} writes for the same keys and values. Keeps no key
     * bytes (only the previous key's length).
     */
    void appendEncoded(long retained, MemorySegment literal, long literalAt, long literalLength,
                       MemorySegment value, long valueAt, long valueLength) throws IOException {
        if (streamWidth >= 0 && valueLength != streamWidth) {
            throw new IllegalArgumentException("value of encoded width " + valueLength + " bits where every value must be " + streamWidth + " bits wide");
        }
        long previousBits = 8L * previousLength;
        long keyBits = retained + literalLength;
        if (retained < 0 || retained > previousBits || (count > 0 && literalLength == 0) || (count == 0 && retained != 0)
                || (keyBits & 7) != 0 || keyBits >>> 3 > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("record " + count + " keeps " + retained + " of " + previousBits
                    + " bits and adds " + literalLength + ": not a strictly increasing key of whole bytes");
        }
        int path = Framing.KV03_PATH_BITS;
        long stored = count > 0 ? path + retained : firstRetained();
        header(stored, path + previousBits, path + retained + literalLength - stored, valueLength);
        if (stored < path) {
            bits.writeBits(0, path);
        }
        bits.writeBitsOf(literal, literalAt, literalLength);
        bits.writeBitsOf(value, valueAt, valueLength);
        trackWidth(valueLength);
        previousLength = (int) (keyBits >>> 3);
        count++;
    }

    /**
     * What record 0 retains, in logical bits: KV03 keeps its sort code (Everett's sort-owned
     * grammar), KV02 in bits keeps nothing (ABS 0) and spells the code in its literal, the code
     * being an ordinary first bit of every key there.
     */
    private long firstRetained() {
        return kv03 ? Framing.KV03_PATH_BITS : 0;
    }

    /** The literal of a logical key of the host bytes {@code key}: logical bits [retained, retained + n), the sort code {@code 0} first. */
    private void writeLiteral(byte[] key, long retained, long n) throws IOException {
        int path = Framing.KV03_PATH_BITS;
        if (retained < path) {
            bits.writeBits(0, (int) (path - retained));
            bits.writeBitsOf(key, 0, n - (path - retained));
        } else {
            bits.writeBitsOf(key, retained - path, n);
        }
    }

    /**
     * A record's framing up to its literal, in logical bits: EG0(retained) at a block start,
     * else the backspace from the previous key; EG0 of the literal's bits; KV02 without a
     * common width, EG0 of the encoded value's bits.
     */
    private void header(long retained, long previousBits, long literalBits, long encoded) throws IOException {
        BitOutput o = bits;
        if (count % blockWidth == 0) {
            blockStarts.add(o.bitPosition());
            o.writeEg0(retained);
        } else {
            backspace(o, previousBits - retained);
        }
        o.writeEg0(literalBits);
        if (!kv03 && streamWidth < 0) {
            o.writeEg0(encoded);
        }
    }

    /** Notes whether every value so far has the first one's encoded width (for the infer rule). */
    private void trackWidth(long encoded) {
        if (count == 0) {
            firstWidth = encoded;
        } else if (encoded != firstWidth) {
            widthsAgree = false;
        }
    }

    private void backspace(BitOutput o, long v) throws IOException {
        if (golomb) {
            o.writeGolomb(v, parameter);
        } else {
            o.writeExpGolomb(v, (int) parameter);
        }
    }

    private static String hex(byte[] b, int n) {
        String h = HEX.formatHex(b, 0, Math.min(n, 64));
        return "0x" + h + (n > 64 ? "…(" + n + " bytes)" : "");
    }

    SegmentInfo finish() throws IOException {
        long width = streamWidth;
        if (kv03 && !policy.valueWidth().isFixed()) {
            // KV03 always discovers its common width, whatever the rule (Everett's sort-profile
            // encoder): the first value's width, dropped at the first value of another width;
            // an empty file records 0 (a promised width if there was one, which Everett's KV03
            // writers have no way to ask for). Values delimit themselves, so nothing is
            // rewritten; the width sets the residual stride of the Elias–Fano directory.
            width = count == 0 ? Math.max(0, streamWidth) : widthsAgree ? firstWidth : -1;
        } else if (rule.kind() == CommonWidthRule.Kind.INFER && !policy.valueWidth().isFixed()) {
            if (count == 0) {
                width = 0;
            } else if (widthsAgree) {
                width = firstWidth;
                if (!kv03) {
                    dropValueLengths();
                }
            }
        }
        long extent = bits.bitPosition();
        bits.padToByte();
        long stride = Math.max(0, width);
        long[] residuals = new long[blockStarts.size() + 1];
        for (int j = 0; j < blockStarts.size(); j++) {
            residuals[j] = blockStarts.array()[j] - j * blockWidth * stride;
        }
        residuals[blockStarts.size()] = extent - count * stride;
        EliasFano ef = EliasFano.build(residuals, residuals.length);
        long terminal = count == 0 ? 0 : Framing.KV03_PATH_BITS + 8L * previousLength;
        long fcBytes = fc.position() - fcStart;
        NativeDirectory dir;
        byte[] directory;
        if (kv03) {
            Kv03Directory d = Kv03Directory.layout(extent, terminal, ef, count > 0);
            dir = d;
            directory = d.encode();
        } else {
            Kv02Directory d = Kv02Directory.layout(extent, fcBytes, terminal, ef);
            dir = d;
            directory = d.encode();
        }
        FileOutput body = new FileOutput(out.channel(), Envelope.BYTES);
        body.write(directory, 0, directory.length);
        body.flush();
        long[] offsets = dir.offsets();
        section(offsets[NativeDirectory.LOW]);
        fc.write(ef.low());
        fc.write(ef.high());
        fc.write(ef.samples());
        fc.write(ef.sparse());
        if (kv03) {
            Kv03Directory d = (Kv03Directory) dir;
            section(offsets[Kv03Directory.DICTIONARY]);
            byte[] dictionary = d.dictionary();
            fc.write(dictionary, 0, dictionary.length);
            section(offsets[Kv03Directory.DICTIONARY_OFFSETS]);
            fc.write(d.dictionaryOffsets());
            section(offsets[Kv03Directory.SEEDS]);
        }
        Sealer.BodyCrc crc = Sealer.BodyCrc.of(directory, fc, fcStart);
        if (crc.length() != dir.bodyBytes()) {
            throw new IllegalStateException("wrote " + crc.length() + " body bytes, directory says " + dir.bodyBytes());
        }
        Sealer.seal(out, Envelope.Kind.NATIVE, policy, width, count, crc);
        return new SegmentInfo(out.target(), count, Envelope.BYTES + crc.length(), width);
    }

    /** Zero gap up to the section at body offset {@code at}. */
    private void section(long at) throws IOException {
        fc.zeros(Envelope.BYTES + at - fc.position());
    }

    /**
     * KV02, inferred common width: every value had the same encoded width, so rewrite the record
     * stream once without the per-record value lengths. Block starts move with it.
     */
    private void dropValueLengths() throws IOException {
        long extent = bits.bitPosition();
        bits.padToByte();
        fc.flush();
        AtomicFile rewritten = new AtomicFile(out.target());
        try (Arena arena = Arena.ofConfined()) {
            long bytes = fc.position() - fcStart;
            MemorySegment old = out.channel().map(FileChannel.MapMode.READ_ONLY, fcStart, bytes, arena);
            FcStream stream = new FcStream(old, new Corruption(out.temp()), 0, extent, null, count, blockWidth, -1, true, 0, 0,
                    Framing.ofNatives(policy));
            BitFrame frame = new BitFrame();
            frame.bind(stream);
            frame.pos = 0;
            FileOutput next = new FileOutput(rewritten.channel(), fcStart);
            BitOutput o = new BitOutput(next);
            blockStarts.clear();
            long previousKey = 0;
            for (long r = 0; r < count; r++) {
                boolean blockStart = r % blockWidth == 0;
                frame.read(blockStart, previousKey, r == 0, 0);
                if (blockStart) {
                    blockStarts.add(o.bitPosition());
                    o.writeEg0(frame.retained);
                } else {
                    backspace(o, previousKey - frame.retained);
                }
                o.writeEg0(frame.suffixLength);
                o.writeBitsOf(old, frame.suffixAt, frame.suffixLength + frame.valueLength);
                previousKey = frame.keyLength();
            }
            fc = next;
            bits = o;
        } catch (IOException | RuntimeException e) {
            rewritten.close();
            throw e;
        }
        out.close();
        out = rewritten;
    }

    void close() throws IOException {
        out.close();
    }
}

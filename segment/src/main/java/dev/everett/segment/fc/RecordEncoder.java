package dev.everett.segment.fc;

import dev.everett.api.CommonWidthRule;
import dev.everett.api.KeyOrderException;
import dev.everett.segment.io.Corruption;
import dev.everett.segment.io.FileOutput;
import dev.everett.segment.io.LongList;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * Writes the records of one front-coded stream in the framing {@link Framing#newEncoder} chose
 * for a policy: the writing twin of {@link Frame}. The record grammar is the same in every
 * family — at a block start the retained prefix, else the backspace from the previous key; the
 * literal's length; the value's length unless the stream has a common width (KV03 values delimit
 * themselves); the literal; the value — and this class writes it once. A subclass supplies the
 * unit: {@link ByteRecordEncoder} (LEB128 counts, whole bytes), {@link BitRecordEncoder} (EG0
 * counts, the policy's backspace code, bits behind the sort code).
 *
 * <p>Memory holds the previous key (for order and retention) and one stream position per block;
 * the writer builds the block directory from {@link #blockStarts} at the end. Retention is the
 * exact maximal shared prefix, so the output is canonical.
 */
public abstract sealed class RecordEncoder permits ByteRecordEncoder, BitRecordEncoder {
    private static final HexFormat HEX = HexFormat.of();

    final Framing framing;
    final ValueCodec values;
    private final long blockWidth;
    /** The width every encoded value must have while streaming, or -1 (no common width yet). */
    private final long streamWidth;
    /** Whether each record carries its encoded value's length: KV02 framing without a common width. */
    private final boolean valueLengths;
    /** What record 0 retains: KV03 keeps its sort code, KV02 keeps nothing (bit units spell the code). */
    private final long firstRetained;
    /** The unit's name, for messages. */
    private final String unit;

    /** Stream positions (in units, from the stream's start) of the block starts. */
    private final LongList blockStarts = new LongList();
    private byte[] previous = new byte[64];
    private int previousLength;
    private long count;
    private final BlockCountdown blocks;
    private long firstWidth = -1;
    private boolean widthsAgree = true;
    /** The keys of records 0, K, 2K, … when the writer keeps them ({@link #sampleKeys}), else null. */
    private KeySamples samples;
    /** Whether the last record came through {@link #append} (its key is in {@link #previous}). */
    private boolean lastFromHostKey;

    RecordEncoder(Framing framing, ValueCodec values, long blockWidth, long streamWidth, String unit) {
        this.framing = framing;
        this.values = values;
        this.blockWidth = blockWidth;
        this.blocks = new BlockCountdown(blockWidth);
        this.streamWidth = streamWidth;
        this.valueLengths = framing.kind() != Framing.Kind.KV03 && streamWidth < 0;
        this.firstRetained = framing.kind() == Framing.Kind.KV03 ? framing.pathBits() : 0;
        this.unit = unit;
    }

    // The unit: how counts, backspaces, literals and copies are spelled.

    /** Units written since the stream's start. */
    abstract long position();

    /** A count: a block start's retained prefix, a literal's or a value's length. */
    abstract void writeCount(long v) throws IOException;

    abstract void writeBackspace(long v) throws IOException;

    /** Units {@code [from, from + n)} of the stored key of the host bytes {@code key} (the sort code first). */
    abstract void writeLiteral(byte[] key, long from, long n) throws IOException;

    /** {@code n} zero units: a sort code spelled again. */
    abstract void writeSortCode(long n) throws IOException;

    /** Copies {@code n} units of {@code s} from unit {@code at}. */
    abstract void copy(MemorySegment s, long at, long n) throws IOException;

    /** The encoded value of {@code value[0 .. n)}, or a tombstone. */
    abstract void writeValue(byte[] value, int n, boolean present) throws IOException;

    /** Units of the longest common prefix of two keys in their stored form. */
    abstract long commonPrefix(byte[] a, int aLength, byte[] b, int bLength);

    /** Units of {@code bytes} key bytes. */
    abstract long units(long bytes);

    /** The key as stored (KV02 in bits: its ordered string form); its length is {@link #storedLength}. */
    byte[] stored(byte[] key, int keyLength) {
        storedLength = keyLength;
        return key;
    }

    int storedLength;

    /** Ends the stream: pads it to a whole byte and hands everything to the output. Returns its extent in units. */
    public abstract long end() throws IOException;

    /** Continues in {@code next} (an output at the stream's start), for {@link #rewriteWithoutValueLengths}. */
    abstract void redirect(FileOutput next);

    // The records.

    public long count() {
        return count;
    }

    /**
     * Keeps the keys of records 0, K, 2K, … from now on (the stream must be empty) in
     * {@code into}, and returns it. Byte units only: a bit-unit stream's keys are not kept.
     */
    public KeySamples sampleKeys(KeySamples into) {
        if (count != 0 || framing.kind() != Framing.Kind.BYTES) {
            throw new IllegalStateException("key samples are kept from the first record of a byte-unit stream");
        }
        samples = into;
        return into;
    }

    /** The block starts, in units from the stream's start; valid in [0, {@code size()}). */
    public LongList blockStarts() {
        return blockStarts;
    }

    /** The last key's length in units (of its stored form, sort code included); 0 when empty. */
    public long terminalLength() {
        return count == 0 ? 0 : framing.pathBits() + units(previousLength);
    }

    /** The unit's name ("bytes" or "bits"), for messages. */
    public String unit() {
        return unit;
    }

    /**
     * Appends a record from the host's key and value ({@code present} false: a tombstone).
     *
     * @throws IllegalArgumentException if the value's encoded width breaks the common width
     * @throws KeyOrderException        if the key is not greater than the previous one
     */
    public final void append(byte[] hostKey, int hostLength, byte[] value, int valueLength, boolean present) throws IOException {
        byte[] key = stored(hostKey, hostLength);
        int keyLength = storedLength;
        long encoded = values.encodedLength(present, valueLength);
        if (streamWidth >= 0 && encoded != streamWidth) {
            throw new IllegalArgumentException("value of encoded width " + encoded + " " + unit + " where every value must be " + streamWidth
                    + " " + unit + " wide (key " + hex(key, keyLength) + ")");
        }
        long lcp = 0;
        if (count > 0) {
            int cmp = Arrays.compareUnsigned(previous, 0, previousLength, key, 0, keyLength);
            if (cmp >= 0) {
                throw new KeyOrderException(cmp == 0
                        ? "duplicate key " + hex(key, keyLength) + " (record " + count + ")"
                        : "key " + hex(key, keyLength) + " (record " + count + ") is not greater than the previous key " + hex(previous, previousLength));
            }
            lcp = commonPrefix(previous, previousLength, key, keyLength);
        }
        long path = framing.pathBits();
        long retained = count > 0 ? path + lcp : firstRetained;
        long length = path + units(keyLength);
        header(retained, path + units(previousLength), length - retained, encoded);
        writeLiteral(key, retained, length - retained);
        writeValue(value, valueLength, present);
        trackWidth(encoded);
        if (previous.length < keyLength) {
            // Grow keeping the retained prefix: only the bytes from the first differing one are copied below.
            previous = Arrays.copyOf(previous, Math.max(keyLength, previous.length * 2));
        }
        int keep = (int) (lcp / units(1));
        System.arraycopy(key, keep, previous, keep, keyLength - keep);
        previousLength = keyLength;
        if (samples != null) {
            samples.key(key, keyLength);
        }
        lastFromHostKey = true;
        count++;
    }

    /**
     * Appends a record whose framing the caller worked out (the native merger): it keeps
     * {@code retained} units of the previous stored key (no sort code) and adds the literal
     * {@code literal[literalAt .. + literalLength)}, with the encoded value
     * {@code value[valueAt .. + valueLength)}; both are copied as they are. The sort code is
     * added here, so the framing is what {@link #append} writes for the same keys and values.
     * Keeps only the previous key's length: the caller answers for key order.
     */
    public final void appendEncoded(long retained, MemorySegment literal, long literalAt, long literalLength,
                                    MemorySegment value, long valueAt, long valueLength) throws IOException {
        // The merger's per-record call: the refusals and the key samples are out of line, so the
        // JIT inlines this into the merge loop (a hot method of more than FreqInlineSize bytecodes is called).
        long previousUnits = units(previousLength);
        long keyUnits = retained + literalLength;
        if ((streamWidth >= 0 && valueLength != streamWidth) || retained < 0 || retained > previousUnits
                || (count > 0 ? literalLength == 0 : retained != 0)
                || keyUnits % units(1) != 0 || keyUnits / units(1) > Integer.MAX_VALUE - 16) {
            throw notEncodable(retained, previousUnits, literalLength, valueLength);
        }
        long path = framing.pathBits();
        long stored = count > 0 ? path + retained : firstRetained;
        header(stored, path + previousUnits, path + keyUnits - stored, valueLength);
        if (stored < path) {
            writeSortCode(path - stored);
        }
        copy(literal, literalAt, literalLength);
        copy(value, valueAt, valueLength);
        trackWidth(valueLength);
        int oldLength = previousLength;
        previousLength = (int) (keyUnits / units(1));
        if (samples != null) {
            sampleEncoded(oldLength, retained, literal, literalAt, literalLength);
        }
        lastFromHostKey = false;
        count++;
    }

    /** Why {@link #appendEncoded} refuses a record: its value's width, or its key's framing. */
    private IllegalArgumentException notEncodable(long retained, long previousUnits, long literalLength, long valueLength) {
        if (streamWidth >= 0 && valueLength != streamWidth) {
            return new IllegalArgumentException("value of encoded width " + valueLength + " " + unit + " where every value must be " + streamWidth
                    + " " + unit + " wide");
        }
        return new IllegalArgumentException("record " + count + " keeps " + retained + " of " + previousUnits
                + " " + unit + " and adds " + literalLength + ": not a strictly increasing key of whole bytes");
    }

    /** Keeps the key of an encoded record in the samples (the previous key had {@code oldLength} bytes). */
    private void sampleEncoded(int oldLength, long retained, MemorySegment literal, long literalAt, long literalLength) {
        if (lastFromHostKey) {
            samples.previousKey(previous, oldLength); // the samples keep no running key for host keys
        }
        samples.encoded(retained, literal, literalAt, literalLength);
    }

    /** A record's framing up to its literal. */
    private void header(long retained, long previousUnits, long literalUnits, long encoded) throws IOException {
        if (blocks.next()) {
            blockStarts.add(position());
            writeCount(retained);
        } else {
            writeBackspace(previousUnits - retained);
        }
        writeCount(literalUnits);
        if (valueLengths) {
            writeCount(encoded);
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

    /**
     * The common width the finished stream records, or -1. Under the infer rule (policies without
     * a fixed width) a KV02 stream has one when every value had the first one's width (0 when
     * empty). KV03 always discovers it, whatever the rule (Everett's sort-profile encoder): the
     * first value's width, dropped at the first value of another width; an empty file records 0
     * (a promised width if there was one, which Everett's KV03 writers have no way to ask for).
     */
    public long commonWidth(CommonWidthRule rule, boolean fixedByPolicy) {
        if (fixedByPolicy) {
            return streamWidth;
        }
        if (framing.kind() == Framing.Kind.KV03) {
            return count == 0 ? Math.max(0, streamWidth) : widthsAgree ? firstWidth : -1;
        }
        if (rule.kind() == CommonWidthRule.Kind.INFER) {
            return count == 0 ? 0 : widthsAgree ? firstWidth : streamWidth;
        }
        return streamWidth;
    }

    /** True if the stream must be rewritten for {@code width}: its records carry value lengths that a common width drops. */
    public boolean carriesLengthsFor(long width) {
        return valueLengths && width >= 0 && count > 0;
    }

    /**
     * Rewrites the {@link #end ended} stream {@code old} (its first {@code extent} units) into
     * {@code next} without the per-record value lengths, for a common width found at the end;
     * the block starts move with it. Encoding continues in {@code next}.
     */
    public void rewriteWithoutValueLengths(MemorySegment old, Corruption corruption, long extent, FileOutput next) throws IOException {
        FcStream stream = new FcStream(old, corruption, 0, extent, null, count, blockWidth, -1, true, 0, 0, framing);
        Frame frame = framing.newFrame();
        frame.bind(stream);
        frame.pos = 0;
        redirect(next);
        blockStarts.clear();
        long previousKey = 0;
        BlockCountdown rewritten = new BlockCountdown(blockWidth);
        for (long r = 0; r < count; r++) {
            boolean blockStart = rewritten.next();
            frame.read(blockStart, previousKey, r == 0, 0);
            if (blockStart) {
                blockStarts.add(position());
                writeCount(frame.retained);
            } else {
                writeBackspace(previousKey - frame.retained);
            }
            writeCount(frame.suffixLength);
            copy(old, frame.suffixAt, frame.suffixLength + frame.valueLength);
            previousKey = frame.keyLength();
        }
    }

    private static String hex(byte[] b, int n) {
        String h = HEX.formatHex(b, 0, Math.min(n, 64));
        return "0x" + h + (n > 64 ? "…(" + n + " bytes)" : "");
    }
}

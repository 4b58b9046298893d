package dev.everett.segment.natives;

import dev.everett.api.CommonWidthRule;
import dev.everett.api.KeyOrderException;
import dev.everett.api.Policy;
import dev.everett.api.SegmentInfo;
import dev.everett.api.SegmentWriter;
import dev.everett.api.Unit;
import dev.everett.api.ValueGrammar;
import dev.everett.segment.bits.EliasFano;
import dev.everett.segment.bits.OrderedStrings;
import dev.everett.segment.fc.ByteFrame;
import dev.everett.segment.fc.Framing;
import dev.everett.segment.fc.OptionalValue;
import dev.everett.segment.io.AtomicFile;
import dev.everett.segment.io.Corruption;
import dev.everett.segment.io.Envelope;
import dev.everett.segment.io.FileOutput;
import dev.everett.segment.io.LongList;
import dev.everett.segment.io.Sealer;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * Streams sorted records into a native file. Bit-unit policies (KV02 bit, KV03) are encoded by a
 * {@link BitNativeWriter}, to which this writer delegates while keeping the state machine; the
 * rest of this comment is about byte-unit KV02. The FC stream goes straight to a temporary file
 * at its final offset (after the 96-byte envelope and the 128-byte directory) through one
 * buffer; memory holds only the previous key and one residual per block, from which the
 * Elias–Fano directory is built at {@link #finish()}. Retention is the exact maximal shared
 * prefix, so the output is canonical.
 */
public final class NativeWriter implements SegmentWriter {
    private static final long FC_START = Envelope.BYTES + Kv02Directory.BYTES;
    private static final HexFormat HEX = HexFormat.of();

    private enum State { OPEN, POISONED, FINISHED, CLOSED }

    private final Policy policy;
    private final CommonWidthRule rule;
    private final long blockWidth;
    private final boolean optional;
    /** The width every encoded value must have while streaming, or -1 (VLEN written). */
    private final long streamWidth;

    private AtomicFile out;
    private FileOutput fc;
    private final LongList residuals = new LongList();
    private byte[] previous = new byte[64];
    private int previousLength;
    private long count;
    private long firstWidth = -1;
    private boolean widthsAgree = true;
    private State state = State.OPEN;
    /** Set once {@link #appendEncoded} has been used: the previous key's bytes are no longer kept. */
    private boolean encodedOnly;
    private byte[] keyScratch = new byte[64];
    private byte[] valueScratch = new byte[64];
    /** Bit-unit policies (KV02 bit, KV03): the writer that encodes, this one keeps the state. */
    private final BitNativeWriter bits;
    /** KV02 in bits: keys are stored in their ordered string form, encoded into this buffer. */
    private final boolean orderedStrings;
    private byte[] orderedScratch = new byte[64];

    public NativeWriter(Path target, Policy policy, CommonWidthRule rule) throws IOException {
        this.policy = policy;
        this.rule = rule;
        this.blockWidth = policy.blockWidth();
        this.optional = policy.grammar() == ValueGrammar.OPTIONAL;
        this.orderedStrings = Framing.orderedStrings(policy);
        if (policy.valueWidth().isFixed()) {
            if (rule.kind() == CommonWidthRule.Kind.PROMISED && rule.width() != policy.valueWidth().units()) {
                throw new IllegalArgumentException("promised width " + rule.width() + " contradicts the policy's fixed width " + policy.valueWidth().units());
            }
            this.streamWidth = policy.valueWidth().units();
        } else {
            this.streamWidth = rule.kind() == CommonWidthRule.Kind.PROMISED ? rule.width() : -1;
        }
        if (policy.unit() == Unit.BIT) {
            this.bits = new BitNativeWriter(target, policy, rule, streamWidth);
            return;
        }
        this.bits = null;
        this.out = new AtomicFile(target);
        this.fc = new FileOutput(out.channel(), FC_START);
    }

    @Override
    public void put(byte[] key, byte[] value) throws IOException {
        append(key, key.length, value, value.length, true);
    }

    @Override
    public void put(MemorySegment key, MemorySegment value) throws IOException {
        int k = copyKey(key);
        int v = checkedLength(value.byteSize(), "value");
        if (valueScratch.length < v) {
            valueScratch = new byte[Math.max(v, valueScratch.length * 2)];
        }
        MemorySegment.copy(value, ValueLayout.JAVA_BYTE, 0, valueScratch, 0, v);
        append(keyScratch, k, valueScratch, v, true);
    }

    @Override
    public void delete(byte[] key) throws IOException {
        append(key, key.length, null, 0, false);
    }

    @Override
    public void delete(MemorySegment key) throws IOException {
        int k = copyKey(key);
        append(keyScratch, k, null, 0, false);
    }

    private int copyKey(MemorySegment key) {
        int k = checkedLength(key.byteSize(), "key");
        if (keyScratch.length < k) {
            keyScratch = new byte[Math.max(k, keyScratch.length * 2)];
        }
        MemorySegment.copy(key, ValueLayout.JAVA_BYTE, 0, keyScratch, 0, k);
        return k;
    }

    private static int checkedLength(long n, String what) {
        if (n > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException(what + " of " + n + " bytes exceeds the 2 GiB limit");
        }
        return (int) n;
    }

    private void append(byte[] key, int keyLength, byte[] value, int valueLength, boolean present) throws IOException {
        requireOpen();
        if (encodedOnly) {
            throw new IllegalStateException("this writer takes encoded records only (it no longer holds the previous key)");
        }
        if (!present && !optional) {
            throw poison(new IllegalArgumentException("a tombstone needs the OPTIONAL value grammar; this policy's values are RAW"));
        }
        if (bits != null) {
            try {
                if (orderedStrings) {
                    // KV02 in bits stores the key's ordered string form (docs/format.md, "Keys").
                    int n = OrderedStrings.length(key, keyLength);
                    if (orderedScratch.length < n) {
                        orderedScratch = new byte[Math.max(n, orderedScratch.length * 2)];
                    }
                    OrderedStrings.encode(key, keyLength, orderedScratch);
                    bits.append(orderedScratch, n, value, valueLength, present);
                    return;
                }
                bits.append(key, keyLength, value, valueLength, present);
            } catch (RuntimeException e) {
                throw poison(e);
            }
            return;
        }
        long encoded = optional ? (present ? 1L + valueLength : 1L) : valueLength;
        if (streamWidth >= 0 && encoded != streamWidth) {
            throw poison(new IllegalArgumentException("value of encoded width " + encoded + " where every value must be " + streamWidth
                    + " units wide (key " + hex(key, keyLength) + ")"));
        }
        int lcp = 0;
        if (count > 0) {
            int cmp = Arrays.compareUnsigned(previous, 0, previousLength, key, 0, keyLength);
            if (cmp >= 0) {
                throw poison(new KeyOrderException(cmp == 0
                        ? "duplicate key " + hex(key, keyLength) + " (record " + count + ")"
                        : "key " + hex(key, keyLength) + " (record " + count + ") is not greater than the previous key " + hex(previous, previousLength)));
            }
            lcp = Arrays.mismatch(previous, 0, previousLength, key, 0, keyLength);
        }
        if (count % blockWidth == 0) {
            residuals.add(fc.position() - FC_START - count * Math.max(0, streamWidth));
            fc.writeVarint(lcp);
        } else {
            fc.writeVarint(previousLength - lcp);
        }
        fc.writeVarint(keyLength - lcp);
        if (streamWidth < 0) {
            fc.writeVarint(encoded);
        }
        fc.write(key, lcp, keyLength - lcp);
        if (optional) {
            fc.writeByte(present ? OptionalValue.PRESENT : OptionalValue.ABSENT);
        }
        if (present) {
            fc.write(value, 0, valueLength);
        }
        if (count == 0) {
            firstWidth = encoded;
        } else if (encoded != firstWidth) {
            widthsAgree = false;
        }
        if (previous.length < keyLength) {
            // Grow keeping the retained prefix [0, lcp): only the suffix is copied below.
            previous = Arrays.copyOf(previous, Math.max(keyLength, previous.length * 2));
        }
        System.arraycopy(key, lcp, previous, lcp, keyLength - lcp);
        previousLength = keyLength;
        count++;
    }

    /**
     * Appends a record whose framing the caller has worked out (the native merger): it keeps
     * {@code retained} units of the previous key (at most that key's length) and adds the
     * literal {@code literal[literalAt .. + literalLength)}, with the encoded value
     * {@code value[valueAt .. + valueLength)}; both are copied straight from the sources. The
     * caller answers for key order (the merger checks its inputs); this writer keeps only the
     * previous key's length, so a writer used this way refuses {@link #put}. Bit-unit policies
     * take positions and lengths in bits ({@link BitNativeWriter#appendEncoded}); for KV02 in bits
     * the key bits are those of the ordered string form, as {@code EncodedRecords} gives them.
     */
    public void appendEncoded(long retained, MemorySegment literal, long literalAt, long literalLength,
                       MemorySegment value, long valueAt, long valueLength) throws IOException {
        requireOpen();
        encodedOnly = true;
        if (bits != null) {
            try {
                bits.appendEncoded(retained, literal, literalAt, literalLength, value, valueAt, valueLength);
            } catch (RuntimeException e) {
                throw poison(e);
            }
            return;
        }
        if (streamWidth >= 0 && valueLength != streamWidth) {
            throw poison(new IllegalArgumentException("value of encoded width " + valueLength + " where every value must be " + streamWidth + " units wide"));
        }
        if (retained < 0 || retained > previousLength || (count > 0 && literalLength == 0) || (count == 0 && retained != 0)) {
            throw poison(new IllegalArgumentException("record " + count + " keeps " + retained + " of " + previousLength
                    + " units and adds " + literalLength + ": not a strictly increasing key"));
        }
        if (count % blockWidth == 0) {
            residuals.add(fc.position() - FC_START - count * Math.max(0, streamWidth));
            fc.writeVarint(retained);
        } else {
            fc.writeVarint(previousLength - retained);
        }
        fc.writeVarint(literalLength);
        if (streamWidth < 0) {
            fc.writeVarint(valueLength);
        }
        fc.write(literal, literalAt, literalLength);
        fc.write(value, valueAt, valueLength);
        if (count == 0) {
            firstWidth = valueLength;
        } else if (valueLength != firstWidth) {
            widthsAgree = false;
        }
        previousLength = Math.toIntExact(retained + literalLength);
        count++;
    }

    private RuntimeException poison(RuntimeException e) {
        state = State.POISONED;
        return e;
    }

    private void requireOpen() {
        switch (state) {
            case OPEN -> { }
            case POISONED -> throw new IllegalStateException("writer refused an earlier record and publishes nothing; close it");
            case FINISHED -> throw new IllegalStateException("writer already finished");
            case CLOSED -> throw new IllegalStateException("writer closed");
        }
    }

    private static String hex(byte[] b, int n) {
        String h = HEX.formatHex(b, 0, Math.min(n, 64));
        return "0x" + h + (n > 64 ? "…(" + n + " bytes)" : "");
    }

    @Override
    public long recordCount() {
        return bits != null ? bits.recordCount() : count;
    }

    @Override
    public SegmentInfo finish() throws IOException {
        requireOpen();
        state = State.POISONED; // a failure below leaves nothing publishable
        if (bits != null) {
            SegmentInfo info = bits.finish();
            state = State.FINISHED;
            return info;
        }
        fc.flush();
        long width = streamWidth;
        if (rule.kind() == CommonWidthRule.Kind.INFER && !policy.valueWidth().isFixed()) {
            if (count == 0) {
                width = 0;
            } else if (widthsAgree) {
                width = firstWidth;
                dropValueLengths(width);
            }
        }
        long fcExtent = fc.position() - FC_START;
        residuals.add(fcExtent - count * Math.max(0, width));
        EliasFano ef = EliasFano.build(residuals.array(), residuals.size());
        Kv02Directory dir = Kv02Directory.layout(fcExtent, fcExtent, count == 0 ? 0 : previousLength, ef);
        byte[] directory = dir.encode();
        FileOutput body = new FileOutput(out.channel(), Envelope.BYTES);
        body.write(directory, 0, Kv02Directory.BYTES);
        body.flush();
        // The sections follow the FC stream in the same output, so its running CRC covers them.
        fc.zeros(Envelope.BYTES + dir.offsets()[Kv02Directory.LOW] - fc.position());
        fc.write(ef.low());
        fc.write(ef.high());
        fc.write(ef.samples());
        fc.write(ef.sparse());
        Sealer.BodyCrc crc = Sealer.BodyCrc.of(directory, fc, FC_START);
        if (crc.length() != dir.bodyBytes()) {
            throw new IllegalStateException("wrote " + crc.length() + " body bytes, directory says " + dir.bodyBytes());
        }
        Sealer.seal(out, Envelope.Kind.NATIVE, policy, width, count, crc);
        state = State.FINISHED;
        return new SegmentInfo(out.target(), count, Envelope.BYTES + crc.length(), width);
    }

    /**
     * Inferred common width: every value had the same encoded width, so rewrite the FC stream
     * once without the per-record value lengths, recomputing the block residuals.
     */
    private void dropValueLengths(long width) throws IOException {
        AtomicFile rewritten = new AtomicFile(out.target());
        try (Arena arena = Arena.ofConfined()) {
            long extent = fc.position() - FC_START;
            MemorySegment old = out.channel().map(FileChannel.MapMode.READ_ONLY, FC_START, extent, arena);
            FileOutput next = new FileOutput(rewritten.channel(), FC_START);
            ByteFrame frame = new ByteFrame(old, new Corruption(out.temp()), extent, -1);
            residuals.clear();
            long previousKey = 0;
            for (long o = 0; o < count; o++) {
                boolean blockStart = o % blockWidth == 0;
                frame.read(blockStart, previousKey, o == 0, 0);
                if (blockStart) {
                    residuals.add(next.position() - FC_START - o * width);
                    next.writeVarint(frame.retained);
                } else {
                    next.writeVarint(previousKey - frame.retained);
                }
                next.writeVarint(frame.suffixLength);
                copy(old, frame.suffixAt, frame.suffixLength + frame.valueLength, next);
                previousKey = frame.keyLength();
            }
            next.flush();
            fc = next;
        } catch (IOException | RuntimeException e) {
            rewritten.close();
            throw e;
        }
        out.close();
        out = rewritten;
    }

    private void copy(MemorySegment from, long at, long length, FileOutput to) throws IOException {
        while (length > 0) {
            int n = (int) Math.min(length, valueScratch.length);
            MemorySegment.copy(from, ValueLayout.JAVA_BYTE, at, valueScratch, 0, n);
            to.write(valueScratch, 0, n);
            at += n;
            length -= n;
        }
    }

    @Override
    public void close() throws IOException {
        if (state != State.FINISHED) {
            state = State.CLOSED;
            if (bits != null) {
                bits.close();
            } else {
                out.close();
            }
        }
    }
}

package dev.everett.segment.natives;

import dev.everett.api.CommonWidthRule;
import dev.everett.api.Policy;
import dev.everett.api.SegmentInfo;
import dev.everett.api.SegmentWriter;
import dev.everett.segment.bits.EliasFano;
import dev.everett.segment.fc.Framing;
import dev.everett.segment.fc.KeySamples;
import dev.everett.segment.fc.RecordEncoder;
import dev.everett.segment.io.AtomicFile;
import dev.everett.segment.io.Corruption;
import dev.everett.segment.io.Envelope;
import dev.everett.segment.io.FileOutput;
import dev.everett.segment.io.LongList;
import dev.everett.segment.io.MappedFile;
import dev.everett.segment.io.Sealer;
import dev.everett.segment.io.WrittenFiles;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;

/**
 * Streams sorted records into a native file, KV02 (byte or bit units) or KV03 as the policy says.
 * This class keeps the state machine (a refused or failed record poisons the writer) and the file: the
 * records go straight to a temporary file at their final offset (after the 96-byte envelope and
 * the format's directory) through the {@link RecordEncoder} that {@link Framing#newEncoder}
 * chose for the policy; memory holds only the previous key and one position per block, from
 * which the Elias–Fano directory is built at {@link #finish()} (and, for byte units, every K-th
 * key for the index build above the file when it is an object store's native, bounded:
 * {@link KeySamples}). Then come the sections, the
 * directory and the envelope, and the file is published atomically.
 */
public final class NativeWriter implements SegmentWriter {
    private enum State { OPEN, POISONED, FINISHED, CLOSED }

    private final Policy policy;
    private final CommonWidthRule rule;
    private final Framing framing;
    /** File offset of the record stream: after the envelope and the format's directory. */
    private final long fcStart;

    private AtomicFile out;
    private FileOutput fc;
    private final RecordEncoder records;
    /**
     * The keys of records 0, K, 2K, … (byte units), handed with the sealed file to the index
     * build of the routing catalog above it ({@link WrittenFiles#takeSamples}); null for bit units.
     */
    private final KeySamples samples;
    private State state = State.OPEN;
    /** Set once {@link #appendEncoded} has been used: the previous key's bytes are no longer kept. */
    private boolean encodedOnly;
    private byte[] keyScratch = new byte[64];
    private byte[] valueScratch = new byte[64];

    public NativeWriter(Path target, Policy policy, CommonWidthRule rule) throws IOException {
        this.policy = policy;
        this.rule = rule;
        this.framing = Framing.ofNatives(policy);
        long streamWidth;
        if (policy.valueWidth().isFixed()) {
            if (rule.kind() == CommonWidthRule.Kind.PROMISED && rule.width() != policy.valueWidth().units()) {
                throw new IllegalArgumentException("promised width " + rule.width() + " contradicts the policy's fixed width " + policy.valueWidth().units());
            }
            streamWidth = policy.valueWidth().units();
        } else {
            streamWidth = rule.kind() == CommonWidthRule.Kind.PROMISED ? rule.width() : -1;
        }
        this.fcStart = Envelope.BYTES + NativeDirectory.bytes(framing);
        this.out = new AtomicFile(target);
        this.fc = new FileOutput(out.channel(), fcStart);
        this.records = Framing.newEncoder(policy, fc, streamWidth);
        // Only an object store builds an index over a native it holds, and only then are the
        // samples read: a native written anywhere else (a merge into a plain file, an engine's
        // writer) would copy every record's literal into the running key for nothing.
        // Where that store keeps key filters, the filter is built from the keys' hashes too.
        this.samples = framing.kind() == Framing.Kind.BYTES && out.storeObject()
                ? records.sampleKeys(new KeySamples(policy.groupSize(), WrittenFiles.keepsHashes(out.target()))) : null;
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
        try {
            records.append(key, keyLength, value, valueLength, present);
        } catch (IOException | RuntimeException | Error e) {
            poison();
            throw e;
        }
    }

    /**
     * Appends a record whose framing the caller has worked out (the native merger): it keeps
     * {@code retained} units of the previous key (at most that key's length) and adds the
     * literal {@code literal[literalAt .. + literalLength)}, with the encoded value
     * {@code value[valueAt .. + valueLength)}; both are copied straight from the sources. The
     * caller answers for key order (the merger checks its inputs); this writer keeps only the
     * previous key's length, so a writer used this way refuses {@link #put}. Bit-unit policies
     * take positions and lengths in bits ({@link RecordEncoder#appendEncoded}); for KV02 in bits
     * the key bits are those of the ordered string form, as {@code EncodedRecords} gives them.
     */
    public void appendEncoded(long retained, MemorySegment literal, long literalAt, long literalLength,
                       MemorySegment value, long valueAt, long valueLength) throws IOException {
        requireOpen();
        encodedOnly = true;
        try {
            records.appendEncoded(retained, literal, literalAt, literalLength, value, valueAt, valueLength);
        } catch (IOException | RuntimeException | Error e) {
            poison();
            throw e;
        }
    }

    /**
     * Marks the writer as failed. A refusal leaves nothing behind, but a failed write (an
     * {@link IOException} from the file, say a full disk) may leave part of a record in the
     * buffer or the file, so no later record, and no finish, may follow either.
     */
    private void poison() {
        state = State.POISONED;
    }

    private void requireOpen() {
        switch (state) {
            case OPEN -> { }
            case POISONED -> throw new IllegalStateException("writer refused or failed to write an earlier record and publishes nothing; close it");
            case FINISHED -> throw new IllegalStateException("writer already finished");
            case CLOSED -> throw new IllegalStateException("writer closed");
        }
    }

    @Override
    public long recordCount() {
        return records.count();
    }

    @Override
    public SegmentInfo finish() throws IOException {
        requireOpen();
        state = State.POISONED; // a failure below leaves nothing publishable
        long extent = records.end();
        fc.flush();
        long count = records.count();
        long width = records.commonWidth(rule, policy.valueWidth().isFixed());
        if (records.carriesLengthsFor(width)) {
            extent = dropValueLengths(extent);
        }
        // Block j's Elias–Fano residual is its start less the common-width values before it.
        long stride = Math.max(0, width);
        LongList starts = records.blockStarts();
        long[] residuals = new long[starts.size() + 1];
        for (int j = 0; j < starts.size(); j++) {
            residuals[j] = starts.array()[j] - j * policy.blockWidth() * stride;
        }
        residuals[starts.size()] = extent - count * stride;
        EliasFano ef = EliasFano.build(residuals, residuals.length);
        NativeDirectory dir = NativeDirectory.layout(framing, extent, fc.position() - fcStart, records.terminalLength(), ef, count > 0);
        byte[] directory = dir.encode();
        FileOutput body = new FileOutput(out.channel(), Envelope.BYTES);
        body.write(directory, 0, directory.length);
        body.flush();
        // The sections follow the record stream in the same output, so its running CRC covers them.
        long[] offsets = dir.offsets();
        section(offsets[NativeDirectory.LOW]);
        fc.write(ef.low());
        fc.write(ef.high());
        fc.write(ef.samples());
        fc.write(ef.sparse());
        dir.writeTrailingSections(fc, this::section);
        Sealer.BodyCrc crc = Sealer.BodyCrc.of(directory, fc, fcStart);
        if (crc.length() != dir.bodyBytes()) {
            throw new IllegalStateException("wrote " + crc.length() + " body bytes, directory says " + dir.bodyBytes());
        }
        Sealer.seal(out, Envelope.Kind.NATIVE, policy, width, count, crc, samples);
        state = State.FINISHED;
        return new SegmentInfo(out.target(), count, Envelope.BYTES + crc.length(), width);
    }

    /** Zero gap up to the section at body offset {@code at}. */
    private void section(long at) throws IOException {
        fc.zeros(Envelope.BYTES + at - fc.position());
    }

    /**
     * Inferred common width: every value had the same encoded width, so rewrite the record
     * stream once, without the per-record value lengths, into a fresh temporary file.
     *
     * @return the new stream's extent in units
     */
    private long dropValueLengths(long extent) throws IOException {
        AtomicFile rewritten = new AtomicFile(out.target());
        long newExtent;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment old = MappedFile.map(out.channel(), fcStart, fc.position() - fcStart, arena);
            FileOutput next = new FileOutput(rewritten.channel(), fcStart);
            records.rewriteWithoutValueLengths(old, new Corruption(out.temp()), extent, next);
            newExtent = records.end();
            next.flush();
            fc = next;
        } catch (IOException | RuntimeException e) {
            rewritten.close();
            throw e;
        }
        out.close();
        out = rewritten;
        return newExtent;
    }

    @Override
    public void close() throws IOException {
        if (state != State.FINISHED) {
            state = State.CLOSED;
            out.close();
        }
    }
}

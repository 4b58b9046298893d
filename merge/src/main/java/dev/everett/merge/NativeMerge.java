package dev.everett.merge;

import dev.everett.api.CorruptSegmentException;
import dev.everett.api.KeyedValueMerger;
import dev.everett.api.MergeBuilder;
import dev.everett.api.MergeJob;
import dev.everett.api.MergeOutput;
import dev.everett.api.MergeProgress;
import dev.everett.api.Policy;
import dev.everett.api.SegmentInfo;
import dev.everett.api.SegmentReader;
import dev.everett.api.TombstonePolicy;
import dev.everett.api.ValueGrammar;
import dev.everett.api.ValueMerger;
import dev.everett.segment.encoded.EncodedOutput;
import dev.everett.segment.encoded.EncodedRecords;
import dev.everett.segment.encoded.EncodedValues;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

/**
 * The encoded-cursor native merge of k sorted runs (oldest first) into one new segment.
 *
 * <p>Keys are never built: each input's key is a stack of spans into its mapped file
 * ({@link SpanKey}), a loser tree with LCPs picks the smallest ({@link LoserTree}), and the
 * output record keeps exactly the prefix it shares with the last output, which the tree already
 * knows. The output literal is the input's own literal with its front trimmed, copied straight
 * from the input file, because the shared prefix with the last output is never shorter than the
 * prefix the input record kept. Equal keys are folded oldest to newest through the value merger
 * (newer wins by default). Only a key-aware merger, a dropped tombstone or the tombstone literal
 * cap make the merge rebuild key units, and then only those it needs.
 *
 * <p>Units are the inputs' (their family decides, through {@link EncodedRecords}): bytes, or bits for KV02 bit and
 * KV03, where every length, LCP and position (literal, value) counts bits and a value is the
 * encoded bit span of its input, copied as is. Only value callbacks decode values (through
 * {@link EncodedValues}) and encode their results back.
 *
 * <p>A split merge rolls over to a new output before the first key it writes once the current
 * output holds about the target bytes: that key is written with nothing retained, its prefix
 * taken from the input's key spans as for the first record of any output.
 */
final class NativeMerge implements MergeJob {
    private enum State { RUNNING, FINISHED, POISONED, CLOSED }

    /** Opens output {@code ordinal} of a (possibly split) merge. */
    interface Outputs {
        EncodedOutput open(int ordinal) throws IOException;
    }

    private final SpanKey[] inputs;
    private final EncodedRecords[] runs;
    private final LoserTree tree;
    private final Outputs outputs;
    private final long splitBytes;
    private EncodedOutput output;
    /** The current output's encoded key and value bytes (estimated in bit units) and tombstones. */
    private long outputBytes;
    private long outputTombstones;
    /** Outputs published by rolling over; deleted again if the merge does not finish. */
    private final List<MergeOutput> rolled = new ArrayList<>();
    private final boolean optional;
    /** The inputs' unit family (one policy, so the first input's): all unit arithmetic goes through it. */
    private final EncodedRecords family;
    private final EncodedValues codec;
    private final ValueMerger values;
    private final KeyedValueMerger keyedValues;
    private final TombstonePolicy tombstones;
    private final boolean capTombstoneLiterals;
    private State state = State.RUNNING;
    private long keys;
    private long inputRecords;
    /** Keys written so far, and the smallest LCP along the keys dropped since the last one written. */
    private long written;
    private long dropFloor = Long.MAX_VALUE;
    private byte[] scratch = new byte[64];
    private byte[] keyScratch = new byte[64];
    private byte[] valueScratch = new byte[64];

    NativeMerge(EncodedRecords[] runs, EncodedOutput output, Outputs outputs, long splitBytes, ValueMerger values,
                KeyedValueMerger keyedValues, TombstonePolicy tombstones, boolean capTombstoneLiterals) {
        Policy policy = runs[0].policy();
        for (EncodedRecords r : runs) {
            if (!r.policy().equals(policy)) {
                throw new IllegalArgumentException("merge inputs have different policies: " + policy + " and " + r.policy());
            }
        }
        this.runs = runs;
        this.inputs = new SpanKey[runs.length];
        for (int i = 0; i < runs.length; i++) {
            inputs[i] = SpanKey.of(runs[i], i);
        }
        for (SpanKey in : inputs) {
            if (keyedValues != null) {
                in.keepBuilt();
            }
            in.advance();
        }
        this.tree = new LoserTree(inputs);
        this.output = output;
        this.outputs = outputs;
        this.splitBytes = splitBytes;
        this.optional = policy.grammar() == ValueGrammar.OPTIONAL;
        this.family = runs[0];
        this.codec = runs[0].values();
        this.values = values;
        this.keyedValues = keyedValues;
        this.tombstones = tombstones;
        this.capTombstoneLiterals = capTombstoneLiterals;
    }

    @Override
    public MergeProgress step(long budget) throws IOException {
        if (budget < 1) {
            // Zero would make a host's "while (!done()) step(b)" spin without progress.
            throw new IllegalArgumentException("budget must be at least 1 key, got " + budget);
        }
        requireRunning();
        long k0 = keys;
        long r0 = inputRecords;
        try {
            while (keys - k0 < budget && !inputs[tree.winner()].eof()) {
                resolveOneKey();
            }
        } catch (RuntimeException | IOException | Error e) {
            state = State.POISONED;
            RuntimeException explained = explain(runs, e);
            if (explained != null) {
                throw explained;
            }
            throw e;
        }
        return new MergeProgress(keys - k0, inputRecords - r0);
    }

    /**
     * What explains a failure {@code e} of reading the inputs, if an input does ({@link #inputFault},
     * else {@link #damaged}); null if none does.
     */
    static RuntimeException explain(EncodedRecords[] runs, Throwable e) {
        RuntimeException named = inputFault(runs, e);
        return named != null ? named : damaged(runs, e);
    }

    /**
     * An input whose body CRC, taken as the merge reads it ({@link MergeBuilder#checkInputsAsRead}),
     * turns out wrong once completed: the damage that explains {@code e} (a framing error part
     * way, a value merger refusing a damaged value, an array too large for the heap sized by a
     * damaged length), reported as the file's CRC mismatch with {@code e} suppressed. Null if
     * every input's body holds (or none is checked as read), and for an {@link IOException}: the
     * inputs are read from memory, so that is the output's, and reading every input to its end
     * first would only delay the report (a full disk, an interrupt).
     */
    static RuntimeException damaged(EncodedRecords[] runs, Throwable e) {
        if (e instanceof IOException) {
            return null;
        }
        for (EncodedRecords r : runs) {
            try {
                r.checkBody();
            } catch (CorruptSegmentException c) {
                if (c == e) {
                    return c; // the walk's own end reported this mismatch
                }
                c.addSuppressed(e);
                return c;
            } catch (RuntimeException other) {
                e.addSuppressed(other); // the input cannot be read to its end: report e as it is
            } catch (Error fatal) {
                fatal.addSuppressed(e);
                throw fatal;
            }
        }
        return null;
    }

    /**
     * What a failure reading the mapped inputs was, if an input's state explains it: the input
     * was closed (its arena's error names no file) or its file shrank on disk, so that a mapped
     * read past the new end faulted (the JVM's {@link InternalError} names no file either).
     * Published segments never change; this names the one that did. Null if no input explains it.
     */
    static RuntimeException inputFault(EncodedRecords[] runs, Throwable e) {
        if (!(e instanceof IllegalStateException || e instanceof InternalError)) {
            return null;
        }
        for (int i = 0; i < runs.length; i++) {
            SegmentReader reader = runs[i].reader();
            long mapped;
            try {
                mapped = reader.fileBytes();
            } catch (IllegalStateException closed) {
                return new IllegalStateException(reader.path() + ": merge input " + i
                        + " was closed during the merge (a merge reads its inputs and never closes them: close them after it)", e);
            }
            long size;
            try {
                size = Files.size(reader.path());
            } catch (IOException | RuntimeException gone) {
                continue; // removed: its mapping stays whole, so it did not fault
            }
            if (size < mapped) {
                CorruptSegmentException c = runs[i].corrupt(size, "file truncated on disk from " + mapped + " to " + size
                        + " bytes while it was merged (a published segment must not change)");
                c.initCause(e);
                return c;
            }
        }
        return null;
    }

    /** Takes the smallest key out of every input holding it and writes (or drops) its record. */
    private void resolveOneKey() throws IOException {
        int w = tree.winner();
        SpanKey first = inputs[w];
        EncodedRecords src = first.records;
        long shared = tree.lcp[w];
        long length = first.length();
        long literalAt = src.literalAt();
        long literalRetained = src.retained();
        long limit = literalRetained;
        // The value as it stands: an input's encoded value in place, or a composed one.
        MemorySegment valueSource = src.source();
        long valueAt = src.valueAt();
        long valueLength = src.valueLength();
        MemorySegment key = keyedValues == null ? null : materialise(first);
        // A key written now starts a fresh output (retaining nothing) if it is the first of the
        // merge or the current output is full.
        boolean rollDue = written > 0 && outputBytes >= splitBytes;
        boolean fresh = written == 0 || rollDue;
        // Units before the record's literal are needed only if the output keeps less than the
        // record did (a tombstone literal cap, a fresh output, or keys dropped since the last one
        // written); take them now, while the spans still describe this key.
        boolean prefixTaken = capTombstoneLiterals || (!fresh && dropFloor < literalRetained) || (fresh && literalRetained > 0);
        if (prefixTaken) {
            first.copyUnits(0, literalRetained, ensurePrefix(bytesOf(literalRetained, "a key prefix")), 0);
        }
        inputRecords++;
        advance(w);
        while (true) {
            int next = tree.winner();
            SpanKey in = inputs[next];
            if (in.eof() || tree.lcp[next] != length || in.length() != length) {
                break;
            }
            // The same key in a newer input: fold its value in, oldest first.
            EncodedRecords r = in.records;
            limit = Math.min(limit, r.retained());
            if (keyedValues == null && values == ValueMerger.NEWER_WINS) {
                valueSource = r.source();
                valueAt = r.valueAt();
                valueLength = r.valueLength();
            } else {
                MemorySegment older = codec.decode(valueSource, valueAt, valueLength);
                MemorySegment newer = codec.decode(r.source(), r.valueAt(), r.valueLength());
                MemorySegment merged = keyedValues != null ? keyedValues.merge(key, older, newer) : values.merge(older, newer);
                valueSource = encode(merged);
                valueAt = 0;
                valueLength = encodedLength;
            }
            inputRecords++;
            advance(next);
        }
        keys++;
        boolean tombstone = optional && codec.tombstone(valueSource, valueAt);
        if (tombstone && tombstones == TombstonePolicy.DROP) {
            dropFloor = Math.min(dropFloor, shared);
            return;
        }
        if (rollDue) {
            rollOver();
        }
        long retained = fresh ? 0 : Math.min(shared, dropFloor);
        if (tombstone && capTombstoneLiterals) {
            retained = Math.min(retained, limit);
        }
        if (retained >= literalRetained) {
            output.append(retained, src.source(), literalAt + (retained - literalRetained), length - retained, valueSource, valueAt, valueLength);
        } else {
            // The output keeps less than the input record did: its literal starts with key
            // units taken before the input advanced.
            long n = length - retained;
            byte[] literal = ensure(bytesOf(n, "a key literal"));
            src.copyUnits(prefix, retained, literalRetained, literalAt, length - literalRetained, literal);
            output.append(retained, MemorySegment.ofArray(literal), 0, n, valueSource, valueAt, valueLength);
        }
        long units = length - retained + valueLength;
        outputBytes += family.wholeBytes(units) + 2;
        if (tombstone) {
            outputTombstones++;
        }
        written++;
        dropFloor = Long.MAX_VALUE;
    }

    /** Publishes the current output and opens the next; the next record written retains nothing. */
    private void rollOver() throws IOException {
        SegmentInfo info = output.finish();
        rolled.add(new MergeOutput(info, outputTombstones));
        output.close();
        output = null;
        output = outputs.open(rolled.size());
        outputBytes = 0;
        outputTombstones = 0;
        written = 0;
    }

    private void advance(int i) {
        tree.lcp[i] = inputs[i].advance();
        tree.replay();
    }

    private byte[] prefix = new byte[64];

    /** Bytes of an array holding n units of a key or value ({@code what}). */
    private int bytesOf(long n, String what) {
        long b = family.bytesFor(n);
        if (b > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException(what + " of " + n + " " + family.unitNames() + " is too large for an array");
        }
        return (int) b;
    }

    private byte[] ensurePrefix(int n) {
        if (prefix.length < n) {
            prefix = new byte[(int) Math.max(n, prefix.length * 2L)];
        }
        return prefix;
    }

    private byte[] ensure(int n) {
        if (scratch.length < n) {
            scratch = new byte[Math.max(n, scratch.length * 2)];
        }
        return scratch;
    }

    /** The key a key-aware merger sees (the host's): a copy, since the input moves on while folding. */
    private MemorySegment materialise(SpanKey in) {
        long length = in.keyBytes();
        if (keyScratch.length < length) {
            keyScratch = new byte[(int) Math.max(length, keyScratch.length * 2L)];
        }
        System.arraycopy(in.built(), 0, keyScratch, 0, (int) length);
        if (in.records.orderedStrings()) {
            // KV02 in bits: the merged bits are the ordered string form; the callback takes the host key.
            length = in.records.hostKey(keyScratch, (int) length);
        }
        return MemorySegment.ofArray(keyScratch).asSlice(0, length);
    }

    private long encodedLength;
    private byte[] otherValueScratch = new byte[64];

    /**
     * Encodes a merger's result. Two buffers take turns, so the result of one fold can be the
     * "older" argument of the next while the new result is written.
     */
    private MemorySegment encode(MemorySegment v) {
        long total = codec.encodedLength(v);
        int bytes = bytesOf(total, "a merged value");
        byte[] out = otherValueScratch.length >= bytes ? otherValueScratch : new byte[(int) Math.max(bytes, otherValueScratch.length * 2L)];
        otherValueScratch = valueScratch;
        valueScratch = out;
        codec.encode(v, out);
        encodedLength = total;
        return MemorySegment.ofArray(out);
    }

    @Override
    public boolean done() {
        return inputs[tree.winner()].eof();
    }

    @Override
    public MergeProgress progress() {
        return new MergeProgress(keys, inputRecords);
    }

    @Override
    public SegmentInfo finish() throws IOException {
        List<MergeOutput> all = finishAll();
        return all.get(all.size() - 1).segment();
    }

    @Override
    public List<MergeOutput> finishAll() throws IOException {
        requireRunning();
        if (!done()) {
            throw new IllegalStateException("finish() before every input is exhausted (" + keys + " keys resolved so far)");
        }
        try {
            for (EncodedRecords r : runs) {
                r.checkBody(); // passed already: every input's walk has reached its end (an empty one's as the merge started)
            }
            SegmentInfo info = output.finish();
            state = State.FINISHED;
            List<MergeOutput> all = new ArrayList<>(rolled);
            all.add(new MergeOutput(info, outputTombstones));
            return List.copyOf(all);
        } catch (RuntimeException | IOException | Error e) {
            state = State.POISONED;
            throw e;
        }
    }

    private void requireRunning() {
        switch (state) {
            case RUNNING -> { }
            case POISONED -> throw new IllegalStateException("merge failed earlier and cannot continue or publish");
            case FINISHED -> throw new IllegalStateException("merge already finished");
            case CLOSED -> throw new IllegalStateException("merge closed");
        }
    }

    @Override
    public void close() throws IOException {
        boolean finished = state == State.FINISHED;
        if (!finished) {
            state = State.CLOSED;
        }
        try {
            if (output != null) {
                output.close();
            }
        } finally {
            if (!finished) {
                for (MergeOutput o : rolled) {
                    Files.deleteIfExists(o.segment().path());
                }
                rolled.clear();
            }
        }
    }
}

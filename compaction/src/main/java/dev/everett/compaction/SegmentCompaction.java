package dev.everett.compaction;

import dev.everett.api.FilterPolicy;
import dev.everett.api.MergeBuilder;
import dev.everett.api.MergeEngine;
import dev.everett.api.MergeJob;
import dev.everett.api.MergeOutput;
import dev.everett.api.MergeProgress;
import dev.everett.api.ObjectId;
import dev.everett.api.ObjectStore;
import dev.everett.api.OpenMode;
import dev.everett.api.SegmentReader;
import dev.everett.api.TombstonePolicy;
import dev.everett.api.ValueMerger;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A compaction of segments of one {@link SegmentFiles}: the inputs' natives merged by the merge
 * engine (on their encoded records, k-way) into outputs that roll over at key boundaries, each
 * output in its own segment directory, indexed when the merge finishes. Every input's body CRC is
 * checked (even if an earlier read checked it), so a file damaged on disk fails the job, naming
 * the file, instead of leaking into its outputs. With the default value merger, which reads no
 * value, and a merge engine that can ({@link dev.everett.api.MergeEngine#checksInputsAsRead()}),
 * the merge takes each CRC as it reads the input ({@link MergeBuilder#checkInputsAsRead}),
 * over bytes still in cache, and nothing is published into the version unless every one held;
 * with a host's merger, which must see only checked values, each step before the merge checks
 * one input ({@link SegmentReader#verifyChecksum()}). A body that holds its CRC is what its writer
 * published, so the full framing walk of {@link SegmentReader#verify()} would add nothing but a
 * second pass over every input (the merge decodes every record anyway).
 */
class SegmentCompaction implements CompactionJob {
    /** Configures a compaction; see {@link CompactionBuilder}. */
    static final class Builder implements CompactionBuilder {
        private final SegmentFiles segments;
        private final List<SegmentMeta> inputs;
        private ValueMerger values = ValueMerger.NEWER_WINS;
        private TombstonePolicy tombstones = TombstonePolicy.KEEP;
        private long targetFileBytes = Long.MAX_VALUE;
        private byte[] hostBlob = new byte[0];
        private FilterPolicy filters;
        private long inputsInMemory = DEFAULT_INPUTS_IN_MEMORY_BYTES;

        Builder(SegmentFiles segments, List<SegmentMeta> inputs) {
            if (inputs.isEmpty()) {
                throw new IllegalArgumentException("a compaction needs at least one input");
            }
            this.segments = segments;
            this.inputs = inputs;
            this.filters = segments.options().filters();
        }

        @Override
        public CompactionBuilder values(ValueMerger merger) {
            this.values = Objects.requireNonNull(merger, "merger");
            return this;
        }

        @Override
        public CompactionBuilder tombstones(TombstonePolicy policy) {
            this.tombstones = Objects.requireNonNull(policy, "policy");
            return this;
        }

        @Override
        public CompactionBuilder targetFileBytes(long bytes) {
            if (bytes < 1) {
                throw new IllegalArgumentException("target file bytes must be at least 1, got " + bytes);
            }
            this.targetFileBytes = bytes;
            return this;
        }

        @Override
        public CompactionBuilder filters(FilterPolicy f) {
            this.filters = Objects.requireNonNull(f, "filters");
            return this;
        }

        @Override
        public CompactionBuilder hostBlob(byte[] blob) {
            this.hostBlob = blob == null ? new byte[0] : blob.clone();
            return this;
        }

        @Override
        public CompactionBuilder inputsInMemory(long maxBytes) {
            if (maxBytes < 0) {
                throw new IllegalArgumentException("inputs in memory must be at least 0 bytes, got " + maxBytes);
            }
            this.inputsInMemory = maxBytes;
            return this;
        }

        @Override
        public CompactionJob start() throws IOException {
            return new SegmentCompaction(segments, inputs, values, tombstones, targetFileBytes, filters, hostBlob,
                    fitsInMemory(inputs, inputsInMemory));
        }
    }

    /** Whether the natives of {@code inputs} hold at most {@code maxBytes} together (see {@link CompactionBuilder#inputsInMemory}). */
    static boolean fitsInMemory(List<SegmentMeta> inputs, long maxBytes) {
        long nativeBytes = 0;
        for (SegmentMeta m : inputs) {
            nativeBytes += m.nativeBytes();
            if (nativeBytes > maxBytes) {
                return false;
            }
        }
        return true;
    }

    private enum State { VERIFYING, MERGING, FINISHED, FAILED, CLOSED }

    /** Inputs merged from copies in memory in this process so far (tests). */
    static final AtomicLong inputCopies = new AtomicLong();

    private final SegmentFiles segments;
    private final List<SegmentHandle> inputs = new ArrayList<>();
    private final long totalRecords;
    private final byte[] hostBlob;
    private final List<SegmentReader> readers = new ArrayList<>();
    private final ValueMerger values;
    private final TombstonePolicy tombstones;
    private final long targetFileBytes;
    /** How the outputs' object stores are opened ({@link SegmentFiles#writingOptions}). */
    private final dev.everett.api.ObjectStoreOptions outputOptions;
    /** Started once every input's checksum has been checked. */
    private MergeJob merge;
    /** Output segments (identity and the store it is written in), in key order. */
    private final List<ObjectId> outputIds = new ArrayList<>();
    private final List<ObjectStore> outputStores = new ArrayList<>();
    private volatile boolean cancelled;
    private State state = State.VERIFYING;
    private int verified;
    /** Set by {@link #installed} when its edit failed but may be durable: close then leaves the outputs for the next open. */
    private boolean keepOutputs;
    /** Whether each input is read into memory for the merge (its copy then replaces its mapped reader in {@link #readers}). */
    private final boolean inputsInMemory;
    /** The inputs' in-memory readers opened so far, closed with the job. */
    private final List<SegmentReader> copies = new ArrayList<>();
    /** Whether this job has timed its inputs' reads ({@link InputReads}): a job probes at most once. */
    private boolean probed;
    /** Whether the merge takes the inputs' CRCs as it reads them, instead of a pass over each input before it. */
    private final boolean checkAsRead;
    private final MergeEngine mergeEngine;

    SegmentCompaction(SegmentFiles segments, List<SegmentMeta> inputMetas, ValueMerger values, TombstonePolicy tombstones,
                      long targetFileBytes, FilterPolicy filters, byte[] hostBlob, boolean inputsInMemory) throws IOException {
        this.segments = segments;
        // Where the engine would only map the file again, keep the mapped readers.
        this.inputsInMemory = inputsInMemory && segments.engine().readsIntoMemory();
        this.hostBlob = hostBlob;
        this.values = values;
        this.mergeEngine = MergeEngine.load();
        this.checkAsRead = values == ValueMerger.NEWER_WINS && mergeEngine.checksInputsAsRead();
        this.tombstones = tombstones;
        this.targetFileBytes = targetFileBytes;
        this.outputOptions = segments.writingOptions(filters);
        boolean ok = false;
        try {
            long total = 0;
            for (SegmentMeta m : inputMetas) {
                SegmentHandle h = segments.open(m);
                inputs.add(h);
                readers.add(h.segment().natives());
                total += m.records();
            }
            this.totalRecords = total;
            ok = true;
        } finally {
            if (!ok) {
                discardOutputs();
                closeInputs();
            }
        }
    }

    /** Opens the store of output {@code ordinal} and names its native file. */
    private java.nio.file.Path nextOutput(int ordinal) throws IOException {
        ObjectId id = ObjectId.random();
        outputIds.add(id);
        segments.files().createDirectories(segments.segmentDirectory(id));
        ObjectStore store = segments.engine().openObjectStore(segments.segmentDirectory(id), segments.policy(), outputOptions);
        outputStores.add(store);
        return store.nativePath(id);
    }

    @Override
    public CompactionProgress step(long budget) throws IOException {
        if (budget < 1) {
            throw new IllegalArgumentException("budget must be at least 1, got " + budget);
        }
        requireRunning();
        if (cancelled) {
            throw new CancellationException("compaction cancelled");
        }
        try {
            if (state == State.VERIFYING) {
                // One pass over an input per step: inputs that need none (checked as the merge reads them) go together.
                boolean passed = false;
                while (verified < readers.size() && !passed) {
                    passed = checkInput(verified);
                    verified++;
                }
                if (verified == readers.size()) {
                    merge = mergeEngine.merge(readers)
                            .values(values)
                            .tombstones(tombstones)
                            .checkInputsAsRead(checkAsRead)
                            .splitInto(targetFileBytes, this::nextOutput)
                            .start();
                    state = State.MERGING;
                }
                return progress();
            }
            merge.step(budget);
            return progress();
        } catch (IOException | RuntimeException | Error e) {
            state = State.FAILED;
            throw e;
        }
    }

    /**
     * Prepares input {@code i} for the merge: replaces its mapped reader by a copy in memory where
     * the job copies its inputs and this machine copies faster ({@link InputReads}), and checks its
     * body CRC unless the merge will as it reads. Returns whether this made a pass over the input.
     */
    private boolean checkInput(int i) throws IOException {
        SegmentReader mapped = readers.get(i);
        InputReads.Way way = inputsInMemory ? InputReads.next(mapped.fileBytes(), !probed) : InputReads.Way.MAPPED;
        SegmentReader copy = null;
        if (way == InputReads.Way.PROBE) {
            probed = true;
            copy = probe(mapped);
            if (copy == null) {
                return true; // mapped: the probe checked the reader the merge reads
            }
        } else if (way == InputReads.Way.MAPPED) {
            if (checkAsRead) {
                return false;
            }
            mapped.verifyChecksum();
            return true;
        } else {
            copy = segments.engine().openInMemory(mapped.path(), segments.policy(), OpenMode.TYPED);
            copies.add(copy);
            if (!checkAsRead) {
                copy.verifyChecksum();
            }
        }
        readers.set(i, copy);
        inputCopies.incrementAndGet();
        return true;
    }

    /**
     * Checks {@code input} through the job's reader, then times the checksum pass over it both
     * ways, and returns the copy (checked) if the process's probes now favour copies, else null.
     * The untimed first check brings a file not in the page cache into it, so that neither timed
     * pass pays for disk reads; the mapped pass goes through a mapping of its own (the job's
     * reader may share a mapping that earlier reads touched, and has just been touched by the
     * check), unmapping included.
     */
    private SegmentReader probe(SegmentReader input) throws IOException {
        boolean timed = false;
        try {
            input.verifyChecksum();
            long t0 = System.nanoTime();
            try (SegmentReader own = segments.engine().open(input.path(), segments.policy(), OpenMode.TYPED)) {
                own.verifyChecksum();
            }
            long t1 = System.nanoTime();
            SegmentReader copy = segments.engine().openInMemory(input.path(), segments.policy(), OpenMode.TYPED);
            copies.add(copy); // closed with the job if anything below fails
            copy.verifyChecksum();
            long t2 = System.nanoTime();
            timed = true;
            if (InputReads.probed(t1 - t0, t2 - t1) == InputReads.Way.COPIED) {
                return copy;
            }
            copies.remove(copy);
            copy.close();
            return null;
        } finally {
            if (!timed) {
                InputReads.abandoned();
            }
        }
    }

    private void requireRunning() {
        switch (state) {
            case VERIFYING, MERGING -> { }
            case FAILED -> throw new IllegalStateException("compaction failed earlier and cannot continue or publish");
            case FINISHED -> throw new IllegalStateException("compaction already finished");
            case CLOSED -> throw new IllegalStateException("compaction closed");
        }
    }

    @Override
    public boolean done() {
        return state == State.MERGING && merge.done();
    }

    @Override
    public CompactionProgress progress() {
        if (merge == null) {
            return new CompactionProgress(0, 0, totalRecords, 0);
        }
        MergeProgress p = merge.progress();
        return new CompactionProgress(p.keys(), p.inputRecords(), totalRecords, outputIds.size());
    }

    @Override
    public void cancel() {
        cancelled = true;
    }

    @Override
    public boolean cancelled() {
        return cancelled;
    }

    @Override
    public List<SegmentMeta> finish() throws IOException {
        requireRunning();
        if (cancelled) {
            throw new CancellationException("compaction cancelled");
        }
        if (!done()) {
            throw new IllegalStateException("finish() before every input is merged (" + progress() + ")");
        }
        List<SegmentMeta> result;
        try {
            List<MergeOutput> outs = merge.finishAll();
            List<SegmentMeta> metas = new ArrayList<>();
            for (int i = 0; i < outs.size(); i++) {
                MergeOutput o = outs.get(i);
                ObjectId id = outputIds.get(i);
                ObjectStore store = outputStores.get(i);
                if (o.segment().recordCount() == 0) {
                    continue; // every key dropped: the empty output is deleted with the unused ones below
                }
                metas.add(segments.describe(id, store.indexSegment(id), o.tombstones(), hostBlob));
            }
            result = List.copyOf(metas);
            installed(result);
            state = State.FINISHED;
        } catch (IOException | RuntimeException | Error e) {
            state = State.FAILED;
            throw e;
        }
        // Installed: whatever fails from here on, the job stays finished, so close() never deletes outputs a version names.
        closeOutputStores();
        // Outputs left empty are not part of the result: delete them now.
        List<ObjectId> unused = new ArrayList<>(outputIds);
        for (SegmentMeta m : result) {
            unused.remove(m.id());
        }
        segments.deleteQuietly(unused);
        return result;
    }

    /** Called with the outputs once they are all published and indexed; a tree installs its edit here. */
    void installed(List<SegmentMeta> outputs) throws IOException {
    }

    /** From {@link #installed}, failing: an edit naming the outputs may be durable, so they must not be deleted. */
    final void keepOutputs() {
        keepOutputs = true;
    }

    @Override
    public void close() throws IOException {
        if (state == State.CLOSED) {
            return;
        }
        boolean finished = state == State.FINISHED;
        state = State.CLOSED;
        try {
            if (merge != null) {
                merge.close();
            }
        } finally {
            closeOutputStores();
            if (!finished && !keepOutputs) {
                discardOutputs();
            }
            closeInputs();
        }
    }

    private void closeOutputStores() {
        for (ObjectStore s : outputStores) {
            s.close();
        }
        outputStores.clear();
    }

    private void discardOutputs() {
        closeOutputStores();
        segments.deleteQuietly(outputIds);
    }

    /** Closes every copy and handle, each whatever the others do; the first failure is thrown with the later ones suppressed. */
    private void closeInputs() {
        RuntimeException failed = closeEach(copies, SegmentReader::close, null);
        failed = closeEach(inputs, SegmentHandle::close, failed);
        if (failed != null) {
            throw failed;
        }
    }

    /** Closes and forgets every item of {@code items}; returns {@code failed} or the first failure, later ones suppressed. */
    private static <T> RuntimeException closeEach(List<T> items, java.util.function.Consumer<T> close, RuntimeException failed) {
        for (T item : items) {
            try {
                close.accept(item);
            } catch (RuntimeException e) {
                failed = suppressing(failed, e);
            }
        }
        items.clear();
        return failed;
    }

    private static RuntimeException suppressing(RuntimeException first, RuntimeException next) {
        if (first == null) {
            return next;
        }
        first.addSuppressed(next);
        return first;
    }
}

package dev.everett.merge;

import dev.everett.api.CommonWidthRule;
import dev.everett.api.KeyedValueMerger;
import dev.everett.api.MergeBuilder;
import dev.everett.api.MergeJob;
import dev.everett.api.OutputFiles;
import dev.everett.api.SegmentReader;
import dev.everett.api.TombstonePolicy;
import dev.everett.api.ValueMerger;
import dev.everett.segment.encoded.EncodedOutput;
import dev.everett.segment.encoded.EncodedRecords;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Configures a native merge: the inputs, oldest first (two for the classic older/newer merge,
 * or any number for a k-way compaction), the output file, how equal keys combine, what happens
 * to tombstones, and whether tombstone literals are capped.
 *
 * <pre>{@code
 * try (MergeJob job = NativeMerger.of(older, newer).into(target).start()) {
 *     while (!job.done()) job.step(4096);
 *     job.finish();
 * }
 * }</pre>
 */
public final class NativeMerger implements MergeBuilder {
    private final List<SegmentReader> inputs;
    private Path target;
    private OutputFiles splitFiles;
    private long splitBytes = Long.MAX_VALUE;
    private CommonWidthRule widthRule = CommonWidthRule.policy();
    private ValueMerger values = ValueMerger.NEWER_WINS;
    private KeyedValueMerger keyedValues;
    private TombstonePolicy tombstones = TombstonePolicy.KEEP;
    private boolean capTombstoneLiterals;
    private boolean checkInputsAsRead;

    private NativeMerger(List<SegmentReader> inputs) {
        if (inputs.isEmpty()) {
            throw new IllegalArgumentException("a merge needs at least one input");
        }
        List<Path> files = new ArrayList<>();
        for (int i = 0; i < inputs.size(); i++) {
            SegmentReader r = Objects.requireNonNull(inputs.get(i), "merge input " + i);
            SegmentReader first = inputs.get(0);
            if (!r.policy().equals(first.policy())) {
                throw new IllegalArgumentException("merge inputs have different policies: input 0 (" + first.path() + ") has "
                        + first.policy() + ", input " + i + " (" + r.path() + ") has " + r.policy());
            }
            // The same run twice would fold each of its values with itself (a counting merger
            // would double every count): a host that picked it twice has lost track of its runs.
            Path file = named(r.path());
            int earlier = files.indexOf(file);
            if (earlier >= 0) {
                throw new IllegalArgumentException("merge inputs " + earlier + " and " + i + " are the same file, " + r.path()
                        + ": a run is merged once");
            }
            files.add(file);
        }
        this.inputs = List.copyOf(inputs);
    }

    /** Merges {@code runs}, given oldest first: on equal keys, later runs are newer. */
    public static NativeMerger of(List<? extends SegmentReader> runs) {
        return new NativeMerger(new ArrayList<>(runs));
    }

    /** The two-way merge: {@code older} first, {@code newer} second (swapping them changes the result). */
    public static NativeMerger of(SegmentReader older, SegmentReader newer) {
        return new NativeMerger(List.of(older, newer));
    }

    /** Where the output is published. */
    @Override
    public NativeMerger into(Path file) {
        this.target = file;
        this.splitFiles = null;
        this.splitBytes = Long.MAX_VALUE;
        return this;
    }

    /** Splits the output at key boundaries once each holds about {@code targetBytes} (see {@link MergeBuilder#splitInto}). */
    @Override
    public NativeMerger splitInto(long targetBytes, OutputFiles files) {
        if (targetBytes < 1) {
            throw new IllegalArgumentException("split target must be at least 1 byte, got " + targetBytes);
        }
        this.splitFiles = Objects.requireNonNull(files, "files");
        this.splitBytes = targetBytes;
        this.target = null;
        return this;
    }

    /** The output's common-width rule (default: the policy's). */
    @Override
    public NativeMerger widthRule(CommonWidthRule rule) {
        this.widthRule = Objects.requireNonNull(rule);
        return this;
    }

    /** How values of equal keys combine (default: the newer wins). */
    @Override
    public NativeMerger values(ValueMerger merger) {
        this.values = Objects.requireNonNull(merger);
        this.keyedValues = null;
        return this;
    }

    /** A key-aware combination; the merge then rebuilds every key it meets. */
    @Override
    public NativeMerger values(KeyedValueMerger merger) {
        this.keyedValues = Objects.requireNonNull(merger);
        return this;
    }

    /** Keep tombstones (default) or drop them with the values they hide (bottommost outputs only). */
    @Override
    public NativeMerger tombstones(TombstonePolicy policy) {
        this.tombstones = Objects.requireNonNull(policy);
        return this;
    }

    /**
     * Caps tombstone literals (docs/format.md, "Tombstone literal cap"): a tombstone keeps at most the prefix
     * its input record(s) kept, so it carries every literal unit its target supplied. The output
     * is then valid but not canonical wherever the cap bites.
     */
    @Override
    public NativeMerger capTombstoneLiterals(boolean cap) {
        this.capTombstoneLiterals = cap;
        return this;
    }

    /** Takes each input's body CRC as the merge reads it (see {@link MergeBuilder#checkInputsAsRead}). */
    @Override
    public NativeMerger checkInputsAsRead(boolean check) {
        this.checkInputsAsRead = check;
        return this;
    }

    /** Opens the inputs' encoded cursors and the output, and reads the first record of each input. */
    @Override
    public MergeJob start() throws IOException {
        if (target == null && splitFiles == null) {
            throw new IllegalStateException("no output: call into(path) or splitInto(bytes, files)");
        }
        EncodedRecords[] runs = new EncodedRecords[inputs.size()];
        for (int i = 0; i < runs.length; i++) {
            inputs.get(i).recordCount(); // a closed reader refuses this, naming its file (its mapping is gone)
            runs[i] = checkInputsAsRead ? EncodedRecords.checkedAsRead(inputs.get(i)) : EncodedRecords.of(inputs.get(i));
        }
        CommonWidthRule rule = widthRule;
        OutputFiles files = splitFiles != null ? splitFiles : ordinal -> target;
        OutputNames names = new OutputNames(inputs);
        NativeMerge.Outputs outputs = ordinal -> EncodedOutput.create(names.claim(ordinal, files.next(ordinal)), runs[0].policy(), rule);
        EncodedOutput out = outputs.open(0);
        try {
            return new NativeMerge(runs, out, outputs, splitBytes, values, keyedValues, tombstones, capTombstoneLiterals);
        } catch (RuntimeException | Error e) {
            out.close();
            RuntimeException explained = NativeMerge.explain(runs, e);
            if (explained != null) {
                throw explained;
            }
            throw e;
        }
    }

    /**
     * The directory entries a merge publishes to, so that no output replaces an input or an
     * output published earlier in the same merge: a rename over an input would replace it (and
     * an abandoned split merge, which deletes what it published, would then delete the input's
     * only name); one over an earlier output would silently drop that output's keys while
     * {@link MergeJob#finishAll()} still listed it. Paths are compared as {@link #named} gives them.
     */
    private static final class OutputNames {
        private final List<Path> inputs = new ArrayList<>();
        private final List<SegmentReader> readers;
        private final List<Path> claimed = new ArrayList<>();

        OutputNames(List<SegmentReader> readers) {
            this.readers = readers;
            for (SegmentReader r : readers) {
                inputs.add(named(r.path()));
            }
        }

        Path claim(int ordinal, Path file) throws IOException {
            if (file == null) {
                throw new NullPointerException("OutputFiles.next(" + ordinal + ") returned no path");
            }
            Path entry = named(file);
            int input = inputs.indexOf(entry);
            if (input >= 0) {
                throw new FileAlreadyExistsException(file.toAbsolutePath().toString(), null, "output " + ordinal + " is the file of merge input "
                        + input + " (" + readers.get(input).path() + "): publishing it would replace that input; give each output a path of its own");
            }
            int earlier = claimed.indexOf(entry);
            if (earlier >= 0) {
                throw new FileAlreadyExistsException(file.toAbsolutePath().toString(), null, "output " + ordinal + " has the path of output "
                        + earlier + ": publishing it would replace that output; OutputFiles must give each output a path of its own");
            }
            claimed.add(entry);
            return file;
        }
    }

    /**
     * {@code path} as the checks compare it: absolute and normalised, with no file-system call
     * (a merge of a few thousand keys is timed in microseconds). The checks catch a host naming a
     * file twice; one file reached through two different names (a link) is not recognised.
     */
    static Path named(Path path) {
        return path.toAbsolutePath().normalize();
    }
}

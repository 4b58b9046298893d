package dev.everett.cli;

import dev.everett.api.MergeEngine;
import dev.everett.api.MergeJob;
import dev.everett.api.OpenMode;
import dev.everett.api.Policy;
import dev.everett.api.SegmentDescription;
import dev.everett.api.SegmentEngine;
import dev.everett.api.SegmentInfo;
import dev.everett.api.SegmentReader;
import dev.everett.api.TombstonePolicy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code merge}: the native merger on segment files, newest wins. */
@Command(name = "merge", mixinStandardHelpOptions = true,
        description = {"Merges segment files with the native merger, newest wins.",
            "Inputs share one policy and come oldest first: on equal keys the later file wins. Writes OUT's index "
                + "chain beside it."})
final class MergeCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "Inputs, oldest first.")
    List<Path> inputs;

    @Option(names = "--out", required = true, paramLabel = "OUT.kv", description = "The merged segment (replaced if it exists).")
    Path out;

    @Option(names = "--drop-tombstones", description = "Drop tombstones and the values they hide (only when nothing older than the inputs exists).")
    boolean dropTombstones;

    @Mixin
    GrammarOption values;

    @Override
    public Integer call() throws IOException {
        OutputFile.check("--out", out);
        for (Path in : inputs) {
            if (Files.exists(out) && Files.isSameFile(in, out)) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--out " + out + " is also an input");
            }
        }
        SegmentEngine engine = SegmentEngine.load();
        List<SegmentReader> readers = new ArrayList<>();
        Policy policy = null;
        try {
            for (Path in : inputs) {
                Policy p = engine.describe(in).policy(values.grammar());
                if (policy != null && !p.equals(policy)) {
                    throw new CliException(in + ": written under " + describe(p) + ", but " + inputs.get(0) + " under " + describe(policy)
                            + " (merge needs one policy)");
                }
                policy = p;
                readers.add(engine.open(in, p, OpenMode.TYPED));
            }
            SegmentInfo info;
            try (ExitCleanup cleanup = ExitCleanup.temporariesBeside(out);
                 MergeJob job = MergeEngine.load().merge(readers).into(out)
                    .tombstones(dropTombstones ? TombstonePolicy.DROP : TombstonePolicy.KEEP).start()) {
                while (!job.done()) {
                    job.step(1 << 16);
                }
                info = job.finish();
            }
            SegmentDescription d = engine.describe(out);
            IndexChain.build(engine, d, policy);
            long in = readers.stream().mapToLong(SegmentReader::recordCount).sum();
            spec.commandLine().getOut().printf("merged %d files (%d records) into %s: %d records, %d bytes; index chain %s%n",
                    inputs.size(), in, out, info.recordCount(), info.fileBytes(), IndexChain.dirFor(out));
        } finally {
            readers.forEach(SegmentReader::close);
        }
        return 0;
    }

    private static String describe(Policy p) {
        return p.format() + " " + p.unit().name().toLowerCase() + " W=" + p.blockWidth() + " K=" + p.groupSize() + " values " + p.valueWidth()
                + " backspace " + p.backspace();
    }
}

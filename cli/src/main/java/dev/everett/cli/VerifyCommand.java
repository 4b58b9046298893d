package dev.everett.cli;

import dev.everett.api.IndexedSegment;
import dev.everett.api.VerifyReport;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code verify}: the full check of segment files and their index chains. */
@Command(name = "verify", mixinStandardHelpOptions = true,
        description = {"Checks segment files in full.",
            "Checksums, framing, key order, the Elias-Fano directory and each file's index chain;",
            "names every corrupt file and what is wrong. Exit code 1 if any is."})
final class VerifyCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "Segment files.")
    List<Path> targets;

    @Mixin
    GrammarOption values;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        int failed = 0;
        for (Path file : targets) {
            String result;
            try (SegmentFile f = SegmentFile.open(file, values.grammar())) {
                VerifyReport r = f.reader.verify();
                result = "OK: " + r.records() + " records, " + r.blocks() + " blocks, "
                        + (r.canonical() ? "canonical" : "valid, shorter retention from record " + r.firstNonCanonicalRecord());
                IndexedSegment chain = f.indexed();
                if (chain != null) {
                    chain.verify();
                    result += "; index chain " + IndexChain.dirFor(file) + " OK";
                } else {
                    result += "; no index chain";
                }
            } catch (Exception e) {
                failed++;
                result = "CORRUPT: " + Everett.describe(e);
            }
            out.println(file + ": " + result);
        }
        if (failed > 0) {
            spec.commandLine().getErr().println("everett verify: " + failed + " of " + targets.size() + " files failed");
        }
        return failed == 0 ? 0 : Everett.FAILED;
    }
}

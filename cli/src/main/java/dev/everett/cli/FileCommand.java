package dev.everett.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** A command on one segment file, the first argument, read under the {@code --values} grammar. */
abstract class FileCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE", description = "A segment file.")
    Path target;

    @Mixin
    GrammarOption values;

    SegmentFile openTarget() throws IOException {
        return SegmentFile.open(target, values.grammar());
    }

    PrintWriter out() {
        return spec.commandLine().getOut();
    }
}

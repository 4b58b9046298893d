package dev.everett.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Mixin;

/** A command on one segment file, read under the {@code --values} grammar; subclasses declare the argument. */
abstract class SegmentFileCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    GrammarOption values;

    /** The segment file (or, for {@link FileCommand}, the file or store) the command works on. */
    abstract Path target();

    SegmentFile openTarget() throws IOException {
        return SegmentFile.open(target(), values.grammar());
    }

    PrintWriter out() {
        return spec.commandLine().getOut();
    }
}

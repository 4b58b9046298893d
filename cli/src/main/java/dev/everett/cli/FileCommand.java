package dev.everett.cli;

import dev.everett.store.EverettDB;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * A command on one segment file or store, the first argument: a file is read under the
 * {@code --values} grammar, a directory is opened as an EverettDB under the policy it records.
 */
abstract class FileCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE|DB", description = "A segment file, or an EverettDB directory.")
    Path target;

    @Mixin
    GrammarOption values;

    /** True if the target is a store directory rather than a segment file. */
    boolean targetIsStore() {
        return Files.isDirectory(target);
    }

    /** Opens the target store, under the policy it records (or the one {@code access} names). */
    EverettDB openStore(StoreAccess access) {
        return access.openExisting(spec, target);
    }

    SegmentFile openTarget() throws IOException {
        return SegmentFile.open(target, values.grammar());
    }

    PrintWriter out() {
        return spec.commandLine().getOut();
    }
}

package dev.everett.cli;

import dev.everett.store.EverettDB;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine;
import picocli.CommandLine.Parameters;

/**
 * A command on one segment file or store, the first argument: a file is read under the
 * {@code --values} grammar, a directory is opened as an EverettDB under the policy it records.
 */
abstract class FileCommand extends SegmentFileCommand {
    @Parameters(index = "0", paramLabel = "FILE|DB", description = "A segment file, or an EverettDB directory.")
    Path target;

    @Override
    Path target() {
        return target;
    }

    /**
     * True if the target is a store directory rather than a segment file. An option that applies
     * only to the other kind (a store policy for a file, which records its own; a value grammar
     * for a store, which records its own) is a usage error rather than silently ignored.
     */
    boolean targetIsStore() {
        boolean store = Files.isDirectory(target);
        CommandLine.ParseResult parsed = spec.commandLine().getParseResult();
        for (String option : store ? new String[] {"--values"} : new String[] {"--format", "--w", "--k"}) {
            if (parsed.hasMatchedOption(option)) {
                throw new CommandLine.ParameterException(spec.commandLine(), option + " does not apply to " + target + ", "
                        + (store ? "a store (it records its own policy)" : "a segment file (it records its own policy; --format, --w and --k are for stores)"));
            }
        }
        return store;
    }

    /**
     * Opens the target store for reading only (these commands read), under the policy it records
     * (or the one {@code access} names).
     */
    EverettDB openStore(StoreAccess access) {
        return access.openReadOnly(spec, target);
    }
}

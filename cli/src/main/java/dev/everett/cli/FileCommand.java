package dev.everett.cli;

import dev.everett.store.EverettDB;
import java.nio.file.Files;
import java.nio.file.Path;
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

    /** True if the target is a store directory rather than a segment file. */
    boolean targetIsStore() {
        return Files.isDirectory(target);
    }

    /** Opens the target store, under the policy it records (or the one {@code access} names). */
    EverettDB openStore(StoreAccess access) {
        return access.openExisting(spec, target);
    }
}

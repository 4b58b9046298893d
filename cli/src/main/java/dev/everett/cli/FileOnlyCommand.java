package dev.everett.cli;

import java.nio.file.Path;
import picocli.CommandLine.Parameters;

/** A command on one segment file only, the first argument (a store directory is refused). */
abstract class FileOnlyCommand extends SegmentFileCommand {
    @Parameters(index = "0", paramLabel = "FILE", description = "A segment file (.kv).")
    Path target;

    @Override
    Path target() {
        return target;
    }
}

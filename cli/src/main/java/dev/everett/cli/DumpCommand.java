package dev.everett.cli;

import dev.everett.api.KeyRange;
import java.io.IOException;
import java.io.PrintWriter;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code dump}: every record of a segment file, tombstones included, in key order. */
@Command(name = "dump", mixinStandardHelpOptions = true,
        description = {"Prints the records of a segment file in key order.",
            "Tombstones included. Keys and values print as text when they are printable ASCII, else as 0x hex;",
            "--json prints what load reads."})
final class DumpCommand extends FileCommand {
    @Option(names = "--from", paramLabel = "K", description = "First key (inclusive); text, or hex after 0x.")
    String from;

    @Option(names = "--to", paramLabel = "K", description = "Key to stop before (exclusive); text, or hex after 0x.")
    String to;

    @ArgGroup(exclusive = true)
    OutputStyle style = new OutputStyle();

    @Override
    public Integer call() throws IOException {
        PrintWriter out = out();
        try (SegmentFile f = openTarget()) {
            f.forEach(new KeyRange(ByteText.arg(spec, "--from", from), ByteText.arg(spec, "--to", to)), (k, v) -> style.print(out, k, v));
        }
        return 0;
    }
}

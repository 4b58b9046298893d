package dev.everett.cli;

import dev.everett.api.KeyRange;
import dev.everett.store.EverettDB;
import java.io.IOException;
import java.io.PrintWriter;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code dump}: every record of a segment file, tombstones included, in key order. */
@Command(name = "dump", mixinStandardHelpOptions = true,
        description = {"Prints the records of a segment file or store in key order.",
            "A file's tombstones included; a store shows its live records. Keys and values print as text when "
                + "they are printable ASCII, else as 0x hex; --json prints what load reads."})
final class DumpCommand extends FileCommand {
    @Option(names = "--from", paramLabel = "K", description = "First key (inclusive); text, or hex after 0x.")
    String from;

    @Option(names = "--to", paramLabel = "K", description = "Key to stop before (exclusive); text, or hex after 0x.")
    String to;

    @ArgGroup(exclusive = true)
    OutputStyle style = new OutputStyle();

    @Mixin
    StoreAccess access;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = out();
        byte[] lower = ByteText.arg(spec, "--from", from);
        byte[] upper = ByteText.arg(spec, "--to", to);
        if (targetIsStore()) {
            try (EverettDB db = openStore(access)) {
                StoreReads.print(db, lower, upper, false, -1, style, out);
            }
            return 0;
        }
        try (SegmentFile f = openTarget()) {
            f.forEach(new KeyRange(lower, upper), (k, v) -> style.print(out, k, v));
        }
        return 0;
    }
}

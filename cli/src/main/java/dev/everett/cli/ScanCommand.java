package dev.everett.cli;

import dev.everett.store.EverettDB;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code scan}: live records of a store in a key range, either way, up to a limit. */
@Command(name = "scan", mixinStandardHelpOptions = true,
        description = {"Prints a store's live records in key order.",
            "--from is inclusive, --to exclusive (RocksDB's iterate bounds); --reverse walks from the last key "
                + "down."})
final class ScanCommand extends StoreCommand {
    @Option(names = "--from", paramLabel = "K", description = "First key (inclusive); text, or hex after 0x.")
    String from;

    @Option(names = "--to", paramLabel = "K", description = "Key to stop before (exclusive); text, or hex after 0x.")
    String to;

    @Option(names = "--reverse", description = "Largest key first.")
    boolean reverse;

    @Option(names = "--limit", paramLabel = "N", defaultValue = "-1", description = "Print at most N records (default all).")
    long limit;

    @ArgGroup(exclusive = true)
    OutputStyle style = new OutputStyle();

    @Override
    public Integer call() {
        if (limit < -1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--limit must be ≥ 0");
        }
        try (EverettDB d = openReadOnly()) {
            StoreReads.print(d, arg("--from", from), arg("--to", to), reverse, limit, style, out());
        }
        return 0;
    }
}

package dev.everett.cli;

import dev.everett.store.EverettDB;
import picocli.CommandLine.Command;

/** {@code stats}: the store's {@code everett.stats} property. */
@Command(name = "stats", mixinStandardHelpOptions = true,
        description = {"Prints a store's statistics.", "The everett.stats property: policy, memtables, log, files and bytes per level."})
final class StatsCommand extends StoreCommand {
    @Override
    public Integer call() {
        try (EverettDB d = openReadOnly()) {
            out().print(d.getProperty("everett.stats"));
            out().println("estimated live keys: " + d.getProperty("everett.estimate-num-keys"));
        }
        return 0;
    }
}

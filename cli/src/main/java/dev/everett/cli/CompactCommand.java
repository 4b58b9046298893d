package dev.everett.cli;

import dev.everett.store.EverettDB;
import picocli.CommandLine.Command;

/** {@code compact}: flush and compact a store's whole key range. */
@Command(name = "compact", mixinStandardHelpOptions = true,
        description = {"Flushes a store and compacts its whole key range.", "Prints the store's segment bytes and files per level afterwards."})
final class CompactCommand extends StoreCommand {
    @Override
    public Integer call() {
        try (EverettDB d = openExisting()) {
            long t = System.nanoTime();
            d.flush();
            d.compactRange();
            out().printf("compacted %s in %.2f s: %s%n", db, (System.nanoTime() - t) / 1e9, EverettDemoStore.describeFiles(d));
        }
        return 0;
    }
}

package dev.everett.cli;

import dev.everett.store.EverettDB;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code delete}: one key out of a store. */
@Command(name = "delete", mixinStandardHelpOptions = true,
        description = {"Deletes one key from a store.", "Deleting an absent key is not an error (as in RocksDB)."})
final class DeleteCommand extends StoreCommand {
    @Parameters(index = "1", paramLabel = "KEY", description = "Text, or hex after 0x.")
    String key;

    @Override
    public Integer call() {
        byte[] k = arg("KEY", key);
        try (EverettDB d = openExisting()) {
            d.delete(k);
        }
        out().println("OK");
        return 0;
    }
}

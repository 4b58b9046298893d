package dev.everett.cli;

import dev.everett.store.EverettDB;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code put}: one key and value into a store (created if missing). */
@Command(name = "put", mixinStandardHelpOptions = true,
        description = {"Writes one key and value into a store.", "Creates the store (with --format, --w, --k) if DB does not exist or is an empty directory."})
final class PutCommand extends StoreCommand {
    @Parameters(index = "1", paramLabel = "KEY", description = "Text, or hex after 0x.")
    String key;

    @Parameters(index = "2", paramLabel = "VALUE", description = "Text, or hex after 0x.")
    String value;

    @Override
    public Integer call() {
        byte[] k = arg("KEY", key);
        byte[] v = arg("VALUE", value);
        try (EverettDB d = access.openOrCreate(spec, db)) {
            d.put(k, v);
        }
        out().println("OK");
        return 0;
    }
}

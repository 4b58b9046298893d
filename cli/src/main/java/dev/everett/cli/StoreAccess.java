package dev.everett.cli;

import dev.everett.api.Policy;
import dev.everett.api.PolicyMismatchException;
import dev.everett.api.ValueGrammar;
import dev.everett.store.DBOptions;
import dev.everett.store.EverettDB;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * How a command opens an EverettDB directory. A new store is created with {@code --format}
 * (and {@code --w}, {@code --k}); an existing one is opened with the policy it records: the one
 * named on the command line if any, else Everett's two default policies in turn (KV02 and KV03
 * with W = K = 15), the store refusing the one it was not created with.
 */
final class StoreAccess {
    @Option(names = "--format", paramLabel = "kv02|kv03",
            description = "Store policy: the format a new store is created with (default kv02). An existing store is opened under its own; name it only if its W or K is not 15.")
    LoadCommand.Format format;

    @Option(names = "--w", paramLabel = "W", description = "Store policy: block width W (default 15).")
    Integer w;

    @Option(names = "--k", paramLabel = "K", description = "Store policy: group size K (default 15).")
    Long k;

    /** True if {@code dir} holds a store (its STORE descriptor). */
    static boolean isStore(Path dir) {
        return Files.isRegularFile(dir.resolve("STORE"));
    }

    /** Opens an existing store; a directory that holds none is an error. */
    EverettDB openExisting(CommandLine.Model.CommandSpec spec, Path dir) {
        if (!isStore(dir)) {
            throw new CliException(dir + ": not an Everett store (no STORE file)");
        }
        if (format != null || w != null || k != null) {
            return EverettDB.open(dir, new DBOptions().setCreateIfMissing(false).setPolicy(policy(spec)));
        }
        try {
            return EverettDB.open(dir, new DBOptions().setCreateIfMissing(false).setPolicy(Policy.defaultBytes()));
        } catch (PolicyMismatchException kv02) {
            try {
                return EverettDB.open(dir, new DBOptions().setCreateIfMissing(false).setPolicy(Policy.stringPolicy()));
            } catch (PolicyMismatchException kv03) {
                throw new CliException(kv02.getMessage() + " (name it with --format, --w and --k)");
            }
        }
    }

    /** Opens the store in {@code dir}, creating it under the command line's policy if there is none. */
    EverettDB openOrCreate(CommandLine.Model.CommandSpec spec, Path dir) {
        return isStore(dir) ? openExisting(spec, dir) : EverettDB.open(dir, new DBOptions().setPolicy(policy(spec)));
    }

    /** The policy the command line names (KV02 with W = K = 15 by default). */
    Policy policy(CommandLine.Model.CommandSpec spec) {
        return LoadCommand.policy(spec, format == null ? LoadCommand.Format.kv02 : format, w == null ? Policy.DEFAULT_WIDTH : w,
                k == null ? Policy.DEFAULT_WIDTH : k, ValueGrammar.OPTIONAL);
    }
}

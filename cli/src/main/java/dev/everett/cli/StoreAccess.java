package dev.everett.cli;

import dev.everett.api.Policy;
import dev.everett.api.ValueGrammar;
import dev.everett.store.DBOptions;
import dev.everett.store.EverettDB;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * How a command opens an EverettDB directory. A new store is created with {@code --format}
 * (and {@code --w}, {@code --k}); an existing one is opened with the policy and level layout its
 * descriptor records ({@link DBOptions#loadFrom}), or under the policy the command line names,
 * which the store refuses if it was not created with it.
 */
final class StoreAccess {
    @Option(names = "--format", paramLabel = "kv02|kv03",
            description = "Store policy: the format a new store is created with (default kv02). An existing store is opened under the policy it records.")
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
        return open(spec, dir, false);
    }

    /**
     * Opens an existing store for reading only ({@link EverettDB#openReadOnly}): the commands that
     * only read leave the store's files exactly as they were (no recovery flush, no manifest
     * rollover, no cleanup) and may run beside each other, though not beside a writer.
     */
    EverettDB openReadOnly(CommandLine.Model.CommandSpec spec, Path dir) {
        return open(spec, dir, true);
    }

    private EverettDB open(CommandLine.Model.CommandSpec spec, Path dir, boolean readOnly) {
        if (!Files.exists(dir)) {
            throw new UncheckedIOException(new NoSuchFileException(dir.toString()));
        }
        if (!isStore(dir)) {
            throw new CliException(dir + ": not an Everett store (no STORE file)");
        }
        if (format != null || w != null || k != null) {
            DBOptions named = new DBOptions().setCreateIfMissing(false).setPolicy(policy(spec));
            return readOnly ? EverettDB.openReadOnly(dir, named) : EverettDB.open(dir, named);
        }
        DBOptions recorded;
        try {
            recorded = DBOptions.loadFrom(dir);
        } catch (IOException e) {
            throw new CliException(dir + ": cannot read the store's descriptor: " + e.getMessage());
        }
        return readOnly ? EverettDB.openReadOnly(dir, recorded) : EverettDB.open(dir, recorded);
    }

    /**
     * Opens the store in {@code dir}, creating it under the command line's policy if there is none.
     * A store is created only where the directory is missing or empty: a directory that holds other
     * files (a mistyped path, the current directory) is refused, not filled with a store's files.
     */
    EverettDB openOrCreate(CommandLine.Model.CommandSpec spec, Path dir) {
        if (isStore(dir)) {
            return openExisting(spec, dir);
        }
        refuseNonEmpty(dir);
        return create(spec, dir);
    }

    /** Creates a store in {@code dir} under the command line's policy. */
    EverettDB create(CommandLine.Model.CommandSpec spec, Path dir) {
        return EverettDB.open(dir, new DBOptions().setPolicy(policy(spec)));
    }

    /** Refuses a directory that holds files but no store: a store is created only in a new or empty one. */
    static void refuseNonEmpty(Path dir) {
        if (Files.isDirectory(dir)) {
            try (Stream<Path> entries = Files.list(dir)) {
                if (entries.findAny().isPresent()) {
                    throw new CliException(dir + ": not an Everett store and not empty (a store is created only in a new or empty directory)");
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** The policy the command line names (KV02 with W = K = 15 by default). */
    Policy policy(CommandLine.Model.CommandSpec spec) {
        return LoadCommand.policy(spec, format == null ? LoadCommand.Format.kv02 : format, w == null ? Policy.DEFAULT_WIDTH : w,
                k == null ? Policy.DEFAULT_WIDTH : k, ValueGrammar.OPTIONAL);
    }
}

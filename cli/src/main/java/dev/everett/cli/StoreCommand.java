package dev.everett.cli;

import dev.everett.store.EverettDB;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** A command on one EverettDB directory, the first argument. */
abstract class StoreCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "DB", description = "An EverettDB directory.")
    Path db;

    @Mixin
    StoreAccess access;

    EverettDB openExisting() {
        return access.openExisting(spec, db);
    }

    /** Opens the store for a command that only reads it: its files stay as they are. */
    EverettDB openReadOnly() {
        return access.openReadOnly(spec, db);
    }

    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    byte[] arg(String label, String value) {
        return ByteText.arg(spec, label, value);
    }
}

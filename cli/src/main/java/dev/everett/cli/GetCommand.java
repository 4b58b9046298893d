package dev.everett.cli;

import dev.everett.api.Lookup;
import dev.everett.store.EverettDB;
import java.lang.foreign.MemorySegment;
import java.io.IOException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code get}: one key's value. */
@Command(name = "get", mixinStandardHelpOptions = true,
        description = {"Prints the value of a key in a segment file or store.",
            "In a file, looks KEY up through its index chain when it has one, else walks the file. Exit code 1 "
                + "when the key is absent or its record is a tombstone."})
final class GetCommand extends FileCommand {
    @Parameters(index = "1", paramLabel = "KEY", description = "Text, or hex after 0x.")
    String key;

    @Option(names = "--hex", description = "Print the value as 0x hex.")
    boolean hex;

    @Mixin
    StoreAccess access;

    @Override
    public Integer call() throws IOException {
        byte[] k = ByteText.arg(spec, "KEY", key);
        if (targetIsStore()) {
            try (EverettDB db = openStore(access)) {
                byte[] v = db.get(k);
                return print(spec, k, v == null ? Lookup.absent() : Lookup.value(MemorySegment.ofArray(v)), hex);
            }
        }
        try (SegmentFile f = openTarget()) {
            return print(spec, k, f.get(k), hex);
        }
    }

    /** Prints a lookup's answer: the value (exit 0), or why there is none on standard error (exit 1). */
    static int print(CommandLine.Model.CommandSpec spec, byte[] key, Lookup l, boolean hex) {
        return switch (l.status()) {
            case VALUE -> {
                spec.commandLine().getOut().println(ByteText.render(l.valueBytes(), hex ? ByteText.Style.HEX : ByteText.Style.TEXT));
                yield 0;
            }
            case TOMBSTONE -> {
                spec.commandLine().getErr().println("everett get: " + ByteText.render(key, ByteText.Style.TEXT) + ": deleted (tombstone)");
                yield Everett.FAILED;
            }
            case ABSENT -> {
                spec.commandLine().getErr().println("everett get: " + ByteText.render(key, ByteText.Style.TEXT) + ": not found");
                yield Everett.FAILED;
            }
        };
    }
}

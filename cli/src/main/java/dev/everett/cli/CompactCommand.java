package dev.everett.cli;

import dev.everett.store.EverettDB;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code compact}: flush and compact a store's whole key range, or the keys between two keys. */
@Command(name = "compact", mixinStandardHelpOptions = true,
        description = {"Flushes a store and compacts its whole key range, or with --from/--to the segments holding those keys "
                + "(as RocksDB's compactRange, and ldb compact).",
            "Prints the store's segment bytes and files per level afterwards."})
final class CompactCommand extends StoreCommand {
    @Option(names = "--from", paramLabel = "K", description = "First key of the range (inclusive); text, or hex after 0x.")
    String from;

    @Option(names = "--to", paramLabel = "K", description = "Last key of the range (inclusive, as RocksDB's compactRange end); text, or hex after 0x.")
    String to;

    @Override
    public Integer call() {
        byte[] begin = ByteText.arg(spec, "--from", from);
        byte[] end = ByteText.arg(spec, "--to", to);
        try (EverettDB d = openExisting()) {
            long t = System.nanoTime();
            d.flush();
            d.compactRange(begin, end);
            String range = begin == null && end == null ? "" : " [" + (from == null ? "first key" : from) + ", " + (to == null ? "last key" : to) + "]";
            out().printf("compacted %s%s in %.2f s: %s%n", db, range, (System.nanoTime() - t) / 1e9, EverettDemoStore.describeFiles(d));
        }
        return 0;
    }
}

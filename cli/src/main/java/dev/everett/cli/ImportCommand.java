package dev.everett.cli;

import dev.everett.store.EverettDB;
import dev.everett.store.WriteBatch;
import dev.everett.store.WriteOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.SstFileReader;
import org.rocksdb.SstFileReaderIterator;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code import}: RocksDB data into an Everett store. */
@Command(name = "import", mixinStandardHelpOptions = true,
        description = {"Reads RocksDB data into an Everett store.",
            "Either one RocksDB directory (opened read-only; its live records) or SST files (each file's live",
            "records, in the order given: on equal keys the later file wins). The store is created if missing."})
final class ImportCommand implements Callable<Integer> {
    private static final int BATCH = 1000;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--rocksdb", required = true, arity = "1..*", paramLabel = "DB_DIR|SST", description = "A RocksDB directory, or SST files.")
    List<Path> sources;

    @Option(names = "--out", required = true, paramLabel = "DB", description = "The Everett store to write into.")
    Path out;

    @Mixin
    StoreAccess access;

    @Override
    public Integer call() throws RocksDBException {
        RocksDB.loadLibrary();
        boolean directory = Files.isDirectory(sources.get(0));
        if (directory && sources.size() > 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--rocksdb takes one RocksDB directory or SST files, not both");
        }
        long records = 0;
        try (EverettDB db = access.openOrCreate(spec, out); Batches batches = new Batches(db)) {
            if (directory) {
                try (Options options = new Options(); RocksDB rocks = RocksDB.openReadOnly(options, sources.get(0).toString());
                     RocksIterator it = rocks.newIterator()) {
                    for (it.seekToFirst(); it.isValid(); it.next()) {
                        batches.put(it.key(), it.value());
                        records++;
                    }
                    it.status();
                }
            } else {
                for (Path sst : sources) {
                    if (!Files.isRegularFile(sst)) {
                        throw new CliException(sst + ": no such SST file");
                    }
                    try (Options options = new Options(); SstFileReader reader = new SstFileReader(options)) {
                        reader.open(sst.toString());
                        try (ReadOptions ro = new ReadOptions(); SstFileReaderIterator it = reader.newIterator(ro)) {
                            for (it.seekToFirst(); it.isValid(); it.next()) {
                                batches.put(it.key(), it.value());
                                records++;
                            }
                            it.status();
                        }
                    }
                }
            }
            batches.close();
            db.flush();
        }
        spec.commandLine().getOut().printf("imported %d records from %s into %s%n", records,
                directory ? sources.get(0) : sources.size() + " SST file" + (sources.size() == 1 ? "" : "s"), out);
        return 0;
    }

    /** Puts in atomic batches of {@value #BATCH}. */
    private static final class Batches implements AutoCloseable {
        private final EverettDB db;
        private final WriteOptions options = new WriteOptions();
        private WriteBatch batch = new WriteBatch();

        Batches(EverettDB db) {
            this.db = db;
        }

        void put(byte[] key, byte[] value) {
            batch.put(key, value);
            if (batch.count() == BATCH) {
                db.write(options, batch);
                batch.clear();
            }
        }

        @Override
        public void close() {
            if (batch != null) {
                if (batch.count() > 0) {
                    db.write(options, batch);
                }
                batch.close();
                batch = null;
            }
        }
    }
}

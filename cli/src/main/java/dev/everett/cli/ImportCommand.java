package dev.everett.cli;

import dev.everett.api.DurableDirectories;
import dev.everett.api.TemporaryFiles;
import dev.everett.store.EverettDB;
import dev.everett.store.WriteBatch;
import dev.everett.store.WriteOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
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
            "Either one RocksDB directory (opened read-only; its live records) or SST files (each file's live "
                + "records, in the order given: on equal keys the later file wins). The store is created if DB does not "
                + "exist or is an empty directory."})
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
    public Integer call() throws RocksDBException, IOException {
        RocksDB.loadLibrary();
        boolean directory = Files.isDirectory(sources.get(0));
        if (directory && sources.size() > 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--rocksdb takes one RocksDB directory or SST files, not both");
        }
        long records = 0;
        // Every source is opened, and every SST checked, before the store is opened or created: a
        // missing or corrupt source fails the import without creating a store or writing part of it.
        List<AutoCloseable> opened = new ArrayList<>();
        try {
            RocksDB rocks = null;
            List<SstFileReader> readers = new ArrayList<>();
            if (directory) {
                rocks = openDirectory(sources.get(0), opened);
            } else {
                for (Path sst : sources) {
                    readers.add(openSst(sst, opened));
                }
            }
            // A new store is built under a temporary name beside OUT and renamed into place when
            // whole, so a failure or an interrupt leaves no store with part of the records.
            boolean create = !StoreAccess.isStore(out);
            Path building = out;
            if (create) {
                StoreAccess.refuseNonEmpty(out);
                if (Files.exists(out) && !Files.isDirectory(out)) {
                    throw new CliException(out + ": exists and is not a directory");
                }
                building = TemporaryFiles.beside(out.toAbsolutePath());
            }
            try (ExitCleanup cleanup = create ? ExitCleanup.of(building) : null) {
                try (EverettDB db = create ? access.create(spec, building) : access.openExisting(spec, out); Batches batches = new Batches(db)) {
                    ExitCleanup.pauseForTests();
                    records = copy(rocks, readers, batches);
                    batches.close();
                    db.flush();
                }
                if (create) {
                    Files.move(building, out, StandardCopyOption.ATOMIC_MOVE); // replaces an empty directory
                    DurableDirectories.force(out.toAbsolutePath().getParent());
                }
            } finally {
                if (create) {
                    IndexChain.deleteTree(building);
                }
            }
        } finally {
            for (int i = opened.size() - 1; i >= 0; i--) {
                try {
                    opened.get(i).close();
                } catch (Exception e) {
                    // closing a reader cannot lose data; the import's own outcome stands
                }
            }
        }
        spec.commandLine().getOut().printf("imported %d records from %s into %s%n", records,
                directory ? sources.get(0) : sources.size() + " SST file" + (sources.size() == 1 ? "" : "s"), out);
        return 0;
    }

    /** Puts every live record of the RocksDB directory, or of the SST files in order; returns how many. */
    private static long copy(RocksDB rocks, List<SstFileReader> readers, Batches batches) throws RocksDBException {
        long records = 0;
        if (rocks != null) {
            try (RocksIterator it = rocks.newIterator()) {
                for (it.seekToFirst(); it.isValid(); it.next()) {
                    batches.put(it.key(), it.value());
                    records++;
                }
                it.status();
            }
            return records;
        }
        for (SstFileReader reader : readers) {
            try (ReadOptions ro = new ReadOptions(); SstFileReaderIterator it = reader.newIterator(ro)) {
                for (it.seekToFirst(); it.isValid(); it.next()) {
                    batches.put(it.key(), it.value());
                    records++;
                }
                it.status();
            }
        }
        return records;
    }

    /**
     * Opens a RocksDB directory read-only. Only its default column family is imported, so one with
     * others (a Kafka Streams store keeps its records in {@code keyValueWithTimestamp}) is refused
     * rather than imported in part.
     */
    private static RocksDB openDirectory(Path dir, List<AutoCloseable> opened) {
        try (Options listing = new Options()) {
            List<byte[]> families = RocksDB.listColumnFamilies(listing, dir.toString());
            List<String> others = new ArrayList<>();
            for (byte[] family : families) {
                if (!Arrays.equals(family, RocksDB.DEFAULT_COLUMN_FAMILY)) {
                    others.add(new String(family, StandardCharsets.UTF_8));
                }
            }
            if (!others.isEmpty()) {
                throw new CliException(dir + ": the RocksDB database has column families besides \"default\" (" + String.join(", ", others)
                        + "); import reads the default column family only, so it would leave their records behind");
            }
            Options options = new Options();
            opened.add(options);
            RocksDB rocks = RocksDB.openReadOnly(options, dir.toString());
            opened.add(rocks);
            return rocks;
        } catch (RocksDBException e) {
            throw new CliException(dir + ": not a readable RocksDB database: " + e.getMessage(), e);
        }
    }

    /** Opens an SST file and verifies every block's checksum. */
    private static SstFileReader openSst(Path sst, List<AutoCloseable> opened) {
        if (!Files.isRegularFile(sst)) {
            throw new CliException(sst + ": no such SST file");
        }
        Options options = new Options();
        opened.add(options);
        SstFileReader reader = new SstFileReader(options);
        opened.add(reader);
        try {
            reader.open(sst.toString());
            reader.verifyChecksum();
        } catch (RocksDBException e) {
            throw new CliException(sst + ": not a readable SST file: " + e.getMessage(), e);
        }
        return reader;
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

package dev.everett.cli;

import dev.everett.api.TemporaryFiles;
import dev.everett.store.EverettDB;
import dev.everett.store.EverettIterator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.rocksdb.EnvOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.SstFileWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code export}: a store's live records as one RocksDB SST file. */
@Command(name = "export", mixinStandardHelpOptions = true,
        description = {"Writes a store's live records to an SST file.",
            "Written with RocksDB's SstFileWriter (default options, bytewise order), so RocksDB can ingest it "
                + "with ingestExternalFile (or ldb ingest_extern_sst)."})
final class ExportCommand extends StoreCommand {
    @Option(names = "--sst", required = true, paramLabel = "OUT.sst", description = "The SST file to write (must not exist).")
    Path sst;

    @Override
    public Integer call() throws RocksDBException, IOException {
        RocksDB.loadLibrary();
        if (Files.exists(sst)) {
            throw new CliException(sst + ": already exists");
        }
        OutputFile.check("--sst", sst);
        long records = 0;
        try (EverettDB d = openReadOnly(); EverettIterator it = d.newIterator();
             EnvOptions env = new EnvOptions(); Options options = new Options(); SstFileWriter writer = new SstFileWriter(env, options)) {
            it.seekToFirst();
            if (!it.isValid()) {
                throw new CliException(db + ": the store has no live records, and an SST file cannot be empty");
            }
            // Written under a temporary name and given its own only when whole: a failure or an
            // interrupt leaves no partial SST (which ingest would refuse, and a rerun would not overwrite).
            Path tmp = TemporaryFiles.beside(sst.toAbsolutePath());
            try (ExitCleanup cleanup = ExitCleanup.of(tmp)) {
                writer.open(tmp.toString());
                ExitCleanup.pauseForTests();
                for (; it.isValid(); it.next()) {
                    writer.put(it.key(), it.value());
                    records++;
                }
                writer.finish();
                Files.move(tmp, sst); // refuses a file created there since the check above
            } finally {
                Files.deleteIfExists(tmp);
            }
        }
        out().printf("exported %d records from %s to %s (%d bytes)%n", records, db, sst, sst.toFile().length());
        return 0;
    }
}

package dev.everett.cli;

import dev.everett.api.CorruptSegmentException;
import dev.everett.api.IndexedSegment;
import dev.everett.api.KeyOrderException;
import dev.everett.api.VerifyReport;
import dev.everett.store.CorruptFileException;
import dev.everett.store.EverettDB;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code verify}: the full check of segment files and their index chains. */
@Command(name = "verify", mixinStandardHelpOptions = true,
        description = {"Checks segment files and stores in full.",
            "Files: checksums, framing, key order, the Elias-Fano directory and each file's index chain. Stores: "
                + "opening read-only (descriptor, manifest, logs; nothing in the store is changed), a walk of every live "
                + "record both ways, and each segment file. One line "
                + "per file: OK, CORRUPT (the file, offset and rule) or ERROR (the check could not be made, as for a "
                + "missing file). Exit code 1 unless all are OK."})
final class VerifyCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "FILE|DB", description = "Segment files or EverettDB directories.")
    List<Path> targets;

    @Mixin
    GrammarOption values;

    @Mixin
    StoreAccess access;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        int failed = 0;
        for (Path file : targets) {
            if (Files.isDirectory(file)) {
                failed += verifyStore(file, out);
                continue;
            }
            String result;
            try (SegmentFile f = SegmentFile.open(file, values.grammar())) {
                VerifyReport r = f.reader.verify();
                result = "OK: " + r.records() + " records, " + r.blocks() + " blocks, "
                        + (r.canonical() ? "canonical" : "valid, shorter retention from record " + r.firstNonCanonicalRecord());
                IndexedSegment chain = f.indexed();
                if (chain != null) {
                    chain.verify();
                    result += "; index chain " + IndexChain.dirFor(file) + " OK";
                } else {
                    result += "; no index chain";
                }
            } catch (Exception e) {
                failed++;
                result = verdict(e);
            }
            out.println(file + ": " + result);
        }
        if (failed > 0) {
            spec.commandLine().getErr().println("everett verify: " + failed + (failed == 1 ? " check" : " checks") + " failed");
        }
        return failed == 0 ? 0 : Everett.FAILED;
    }

    /**
     * Opens the store read-only (which checks its descriptor and manifest and replays its logs,
     * writing nothing), walks its live records forward and back, then checks every segment file
     * under it in full. Returns the number of failures, each printed with the file it names.
     */
    private int verifyStore(Path dir, PrintWriter out) {
        int failed = 0;
        try (EverettDB db = access.openReadOnly(spec, dir)) {
            long records = StoreReads.countBothWays(db);
            out.println(dir + ": OK: store opens, " + records + " live records read forward and back");
        } catch (Exception e) {
            out.println(dir + ": " + verdict(e));
            failed++;
        }
        List<Path> segments;
        try (Stream<Path> s = Files.walk(dir)) {
            segments = s.filter(p -> Files.isRegularFile(p) && p.getFileName().toString().endsWith(".kv")).sorted().toList();
        } catch (IOException e) {
            out.println(dir + ": " + verdict(e));
            return failed + 1;
        }
        for (Path segment : segments) {
            try (SegmentFile f = SegmentFile.open(segment, dev.everett.api.ValueGrammar.OPTIONAL)) {
                VerifyReport r = f.reader.verify();
                out.println(segment + ": OK: " + r.records() + " records");
            } catch (Exception e) {
                out.println(segment + ": " + verdict(e));
                failed++;
            }
        }
        return failed;
    }

    /**
     * CORRUPT and the problem when {@code e} reports damage in a file (a broken format rule, a
     * stale or broken index chain, walks that disagree); ERROR and the problem otherwise (a
     * missing file, a store another process holds open, a policy the store was not created with):
     * those say nothing about the data.
     */
    static String verdict(Exception e) {
        boolean damage = e instanceof CorruptSegmentException || e instanceof CorruptFileException || e instanceof KeyOrderException
                || e instanceof CliException c && c.damage;
        return (damage ? "CORRUPT: " : "ERROR: ") + Everett.describe(e);
    }
}

package dev.everett.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Inputs and outputs named wrong (a directory for a file, a file in a directory that does not
 * exist): one line naming the path the user gave, exit 1, nothing written anywhere.
 */
class OutputPathsTest {
    @TempDir
    Path dir;

    private Path segment() throws IOException {
        Path in = Files.writeString(dir.resolve("in.jsonl"), "{\"key\":\"61\",\"value\":\"31\"}\n");
        Path kv = dir.resolve("a.kv");
        assertEquals(0, Cli.run("load", "--format", "kv02", in, kv).exit());
        return kv;
    }

    private List<Path> tree() throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.sorted().toList();
        }
    }

    /** Runs a command that must fail with one line naming {@code named}, writing nothing. */
    private void refused(String command, Object named, Object... args) throws IOException {
        List<Path> before = tree();
        Cli.Result r = Cli.run(args);
        assertEquals(1, r.exit(), r.toString());
        assertTrue(r.err().startsWith("everett " + command + ": " + named + ": "), r.toString());
        assertEquals(1, r.err().lines().count(), r.toString());
        assertTrue(!r.err().contains(".tmp-") && !r.err().contains("Exception"), r.toString());
        assertEquals(before, tree(), "nothing written");
    }

    @Test
    void loadNamesAnInputOrOutputOfTheWrongKind() throws IOException {
        Path kv = segment();
        Path in = dir.resolve("in.jsonl");
        Path sub = Files.createDirectories(dir.resolve("sub"));
        refused("load", sub, "load", "--format", "kv02", sub, dir.resolve("b.kv"));
        refused("load", sub, "load", "--format", "kv02", in, sub);
        refused("load", dir.resolve("missing"), "load", "--format", "kv02", in, dir.resolve("missing").resolve("b.kv"));
        refused("load", kv, "load", "--format", "kv02", in, kv.resolve("b.kv"));
    }

    @Test
    void mergeNamesAnOutputOfTheWrongKind() throws IOException {
        Path kv = segment();
        Path sub = Files.createDirectories(dir.resolve("sub"));
        refused("merge", sub, "merge", kv, "--out", sub);
        refused("merge", dir.resolve("missing"), "merge", kv, "--out", dir.resolve("missing").resolve("m.kv"));
    }

    @Test
    void exportNamesAnOutputOfTheWrongKind() throws IOException {
        Path db = dir.resolve("db");
        assertEquals(0, Cli.run("put", db, "k", "v").exit());
        refused("export", dir.resolve("missing"), "export", db, "--sst", dir.resolve("missing").resolve("x.sst"));
    }

    @Test
    void anInterruptedExportLeavesNoFile() throws Exception {
        Path db = dir.resolve("db");
        assertEquals(0, Cli.run("put", db, "k", "v").exit());
        Path sst = dir.resolve("out.sst");
        ChildCli.interruptWhen(() -> !ChildCli.temporaries(dir).isEmpty(), () -> {
            assertEquals(1, ChildCli.temporaries(dir).size(), "the export writes under a temporary name");
            assertTrue(!Files.exists(sst), "the SST's own name appears only when it is whole");
        }, List.of("-Deverett.test.pause-ms=60000"),
                "export", db, "--sst", sst);
        assertEquals(List.of(), ChildCli.temporaries(dir), "an interrupt deletes the partial SST");
        assertTrue(!Files.exists(sst));
        assertEquals(0, Cli.run("export", db, "--sst", sst).exit(), "and the export can simply be run again");
        assertEquals(List.of(), ChildCli.temporaries(dir));
    }
}

package dev.everett.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DurableDirectoriesTest {
    @TempDir
    Path dir;

    @Test
    void eachDirectoryCreatedIsForcedIntoItsParentTopDown() throws IOException {
        Path leaf = dir.resolve("a").resolve("b").resolve("c");
        List<Path> forced = new ArrayList<>();
        DurableDirectories.create(leaf, forced::add);
        assertTrue(Files.isDirectory(leaf));
        Path root = dir.toAbsolutePath();
        assertEquals(List.of(root, root.resolve("a"), root.resolve("a/b")), forced);
    }

    @Test
    void anExistingDirectoryForcesNothingAndOnlyTheMissingPartIsCreated() throws IOException {
        Files.createDirectories(dir.resolve("a/b"));
        List<Path> forced = new ArrayList<>();
        DurableDirectories.create(dir.resolve("a/b"), forced::add);
        assertEquals(List.of(), forced);
        DurableDirectories.create(dir.resolve("a/b/c/d"), forced::add);
        Path b = dir.toAbsolutePath().resolve("a/b");
        assertEquals(List.of(b, b.resolve("c")), forced);
    }

    @Test
    void aFileInTheWayIsRefusedNamingIt() throws IOException {
        Path file = Files.writeString(dir.resolve("f"), "x");
        FileAlreadyExistsException e = assertThrows(FileAlreadyExistsException.class,
                () -> DurableDirectories.create(file.resolve("sub"), p -> { }));
        assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
    }

    @Test
    void theRealForceRuns() throws IOException {
        DurableDirectories.create(dir.resolve("x/y"));
        assertTrue(Files.isDirectory(dir.resolve("x/y")));
    }

    @Test
    void aBatchForcesEachDirectoryOnceWhenTheOutermostCloses() throws IOException {
        Path a = Files.createDirectory(dir.resolve("a")).toAbsolutePath();
        Path b = Files.createDirectory(dir.resolve("b")).toAbsolutePath();
        List<Path> forced = new ArrayList<>();
        try (DurableDirectories.Batch outer = DurableDirectories.deferForces(forced::add)) {
            DurableDirectories.force(a);
            DurableDirectories.force(b);
            try (DurableDirectories.Batch inner = DurableDirectories.deferForces(p -> forced.add(Path.of("inner")))) {
                DurableDirectories.force(a);
                DurableDirectories.create(b.resolve("c"));
            }
            assertEquals(List.of(), forced, "nothing is forced while the outermost batch is open");
        }
        assertEquals(List.of(a, b), forced, "each directory once, in first-asked order");
        try (DurableDirectories.Batch again = DurableDirectories.deferForces(forced::add)) {
            assertTrue(Files.isDirectory(b.resolve("c")));
        }
        assertEquals(List.of(a, b), forced, "a closed batch defers nothing more, and an empty one forces nothing");
    }
}

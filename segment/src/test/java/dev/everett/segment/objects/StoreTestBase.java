package dev.everett.segment.objects;

import dev.everett.api.ObjectStore;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** A fresh directory per test and the store of {@link StoreFixture#open} in it. */
abstract class StoreTestBase {
    @TempDir
    Path dir;

    /** A store over the test's directory (a second call opens another instance of the same store). */
    ObjectStore store() throws IOException {
        return StoreFixture.open(dir);
    }
}

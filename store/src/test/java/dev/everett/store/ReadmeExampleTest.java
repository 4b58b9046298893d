package dev.everett.store;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The README's ten lines, as written there, with their results checked. */
class ReadmeExampleTest {

    @TempDir
    Path root;

    private final List<String> seen = new ArrayList<>();

    private void use(byte[] key, byte[] value) {
        seen.add(new String(key, UTF_8) + "=" + new String(value, UTF_8));
    }

    @Test
    void readmeExampleRuns() {
        Path dir = root.resolve("my-db");
        byte[] key = "apple".getBytes(UTF_8);
        byte[] value = "red".getBytes(UTF_8);
        byte[] k1 = "banana".getBytes(UTF_8);
        byte[] v1 = "yellow".getBytes(UTF_8);
        byte[] k2 = "cherry".getBytes(UTF_8);
        byte[] hi = "c".getBytes(UTF_8);
        try (EverettDB db = EverettDB.open(dir)) {
            db.put(k2, "dark red".getBytes(UTF_8));
        }
        // --- as in the README, with Path.of("my-db") resolved under the test's directory
        try (EverettDB db = EverettDB.open(dir)) {                     // creates it if missing
            db.put(key, value);
            db.write(new WriteOptions().setSync(true), new WriteBatch().put(k1, v1).delete(k2));
            byte[] v = db.get(key);                                      // null when absent
            try (Snapshot s = db.getSnapshot();
                 EverettIterator it = db.newIterator(new ReadOptions().setSnapshot(s).setIterateUpperBound(hi))) {
                for (it.seekToFirst(); it.isValid(); it.next()) { use(it.key(), it.value()); }
            }
            db.compactRange();                                           // flush, then one run at the bottom
            // --- end of the README's lines
            assertArrayEquals(value, v);
            assertNull(db.get(k2));
            assertEquals("1", db.getProperty("everett.num-files-at-level1"));
        }
        assertEquals(List.of("apple=red", "banana=yellow"), seen);
    }
}

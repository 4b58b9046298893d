package dev.everett.integration;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.compaction.Layout;
import dev.everett.store.DBOptions;
import dev.everett.store.EverettDB;
import dev.everett.store.EverettIterator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files past the sizes where fixed-width arithmetic breaks: a whole-run store whose bottom run
 * grows past 512 MiB (the length at which a checksum combination once went wrong and stopped a
 * ten-million-key store) and, with {@code -Deverett.largeFiles.keys=20000000}, past 2 GiB. It
 * writes gigabytes and runs for minutes, so it is not part of the build: run it with
 * {@code -Deverett.largeFiles=true} (docs/testing.md, "Large files").
 */
@EnabledIfSystemProperty(named = "everett.largeFiles", matches = "true")
class LargeFilesTest {
    private static final int VALUE_BYTES = 100;

    @TempDir
    Path dir;

    @Test
    void wholeRunStorePastHalfAGigabyteReadsBackEveryKey() throws Exception {
        long keys = Long.getLong("everett.largeFiles.keys", 6_000_000L);
        byte[] value = new byte[VALUE_BYTES];
        new SplittableRandom(11).nextBytes(value);
        DBOptions options = new DBOptions().setLevelLayout(Layout.WHOLE_RUN);
        try (EverettDB db = EverettDB.open(dir, options)) {
            for (long i = 0; i < keys; i++) {
                db.put(key(i), valueOf(value, i));
            }
            db.compactRange();
        }
        long largest;
        try (Stream<Path> files = Files.walk(dir)) {
            largest = files.filter(p -> p.toString().endsWith(".kv")).mapToLong(LargeFilesTest::size).max().orElse(0);
        }
        assertTrue(largest > 1L << 29, "the largest native holds " + largest + " bytes, not past 512 MiB: raise everett.largeFiles.keys");
        try (EverettDB db = EverettDB.open(dir, options)) {
            SplittableRandom rnd = new SplittableRandom(12);
            for (int i = 0; i < 100_000; i++) {
                long k = rnd.nextLong(keys);
                assertArrayEquals(valueOf(value, k), db.get(key(k)), "key " + k);
            }
            assertNull(db.get(key(keys)), "a key past the last");
            long seen = 0;
            try (EverettIterator it = db.newIterator()) {
                for (it.seekToFirst(); it.isValid(); it.next()) {
                    assertArrayEquals(key(seen), it.key(), "key at position " + seen);
                    seen++;
                }
            }
            assertEquals(keys, seen, "keys seen by a full scan");
        }
    }

    private static byte[] key(long i) {
        byte[] k = new byte[16];
        Arrays.fill(k, 0, 8, (byte) 'k');
        for (int j = 0; j < 8; j++) {
            k[8 + j] = (byte) (i >>> (56 - 8 * j));
        }
        return k;
    }

    /** The shared random value with the key's ordinal in its first bytes, so a value found under the wrong key shows. */
    private static byte[] valueOf(byte[] value, long i) {
        byte[] v = value.clone();
        for (int j = 0; j < 8; j++) {
            v[j] = (byte) (i >>> (56 - 8 * j));
        }
        return v;
    }

    private static long size(Path p) {
        try {
            return Files.size(p);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}

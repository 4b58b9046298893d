package dev.everett.segment.natives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.api.CorruptSegmentException;
import dev.everett.api.OpenMode;
import dev.everett.api.SegmentEngine;
import dev.everett.api.SegmentReader;
import dev.everett.segment.testing.Profile;
import dev.everett.segment.testing.Rec;
import dev.everett.segment.testing.SegmentFixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A native read whole into memory ({@link SegmentEngine#openInMemory}) answers as its mapping
 * does, checks its body CRC on the bytes it holds, names its file when they fail, and keeps the
 * bytes it read when the file changes afterwards.
 */
class InMemoryReaderTest {
    /** About 3.5 MB: past the 2 MiB from which the copy is made in huge pages (checked below). */
    private static final int LARGE = 100_000;

    private static List<Rec> records(int n) {
        List<Rec> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(Rec.of(String.format("key-%08d", i), i % 7 == 0 ? null : "value-" + i + "-" + "v".repeat(i % 40)));
        }
        return out;
    }

    @ParameterizedTest
    @EnumSource(Profile.class)
    void answersAsTheMappingDoes(Profile profile, @TempDir Path dir) throws IOException {
        for (int n : new int[] {3, LARGE}) {
            Path file = dir.resolve("n" + n + ".kv");
            List<Rec> written = records(n);
            SegmentFixtures.write(file, profile.base(), written);
            if (n == LARGE) {
                assertTrue(Files.size(file) >= 2L << 20, "the large file reaches the huge-page copy: " + Files.size(file));
            }
            try (NativeReader copy = NativeReader.openInMemory(file, profile.base(), OpenMode.TYPED, true);
                 NativeReader mapped = SegmentFixtures.open(file, profile.base())) {
                assertEquals(written, SegmentFixtures.walk(copy));
                assertEquals(SegmentFixtures.walk(mapped), SegmentFixtures.walk(copy));
                assertEquals(Files.size(file), copy.fileBytes());
                assertEquals(n, copy.verify().records());
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Profile.class)
    void aDamagedBodyFailsItsCheckNamingTheFile(Profile profile, @TempDir Path dir) throws IOException {
        Path file = dir.resolve("damaged.kv");
        SegmentFixtures.write(file, profile.base(), records(LARGE));
        byte[] bytes = Files.readAllBytes(file);
        bytes[bytes.length / 2] ^= 0x10;
        Files.write(file, bytes);
        try (SegmentReader r = SegmentEngine.load().openInMemory(file, profile.base(), OpenMode.TYPED)) {
            CorruptSegmentException e = assertThrows(CorruptSegmentException.class, r::verifyChecksum);
            assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
        }
    }

    /** The copy holds what was read: damage done to the file afterwards does not reach it. */
    @ParameterizedTest
    @EnumSource(Profile.class)
    void aCopyKeepsTheBytesItRead(Profile profile, @TempDir Path dir) throws IOException {
        Path file = dir.resolve("changed.kv");
        List<Rec> written = records(LARGE);
        SegmentFixtures.write(file, profile.base(), written);
        assertTrue(SegmentEngine.load().readsIntoMemory(), "the tests run with native access on Linux");
        try (SegmentReader r = SegmentEngine.load().openInMemory(file, profile.base(), OpenMode.TYPED)) {
            byte[] bytes = Files.readAllBytes(file);
            bytes[bytes.length / 2] ^= 0x10;
            Files.write(file, bytes);
            r.verifyChecksum();
            assertEquals(written, SegmentFixtures.walk((NativeReader) r));
        }
    }
}

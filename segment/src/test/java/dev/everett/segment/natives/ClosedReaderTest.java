package dev.everett.segment.natives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.api.OpenMode;
import dev.everett.api.SegmentEngine;
import dev.everett.api.SegmentReader;
import dev.everett.segment.testing.Profile;
import dev.everett.segment.testing.Rec;
import dev.everett.segment.testing.SegmentFixtures;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** A single-file reader (outside any object store) refuses every call once closed, naming its file. */
class ClosedReaderTest {
    @ParameterizedTest
    @EnumSource(Profile.class)
    void everyCallAfterCloseNamesTheFile(Profile profile, @TempDir Path dir) throws Exception {
        Path file = dir.resolve("closed.kv");
        SegmentFixtures.write(file, profile.base(), List.of(Rec.of("apple", "red"), Rec.of("banana", "yellow")));
        SegmentReader r = SegmentEngine.load().open(file, profile.base(), OpenMode.TYPED);
        assertEquals(2, r.recordCount());
        r.close();
        r.close(); // idempotent
        List<Executable> calls = List.of(r::recordCount, r::commonValueWidth, r::fileBytes, r::cursor,
                () -> r.recordAt(0), r::verify, r::verifyChecksum);
        for (Executable call : calls) {
            IllegalStateException e = assertThrows(IllegalStateException.class, call);
            assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
        }
        assertTrue(r.toString().contains(file.toString()));
    }
}

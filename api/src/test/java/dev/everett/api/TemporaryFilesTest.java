package dev.everett.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The temporary name: beside its target, recognised by a sweep, and nothing else is. */
class TemporaryFilesTest {

    @Test
    void aTemporaryNameLiesBesideItsTargetAndIsRecognised() {
        Path target = Path.of("store", "ab", "cd", "0123456789abcdef0123456789ab.kv");
        Path a = TemporaryFiles.beside(target);
        Path b = TemporaryFiles.beside(target);
        assertEquals(target.getParent(), a.getParent());
        assertTrue(a.getFileName().toString().startsWith(".0123456789abcdef0123456789ab.kv.tmp-"), a.toString());
        assertNotEquals(a, b, "two writers of one target get two names");
        assertTrue(TemporaryFiles.isTemporary(a));
        assertTrue(TemporaryFiles.isTemporary(Path.of(".x.filter.tmp-5eed0")));
        assertTrue(TemporaryFiles.isTemporaryOf(a, target));
        assertFalse(TemporaryFiles.isTemporaryOf(TemporaryFiles.beside(target.resolveSibling("other.kv")), target), "another target's");
        assertFalse(TemporaryFiles.isTemporaryOf(target, target), "the target itself");
    }

    @Test
    void publishedAndForeignNamesAreNotTemporary() {
        for (String name : new String[] {"0123456789abcdef0123456789ab.kv", "MANIFEST-000001", "CURRENT.tmp", ".hidden",
                ".x.tmp-", ".tmp-1f", "x.tmp-1f", ".x.tmp-notHex", ".x.tmp-1f.kv"}) {
            assertFalse(TemporaryFiles.isTemporary(Path.of(name)), name);
        }
        assertFalse(TemporaryFiles.isTemporary(Path.of("/")), "the root has no name");
    }
}

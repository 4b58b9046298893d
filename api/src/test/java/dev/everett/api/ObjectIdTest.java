package dev.everett.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Identities drawn beside another share its object directory and nothing else is fixed. */
class ObjectIdTest {
    @Test
    void anIdentityBesideAnotherSharesItsDirectoryOnly() {
        Path root = Path.of("store");
        ObjectId near = ObjectId.parse("abcd0123456789abcdef0123456789ab");
        Set<ObjectId> drawn = new HashSet<>();
        long varied = 0;
        for (int i = 0; i < 1_000; i++) {
            ObjectId id = ObjectId.randomBeside(near);
            assertEquals(near.path(root, ".kv").getParent(), id.path(root, ".kv").getParent(), id.hex());
            assertNotEquals(near, id);
            drawn.add(id);
            varied |= id.high() ^ near.high();
        }
        assertEquals(1_000, drawn.size(), "112 random bits do not repeat");
        assertEquals(0xFFFF_FFFF_FFFFL, varied, "every bit after the directory's 16 varies");
    }
}

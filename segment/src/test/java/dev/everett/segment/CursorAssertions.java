package dev.everett.segment;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.api.SeekCursor;
import dev.everett.segment.testing.Rec;
import java.util.HexFormat;
import java.util.List;

/** Checks a seek cursor against a model of its records. */
final class CursorAssertions {
    private CursorAssertions() {
    }

    /**
     * The cursor is on record {@code i} of {@code model} (key, value, tombstone, ordinal) if
     * {@code inside}, else on none.
     */
    static void assertAt(List<Rec> model, int i, boolean inside, SeekCursor c, String what) {
        if (!inside) {
            assertFalse(c.valid(), () -> what + ": expected no record, got " + HexFormat.of().formatHex(c.keyBytes()));
            return;
        }
        assertTrue(c.valid(), what + ": expected record " + i);
        assertEquals(HexFormat.of().formatHex(model.get(i).key()), HexFormat.of().formatHex(c.keyBytes()), what);
        assertArrayEquals(model.get(i).value(), c.valueBytes(), what);
        assertEquals(model.get(i).tombstone(), c.isTombstone(), what);
        assertEquals(i, c.ordinal(), what);
    }
}

package dev.everett.segment.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The worked examples of docs/format.md as hex dumps, one file each under
 * {@code src/test/resources/dev/everett/segment/worked/} (16 bytes a line, as the format document
 * shows them): the exact bytes the writers must produce.
 */
public final class WorkedDumps {
    private WorkedDumps() {
    }

    /** The dump {@code name} as text (hex byte pairs separated by white space). */
    public static String text(String name) {
        try (InputStream in = WorkedDumps.class.getResourceAsStream("/dev/everett/segment/worked/" + name)) {
            if (in == null) {
                throw new IllegalStateException("no worked-example dump " + name + " on the test class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

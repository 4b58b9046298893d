package dev.everett.cli;

import java.io.PrintWriter;
import picocli.CommandLine.Option;

/** {@code --hex} or {@code --json}: how records are printed (text with hex fallback by default). */
final class OutputStyle {
    @Option(names = "--hex", description = "Print every key and value as 0x hex.")
    boolean hex;

    @Option(names = "--json", description = "Print JSON lines {\"key\": HEX, \"value\": HEX|null}, the form load reads.")
    boolean json;

    /** Records printed, to look for a closed output every {@value #CHECK_EVERY} of them. */
    private long printed;

    private static final int CHECK_EVERY = 256;

    /**
     * Thrown when standard output has been closed by its reader (a pipe into {@code head}): the
     * command stops instead of formatting every remaining record into a writer that drops them.
     */
    static final class OutputClosed extends RuntimeException {
        private static final long serialVersionUID = 1L;

        OutputClosed() {
            super("standard output was closed", null, false, false);
        }
    }

    ByteText.Style style() {
        return hex ? ByteText.Style.HEX : ByteText.Style.TEXT;
    }

    /** Prints one record: {@code key ==> value}, {@code key (tombstone)}, or a JSON line. */
    void print(PrintWriter out, byte[] key, byte[] value) {
        if (++printed % CHECK_EVERY == 0 && out.checkError()) {
            throw new OutputClosed();
        }
        if (json) {
            out.println(JsonRecords.format(key, value));
        } else if (value == null) {
            out.println(ByteText.render(key, style()) + " (tombstone)");
        } else {
            out.println(ByteText.render(key, style()) + " ==> " + ByteText.render(value, style()));
        }
    }
}

package dev.everett.cli;

import java.io.PrintWriter;

/**
 * Progress of one long step on standard error: a bar redrawn in place on a terminal, else a line
 * at every fifth of the way (so logs and captured output stay short).
 */
final class Progress {
    private static final int WIDTH = 30;
    private final PrintWriter err;
    private final String label;
    private final long total;
    private final boolean terminal;
    private int shown = -1;

    Progress(PrintWriter err, boolean terminal, String label, long total) {
        this.err = err;
        this.terminal = terminal;
        this.label = label;
        this.total = Math.max(1, total);
    }

    /** A progress that shows nothing: for a step counted inside another step's bar. */
    static Progress silent() {
        return new Progress(new PrintWriter(java.io.OutputStream.nullOutputStream()), false, "", 1);
    }

    void update(long done) {
        int percent = (int) Math.min(100, done * 100 / total);
        int step = terminal ? percent : percent / 20 * 20;
        if (step == shown) {
            return;
        }
        shown = step;
        int filled = percent * WIDTH / 100;
        String line = String.format("  %-28s [%s%s] %3d%%", label, "#".repeat(filled), ".".repeat(WIDTH - filled), percent);
        if (terminal) {
            err.print("\r" + line);
            if (percent == 100) {
                err.println();
            }
        } else {
            err.println(line);
        }
        err.flush();
    }

    void done() {
        update(total);
    }
}
